// Browser tests of toadbase's page: Debian's chromium, headless, driven by playwright-core
// (launched with executablePath: no browser download). Each case solves the small databases
// it needs with the toadbase binary, starts `toadbase serve --port 0`, plays the page by
// clicks and keys, and checks what the page shows against the server's JSON and against the
// commands' own text output. Any console error, page error or failed request fails the case.
//
//   node run.mjs --toadbase BIN --work DIR --shots DIR CASE
//   CASE: toads-frogs | puzzle | forest | river-toad | deep-link | plain | values
// Exit 0: passed; 1: failed; 77: skipped (no chromium, or playwright-core not installed).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';

const args = process.argv.slice(2);
const opt = name => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const which = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')))[0];
const BIN = opt('--toadbase');
const WORK = opt('--work');
const SHOTS = opt('--shots');
const CHROMIUM = process.env.TOADBASE_CHROMIUM || '/usr/bin/chromium';

function skip(why) {
  console.log(`SKIPPED: ${why}`);
  process.exit(77);
}
if (!fs.existsSync(CHROMIUM)) skip(`no chromium at ${CHROMIUM} (apt-get install chromium, or tools/install-deps.sh)`);
let chromium;
try {
  chromium = createRequire(import.meta.url)('playwright-core').chromium;
} catch (e) {
  skip('playwright-core is not installed in tests/web/node_modules (run tools/install-deps.sh)');
}
if (!BIN || !WORK || !SHOTS || !which) {
  console.error('usage: node run.mjs --toadbase BIN --work DIR --shots DIR CASE');
  process.exit(2);
}

// ---- the server and its databases ------------------------------------------------------------

function toadbase(...a) { return execFileSync(BIN, a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }); }

function solve(id, ...a) {
  const dir = path.join(WORK, 'data', id);
  if (!fs.existsSync(path.join(dir, 'CURRENT'))) toadbase('solve', ...a, '--db', dir, '--quiet');
}

async function serve() {
  const proc = spawn(BIN, ['serve', '--data', path.join(WORK, 'data'), '--port', '0', '--threads', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('serve did not print its URL within 20 s: ' + out)), 20000);
    const read = d => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+\/)/);
      if (m) { clearTimeout(t); resolve(m[1]); }
    };
    proc.stdout.on('data', read);
    proc.stderr.on('data', read);
    proc.on('exit', code => reject(new Error(`serve exited (${code}): ${out}`)));
  });
  return { url, stop: () => proc.kill('SIGTERM') };
}

async function json(url) {
  const r = await fetch(url);
  const j = await r.json();
  if (!r.ok) throw new Error(`${url}: ${r.status} ${JSON.stringify(j)}`);
  return j;
}

// ---- the browser ------------------------------------------------------------------------

const problems = [];
async function openPage(browser, url, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', r => problems.push(`request failed: ${r.url()} ${r.failure() && r.failure().errorText}`));
  page.on('response', r => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url);
  return page;
}
const ready = page => page.waitForSelector('#view[data-ready="1"]', { timeout: 15000 });
async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name + '.png'), fullPage: true });
}
async function noOverflow(page, what) {
  const [sw, w] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(sw <= w + 1, `${what}: the page is wider than the window (${sw} > ${w})`);
}
const hashParams = async page => Object.fromEntries(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)));

/// "rgb(r, g, b)" -> hue family: 'green' | 'red' | 'other'.
function hueOf(css) {
  const m = css.match(/rgba?\((\d+), (\d+), (\d+)/);
  assert.ok(m, `not a colour: ${css}`);
  const [r, g, b] = m.slice(1).map(Number);
  if (g > r + 30 && g > b) return 'green';
  if (r > g + 40 && r > b + 20) return 'red';
  return 'other';
}

// ---- the cases ----------------------------------------------------------------------------

const SIDE = { 1: 'Toads', 2: 'Frogs' };
function words(q) {
  const t = q.position[0], other = t === '1' ? 2 : 1;
  if (q.moves.length === 0) return `${SIDE[t]} cannot move: ${SIDE[other]} win`;
  return `${SIDE[t]} to move ${q.positionValue} in ${q.remoteness}`;
}

/// Every shown value and colour of a Toads and Frogs position against the database.
async function checkTfPosition(page, base, q) {
  const value = await page.textContent('#value');
  assert.ok(value.startsWith(words(q)), `value line '${value}', expected '${words(q)}'`);
  const cells = await page.$$eval('.strip .cell', cs => cs.map(c => ({ move: c.dataset.move || null, value: c.dataset.value || null, border: getComputedStyle(c).borderTopColor, text: c.getAttribute('aria-label') })));
  assert.equal(cells.length, q.position.length - 2, 'one cell per board cell');
  const shownMoves = cells.filter(c => c.move);
  assert.deepEqual(shownMoves.map(c => c.move).sort(), q.moves.map(m => m.move).sort(), 'every legal move drawn on the board');
  for (const m of q.moves) {
    const c = shownMoves.find(x => x.move === m.move);
    assert.equal(c.value, m.moveValue, `move ${m.move}'s value`);
    assert.equal(hueOf(c.border), m.moveValue === 'win' ? 'green' : 'red', `move ${m.move} (${m.moveValue}) drawn ${c.border}`);
    assert.ok(c.text.includes(m.moveValue), `move ${m.move} named in words for a screen reader`);
  }
  // the list, best first, coloured and in words
  const list = await page.$$eval('ol.moves button', bs => bs.map(b => ({ move: b.dataset.move, value: b.dataset.value, bg: getComputedStyle(b).backgroundColor, text: b.textContent })));
  assert.deepEqual(list.map(b => b.move), q.moves.map(m => m.move), 'the move list in the database order (best first)');
  list.forEach((b, i) => {
    assert.equal(b.value, q.moves[i].moveValue);
    assert.equal(hueOf(b.bg), q.moves[i].moveValue === 'win' ? 'green' : 'red', `list colour of ${b.move}`);
    assert.ok(b.text.includes(q.moves[i].moveValue), 'the value in words too');
  });
  // of moves with the same value, the better (smaller deltaRemoteness) is never paler
  const light = css => { const [r, g, b] = css.match(/\d+/g).map(Number); return Math.max(r, g, b) + Math.min(r, g, b); };
  for (const a of q.moves) for (const b of q.moves)
    if (a.moveValue === b.moveValue && a.deltaRemoteness < b.deltaRemoteness)
      assert.ok(light(list.find(x => x.move === a.move).bg) <= light(list.find(x => x.move === b.move).bg), `${a.move} drawn paler than the worse ${b.move}`);
}

const cases = {};

cases['toads-frogs'] = async (browser, base) => {
  const page = await openPage(browser, base);
  await ready(page);
  // the start: a card per database, and the games that need none
  const cards = await page.$$eval('.dbs a.card', as => as.map(a => a.getAttribute('href')));
  assert.ok(cards.includes('#db=tf8&p=1_TTT--FFF'), `the start lists tf8: ${cards}`);
  assert.ok(cards.some(h => h.startsWith('#view=forest')) && cards.includes('#view=rolls'));
  await shot(page, 'home');
  // the picker opens the database at its start
  await page.selectOption('#picker', 'db:tf8');
  await page.waitForFunction(() => location.hash.includes('db=tf8'));
  await ready(page);
  const start = (await json(base + 'api/')).databases.find(d => d.id === 'tf8').start;
  assert.equal((await hashParams(page)).p, start, 'the address names the start');
  let plies = 1, took = { win: 0, lose: 0 }, undone = false;
  // Toads by hand, Frogs by perfect play, to the end
  for (;;) {
    await ready(page);
    const p = (await hashParams(page)).p;
    const q = await json(`${base}api/tf8/query?p=${encodeURIComponent(p)}`);
    await checkTfPosition(page, base, q);
    const circles = await page.$$eval('.chart circle', cs => cs.map(c => c.dataset.winner));
    assert.equal(circles.length, plies, 'one chart point per position of the game');
    assert.equal(circles[circles.length - 1], q.positionValue === 'win' ? SIDE[q.position[0]] : SIDE[q.position[0] === '1' ? 2 : 1], 'the chart colours who is winning');
    if (q.moves.length === 0) break;
    assert.equal(q.position[0], '1', 'the page waits for the Toads (by hand)');
    if (plies === 3) await shot(page, 'toads-frogs-1280');
    // a losing move when there is one on the second turn (red), the best otherwise
    const m = plies === 3 && q.moves.some(x => x.moveValue === 'lose') ? q.moves.find(x => x.moveValue === 'lose') : q.moves[0];
    took[m.moveValue] += 1;
    await page.click(`.strip .cell[data-move="${m.move}"]`);
    await page.waitForFunction(pp => !location.hash.includes(encodeURIComponent(pp)) && !location.hash.includes(pp), p);
    await ready(page);
    const after = await json(`${base}api/tf8/query?p=${encodeURIComponent(m.position)}`);
    plies += 1;
    if (after.moves.length > 0) {
      // perfect play answered with the database's best move
      const now = (await hashParams(page)).p;
      assert.equal(now, after.moves[0].position, `the Frogs' reply to ${m.move} is the best move`);
      plies += 1;
      if (!undone) {  // undo goes back to the Toads' position before the pair of moves
        await page.click('#undo');
        await ready(page);
        assert.equal((await hashParams(page)).p, p, 'undo returns to the position before my move');
        plies -= 2;
        undone = true;
        await page.click(`.strip .cell[data-move="${m.move}"]`);
        await page.waitForFunction(pp => new URLSearchParams(location.hash.slice(1)).get('p') === pp, after.moves[0].position);
        plies += 2;
      }
    }
  }
  assert.ok(took.win + took.lose >= 2, 'a whole game was played');
  await shot(page, 'toads-frogs-end');
};

cases.puzzle = async (browser, base) => {
  const page = await openPage(browser, base + '#db=frogs3&p=LLL_RRR');
  await ready(page);
  const fewest = async () => Number((await page.textContent('#value')).match(/Fewest moves left: (\d+)/)[1]);
  const q0 = await json(`${base}api/frogs3/query?p=LLL_RRR`);
  assert.equal(await fewest(), q0.remoteness);
  assert.match(await page.textContent('.puzzle .sub'), /the goal is RRR_LLL\./);
  // a dead end on purpose, then undo: the branch is marked abandoned
  const deadMove = (await json(`${base}api/frogs3/query?p=LL_LRRR`)).moves.find(m => m.moveValue === 'lose');
  await page.click('.strip .cell[data-move="L from 2 to 3"]');
  await page.waitForFunction(() => location.hash.includes('LL_LRRR'));
  await ready(page);
  await page.click(`.strip .cell[data-move="${deadMove.move}"]`);
  await page.waitForFunction(p => location.hash.includes(p), deadMove.position);
  await ready(page);
  assert.match(await page.textContent('#value'), /Dead end/);
  assert.equal(await page.$$eval('#tree li.dead.current', x => x.length), 1, 'the dead end marked in the tree');
  await shot(page, 'puzzle-dead-end');
  await page.keyboard.press('u');  // undo from the keyboard
  await page.waitForFunction(() => location.hash.includes('LL_LRRR'));
  assert.equal(await page.$$eval('#tree li.abandoned.dead', x => x.length), 1, 'the abandoned branch marked');
  // the tree takes you back: to the dead end, and (undo again) to the position before it
  await page.click('#tree li.abandoned.dead > .node');
  await page.waitForFunction(p => location.hash.includes(p), deadMove.position);
  assert.match(await page.textContent('#value'), /Dead end/);
  await page.click('#undo');
  await page.waitForFunction(() => location.hash.includes('LL_LRRR'));
  // the hint names a move that keeps the goal in reach
  await page.click('#hint');
  const hinted = await page.getAttribute('.strip .cell.hint', 'data-move');
  const q1 = await json(`${base}api/frogs3/query?p=LL_LRRR`);
  assert.equal(q1.moves.find(m => m.move === hinted).moveValue, 'win');
  // now solve it by clicks in the fewest moves: every click takes the remaining count down by one
  let clicks = 1;
  for (;;) {
    const p = (await hashParams(page)).p;
    const q = await json(`${base}api/frogs3/query?p=${encodeURIComponent(p)}`);
    if (q.remoteness === 0) break;
    assert.equal(await fewest(), q.remoteness);
    // frogs that cannot move do nothing when clicked
    const still = await page.$('.strip div.cell[data-piece="L"], .strip div.cell[data-piece="R"]');
    if (still) { await still.click(); assert.equal((await hashParams(page)).p, p, 'a frog with no move stays'); }
    const m = q.moves.find(x => x.moveValue === 'win' && x.remoteness === q.remoteness - 1);
    await page.click(`.strip .cell[data-move="${m.move}"]`);
    await page.waitForFunction(pp => new URLSearchParams(location.hash.slice(1)).get('p') === pp, m.position);
    await ready(page);
    clicks += 1;
  }
  assert.equal(clicks, q0.remoteness, 'solved in the fewest moves');
  assert.match(await page.textContent('#value'), /Solved/);
  await shot(page, 'puzzle-solved');
  // the optimal solution from the start, stepped through; it agrees with `frog-puzzle solve`
  await page.click('#restart');
  await ready(page);
  await page.click('#show-solution');
  await page.waitForSelector('#solution');
  const cli = JSON.parse(toadbase('frog-puzzle', 'solve', 'LLL_RRR', '--json'));
  const listed = await page.$$eval('#solution li', ls => ls.map(l => l.textContent));
  assert.deepEqual(listed, cli.solution.map(s => `${s.move} \u2192 ${s.position}`));
  await shot(page, 'puzzle-solution');
  for (let i = 0; i < cli.solution.length; ++i) {
    await page.click('#solution-next');
    await page.waitForFunction(pp => new URLSearchParams(location.hash.slice(1)).get('p') === pp, cli.solution[i].position);
    await ready(page);
  }
  assert.match(await page.textContent('#value'), /Solved/);
  assert.equal(await page.$$eval('#tree li.onpath', x => x.length), cli.solution.length + 1);
};

cases.forest = async (browser, base) => {
  const side = 4, seed = 27;
  const page = await openPage(browser, `${base}#view=forest&side=${side}&seed=${seed}&agent=original`);
  await ready(page);
  // the command's own text, independently of the JSON route
  const text = toadbase('forest', 'play', '--side', String(side), '--seed', String(seed), '--agent', 'original');
  const m = text.match(/reached the portal|stuck/) && text.match(/(\d+) deaths, (\d+) moves, (\d+) stones, score (-?\d+)/);
  assert.ok(m, text);
  const actions = text.split('\n').filter(l => /^\s+\d+\. /.test(l)).length;
  // the heat map: the portal's probabilities sum to one before any step
  const heat = await page.$$eval('#heat .tile', ts => ts.map(t => Number(t.dataset.p)));
  assert.equal(heat.length, side * side);
  await page.check('input[name=heat][value=portal]');
  const portal = await page.$$eval('#heat .tile', ts => ts.map(t => Number(t.dataset.p)));
  assert.ok(Math.abs(portal.reduce((a, b) => a + b, 0) - 1) < 0.02, `P(portal) sums to ${portal}`);
  await page.check('input[name=heat][value=monster]');
  // Enter steps him, one action a press
  let steps = 0;
  await page.focus('body');
  while (!(await page.isDisabled('#next'))) {
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press('Enter');
    steps += 1;
    await page.waitForSelector(`section.forest[data-step="${steps}"]`);
    if (steps === Math.ceil(actions / 2)) await shot(page, 'forest-1280');
    assert.ok(steps <= actions, 'no more steps than the command prints');
  }
  assert.equal(steps, actions, 'as many steps as `forest play` prints actions');
  assert.equal(await page.textContent('#deaths'), m[1]);
  assert.equal(await page.textContent('#moves'), m[2]);
  assert.equal(await page.textContent('#stones'), m[3]);
  assert.equal(await page.textContent('#score'), m[4]);
  assert.match(await page.textContent('#result'), new RegExp(`score ${m[4]}[ .]`));
  // the end's colour: a success's only when the walk paid (this one reaches the portal after
  // two deaths, below zero), a failure's when he is stuck
  const reached = /reached the portal/.test(text), score = Number(m[4]);
  const hue = hueOf(await page.$eval('#result', e => getComputedStyle(e).color));
  assert.equal(hue, reached && score > 0 ? 'green' : reached ? 'other' : 'red', `the end '${await page.textContent('#result')}' in ${hue}`);
  if (reached && score <= 0) assert.match(await page.textContent('#result'), /at a loss/);
  await shot(page, 'forest-end');
  // a new forest by side and seed from the form, with the bayes agent
  await page.fill('input[name=side]', '3');
  await page.fill('input[name=seed]', '5');
  await page.selectOption('#agent', 'bayes');
  await page.click('#new-forest');
  await page.waitForFunction(() => location.hash.includes('agent=bayes') && location.hash.includes('seed=5'));
  await ready(page);
  await page.click('#to-end');
  // `forest play --json`: one object a line, the result last
  const cli = JSON.parse(toadbase('forest', 'play', '--side', '3', '--seed', '5', '--agent', 'bayes', '--json').trim().split('\n').pop());
  assert.equal(await page.textContent('#score'), String(cli.result.score));
  // the picker's forest database: the stored optimal policy decides, as `forest play --db` does
  await page.selectOption('#picker', 'db:forest3');
  await page.waitForFunction(() => location.hash.includes('agent=optimal') && location.hash.includes('db=forest3'));
  await ready(page);
  assert.equal(await page.inputValue('#agent'), 'optimal');
  await page.click('#to-end');
  const db = path.join(WORK, 'data', 'forest3');
  const opt = JSON.parse(toadbase('forest', 'play', '--side', '3', '--seed', '1', '--agent', 'optimal', '--db', db, '--json').trim().split('\n').pop());
  assert.equal(await page.textContent('#score'), String(opt.result.score));
  assert.equal(await page.$$eval('#replaced', x => x.length), 0, 'nothing was replaced');
  await forestOnPhone(browser, base);
};

/// At phone size: what the view could not show as asked it says; the legend names every look
/// of a tile; a walk that reached the portal and paid is coloured a success, one at a loss not.
async function forestOnPhone(browser, base) {
  const phone = await openPage(browser, `${base}#view=forest&side=9&seed=1&agent=optimal`, { width: 390, height: 844 });
  await ready(phone);
  const said = await phone.textContent('#replaced');
  assert.match(said, /Side 9 was asked.* side 8\./);
  assert.match(said, /none of side 8: the Bayesian agent \(bayes\) walks instead/);
  assert.equal(await phone.inputValue('#agent'), 'bayes');
  assert.equal(await phone.$eval('h2', h => h.textContent), 'Magic Forest: 8\u00d78, seed 1');
  await noOverflow(phone, 'the forest at phone size');
  const legend = await phone.$$eval('#forest-legend li', ls => ls.map(l => l.textContent));
  for (const w of ['unknown', 'the start', 'walked on', 'killed by a monster', 'fell into a trap', 'the portal', 'the wanderer'])
    assert.ok(legend.some(x => x.includes(w)), `the legend names '${w}': ${legend}`);
  await shot(phone, 'phone-forest-replaced');
  // the optimal agent with no database of a side that is in range: only the agent is replaced
  await phone.goto(`${base}#view=forest&side=4&seed=1&agent=optimal`);
  await ready(phone);
  assert.doesNotMatch(await phone.textContent('#replaced'), /was asked/);
  assert.match(await phone.textContent('#replaced'), /none of side 4/);
  // the first seeds of side 3 whose walk reaches the portal, one that paid and one at a loss
  const found = {};
  for (let seed = 1; seed <= 200 && !(found.paid && found.loss); ++seed) {
    const r = JSON.parse(toadbase('forest', 'play', '--side', '3', '--seed', String(seed), '--agent', 'original', '--json').trim().split('\n').pop()).result;
    if (r.portal) found[r.score > 0 ? 'paid' : 'loss'] ??= { seed, ...r };
  }
  assert.ok(found.paid && found.loss, `seeds of side 3 with the portal reached, paid and at a loss: ${JSON.stringify(found)}`);
  for (const [kind, r] of Object.entries(found)) {
    await phone.goto(`${base}#view=forest&side=3&seed=${r.seed}&agent=original`);
    await ready(phone);
    await phone.click('#to-end');
    const end = await phone.textContent('#result');
    assert.match(end, new RegExp(`^Reached the portal.*score ${r.score}`));
    const hue = hueOf(await phone.$eval('#result', e => getComputedStyle(e).color));
    assert.equal(hue, kind === 'paid' ? 'green' : 'other', `'${end}' in ${hue}`);
    if (kind === 'loss') {
      assert.match(end, new RegExp(`at a loss: score ${r.score} \\(${r.deaths} deaths?, ${r.stones} stones?\\)`));
      await shot(phone, 'phone-forest-loss');
    }
  }
}

cases['river-toad'] = async (browser, base) => {
  const rolls = path.join(WORK, 'rolls.txt');
  fs.writeFileSync(rolls, '12 # a test roll file\n5\n17\n30\n2\n9\n21\n12\n0\n33\n8\n14\n27\n');
  const page = await openPage(browser, base + '#view=rolls');
  await ready(page);
  await page.setInputFiles('#rolls-file', rolls);
  await page.waitForFunction(() => document.querySelector('#rolls').value.startsWith('12 #'));
  await page.click('#solve');
  await page.waitForSelector('#verdict');
  // the command's replay, turn by turn
  const play = toadbase('river-toad', 'play', rolls);
  const turns = [...play.matchAll(/^turn (\d+): (\w), roll (\d+), column (\d+), HP (\d+)/gm)];
  assert.equal(turns.length, 12);
  for (const t of turns) {
    await page.click('#next-turn');
    const line = await page.textContent('#turn');
    assert.ok(line.startsWith(`Turn ${t[1]} of 12: action ${t[2]}, roll ${t[3]}, column ${t[4]}, HP ${t[5]}`), `${line} vs ${t[0]}`);
    assert.equal(await page.getAttribute('#turn', 'data-hp'), t[5]);
    if (t[1] === '6') await shot(page, 'river-toad-replay');
  }
  assert.ok(await page.isDisabled('#next-turn'));
  const final = play.match(/survived all 12 turns with HP (\d+)/);
  assert.match(await page.textContent('#verdict'), new RegExp(`ends with HP ${final[1]}$`));
  // a bad roll file is named, not a crash
  await page.fill('#rolls', '3\n5\n99\n');
  const before = problems.length;
  await page.click('#solve');
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /99/);
  problems.splice(before);  // the 400 asked for above is the point, not a problem
  // a position database: each action's survival odds as the query gives them
  const db = (await json(base + 'api/')).databases.find(d => d.game === 'river-toad');
  await page.goto(`${base}#db=${db.id}&p=${encodeURIComponent(db.start)}`);
  await ready(page);
  const q = await json(`${base}api/${db.id}/query?p=${encodeURIComponent(db.start)}`);
  const odds = await page.$$eval('#odds li', ls => ls.map(l => [l.dataset.move, Number(l.dataset.survival)]));
  assert.deepEqual(odds, q.moves.map(m => [m.move, m.survival]));
  await shot(page, 'river-toad-positions');
};

cases['deep-link'] = async (browser, base) => {
  // a shared link opens the position it names, at phone size too
  const q0 = await json(`${base}api/tf8/query?p=1_TTT--FFF`);
  const p = q0.moves[0].position;
  for (const [name, viewport] of [['1280', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
    const page = await openPage(browser, `${base}#db=tf8&p=${encodeURIComponent(p)}`, viewport);
    await ready(page);
    const q = await json(`${base}api/tf8/query?p=${encodeURIComponent(p)}`);
    // the side to move at the link is played by hand
    await checkTfPosition(page, base, q);
    await noOverflow(page, `toads and frogs at ${name}`);
    await shot(page, `deep-link-${name}`);
    // keyboard only: Tab to the first move and press Enter
    for (let i = 0; i < 40; ++i) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement && document.activeElement.matches('.strip button.cell'))) break;
    }
    const move = await page.evaluate(() => document.activeElement.dataset.move);
    assert.ok(move, 'a move is reached with Tab');
    await page.keyboard.press('Enter');
    const m = q.moves.find(x => x.move === move);
    await page.waitForFunction(pp => { const h = new URLSearchParams(location.hash.slice(1)).get('p'); return h && h !== pp; }, p);
    await ready(page);
    const after = (await hashParams(page)).p;
    const child = await json(`${base}api/tf8/query?p=${encodeURIComponent(m.position)}`);
    assert.ok(after === m.position || (child.moves.length && after === child.moves[0].position), 'Enter played the focused move');
    await stripFits(page, base, `${name}: 17 cells`, '#db=frogs8&p=LLLLLLLL_RRRRRRRR', 17);
    for (const [hash, sel] of [['#db=frogs3&p=LL_LRRR', '.puzzle'], ['#view=forest&side=3&seed=2&agent=oracle', '#forest-grid'], ['#view=rolls', '#rolls']]) {
      await page.goto(base + hash);
      await ready(page);
      await page.waitForSelector(sel);
      await noOverflow(page, `${hash} at ${name}`);
      if (name === 'phone') await shot(page, 'phone-' + sel.replace(/\W/g, ''));
    }
  }
  // an unknown database in a link says so
  const page = await openPage(browser, `${base}#db=nosuch&p=x`);
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /no database 'nosuch'/);
};

/// A strip of `n` cells fits the window: no sideways scroll, one row, every cell inside the
/// window and numbered in order, none crushed below 16 pixels.
async function stripFits(page, base, what, hash, n) {
  await page.goto(base + hash);
  await ready(page);
  await page.waitForSelector('.strip .cell');
  const s = await page.$eval('.strip', strip => ({
    scroll: strip.scrollWidth, client: strip.clientWidth, window: window.innerWidth,
    cells: [...strip.querySelectorAll('.cell')].map(c => { const r = c.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, width: r.width, num: c.querySelector('.num').textContent }; }),
  }));
  assert.equal(s.cells.length, n, what);
  assert.ok(s.scroll <= s.client + 1, `${what}: the strip scrolls sideways (${s.scroll} > ${s.client})`);
  assert.ok(s.cells.every(c => c.left >= 0 && c.right <= s.window), `${what}: a cell is outside the window`);
  assert.equal(new Set(s.cells.map(c => Math.round(c.top))).size, 1, `${what}: the cells are not in one row`);
  assert.deepEqual(s.cells.map(c => c.num), s.cells.map((c, i) => String(i)), `${what}: the numbering`);
  assert.ok(Math.min(...s.cells.map(c => c.width)) >= 16, `${what}: cells of ${Math.min(...s.cells.map(c => c.width))} px`);
  await noOverflow(page, what);
  await shot(page, 'strip-' + what.replace(/\W+/g, '-'));
}

cases.plain = async (browser, base) => {
  // the plain view, knowing nothing of the game: combinatorial game values
  const listing = await json(base + 'api/');
  const d = listing.databases.find(x => x.id === 'cgt6');
  const page = await openPage(browser, base);
  await ready(page);
  const card = `#db=cgt6&p=${encodeURIComponent(d.start)}`;
  assert.ok((await page.$$eval('.dbs a.card', as => as.map(a => a.getAttribute('href')))).includes(card), 'the card opens the start');
  assert.ok((await page.textContent(`.dbs a.card[href="${card}"]`)).includes(d.description), 'the card says what /api/ describes');
  // its game has a view of its own (the values case); any database opens in the plain one too
  await page.goto(base + card + '&as=plain');
  await page.waitForSelector('section.plain');
  await ready(page);
  const field = listing.games.find(g => g.name === d.game).view.positionField;
  /// Every field of the answer shown (the lists of moves as tables), against the query.
  async function check(q) {
    const shown = await page.$$eval('#answer > div > dd', dds => Object.fromEntries(dds.map(x => [x.dataset.key, x.textContent])));
    for (const [k, v] of Object.entries(q)) {
      if (Array.isArray(v) && v.length && typeof v[0] === 'object') {
        const rows = await page.$$eval(`table[data-list="${k}"] tbody tr`, trs => trs.map(tr => {
          const b = tr.querySelector('button.move');
          return b ? [b.dataset.move, b.dataset.position] : [tr.cells[0].textContent, null];
        }));
        assert.deepEqual(rows, v.map(m => [m.move, typeof m[field] === 'string' ? m[field] : null]), `the ${k} listed, each opening its position`);
      } else if (Array.isArray(v)) {
        assert.equal(shown[k], v.length === 0 ? 'none' : v.every(x => typeof x === 'string') ? v.join('\n') : v.join(', '), `${k} shown`);
      } else {
        assert.equal(shown[k], String(v), `${k} shown`);
      }
    }
  }
  let q = await json(`${base}api/cgt6/query?p=${encodeURIComponent(d.start)}`);
  assert.equal(await page.textContent('#answer dd[data-key="value"]'), q.value, 'the value of the start');
  await check(q);
  // a move opens its board: the value shown is the one the move list gave it
  const m = q.leftMoves[0];
  await page.click(`table[data-list="leftMoves"] button.move[data-move="${m.move}"]`);
  await page.waitForFunction(pp => new URLSearchParams(location.hash.slice(1)).get('p') === pp, m[field]);
  await ready(page);
  q = await json(`${base}api/cgt6/query?p=${encodeURIComponent(m[field])}`);
  assert.equal(q.value, m.value);
  assert.equal(await page.textContent('#answer dd[data-key="value"]'), m.value, `the value of ${m[field]}`);
  await check(q);
  // a board typed in (up: T-TFF), and one the database refuses
  await page.fill('#position', 'T-TFF');
  await page.press('#position', 'Enter');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('p') === 'T-TFF');
  await ready(page);
  q = await json(`${base}api/cgt6/query?p=T-TFF`);
  assert.equal(await page.textContent('#answer dd[data-key="value"]'), q.value);
  await check(q);
  await noOverflow(page, 'the plain view');
  await shot(page, 'plain-cgt');
  const before = problems.length;
  await page.fill('#position', 'TX');
  await page.click('#position-form button[type=submit]');
  await page.waitForSelector('#error:not([hidden])');
  const refused = await fetch(`${base}api/cgt6/query?p=TX`).then(r => r.json());
  assert.equal(await page.textContent('#error'), refused.error);
  assert.equal(await page.inputValue('#position'), 'TX', 'the position stays to be mended');
  problems.splice(before);  // the 400 asked for above is the point, not a problem
  // any database in the plain view: River Toad's actions lead to no one position
  const rt = listing.databases.find(x => x.id === 'rt2');
  await page.goto(`${base}#db=rt2&p=${encodeURIComponent(rt.start)}&as=plain`);
  await ready(page);
  await page.waitForSelector('section.plain');
  q = await json(`${base}api/rt2/query?p=${encodeURIComponent(rt.start)}`);
  await check(q);
  assert.equal(await page.$$eval('button.move', bs => bs.length), 0, 'no action names a position to open');
  await shot(page, 'plain-river-toad');
};

cases.values = async (browser, base) => {
  // combinatorial game values: a board built by clicks, its fields, moves and thermograph, and
  // boards by value, each against the server's JSON (query, the game's thermograph route, find)
  const listing = await json(base + 'api/');
  const d = listing.databases.find(x => x.id === 'cgt7');
  const game = listing.games.find(g => g.name === d.game);
  assert.equal(game.view.kind, 'values');
  const field = game.view.positionField;
  const page = await openPage(browser, base);
  await ready(page);
  await page.click(`.dbs a.card[href="#db=cgt7&p=${encodeURIComponent(d.start)}"]`);
  await page.waitForSelector('section.values');
  await ready(page);
  const here = async () => (await hashParams(page)).p;
  /// Everything shown of the board against its query and its thermograph.
  async function check(board) {
    const q = await json(`${base}api/cgt7/query?p=${encodeURIComponent(board)}`);
    assert.equal(await here(), q[field], 'the address names the board');
    assert.equal(await page.inputValue('#position'), q[field]);
    assert.equal(await page.textContent('#value-text'), q.value, `the value of ${board}`);
    const cells = await page.$$eval('#board .cell', cs => cs.map(c => c.dataset.piece).join(''));
    assert.equal(cells, q[field], 'the cells are the board');
    const shown = await page.$$eval('#answer > div > dd', dds => Object.fromEntries(dds.map(x => [x.dataset.key, x.textContent])));
    for (const [k, v] of Object.entries(q)) {
      if (k === field || k === 'value') continue;
      if (Array.isArray(v)) {
        const rows = await page.$$eval(`table[data-list="${k}"] tbody tr`, trs => trs.map(tr => [tr.cells[0].textContent, tr.querySelector('button.move').dataset.position, tr.cells[2].textContent]));
        assert.deepEqual(rows, v.map(m => [m.move, m[field], m.value]), `${k} of ${board}`);
      } else {
        assert.equal(shown[k], String(v), `${k} of ${board}`);
      }
    }
    const th = await json(`${base}api/toads-frogs-cgt/thermograph?value=${encodeURIComponent(q.value)}`);
    // two ways to the same numbers: the solve's stops, mean and temperature, and the walls of
    // the value parsed back from its text
    assert.equal(th.value, q.value);
    assert.equal(th.mean, q.mean, `the mean of ${board}`);
    assert.equal(th.temperature, q.temperature, `the temperature of ${board}`);
    assert.equal(th.leftWall[0].value, q.leftStop);
    assert.equal(th.rightWall[0].value, q.rightStop);
    const label = await page.getAttribute('#thermograph', 'aria-label');
    assert.equal(label, `thermograph of ${q.value}: mean ${q.mean}, temperature ${q.temperature}`);
    const walls = await page.$$eval('#thermograph polyline', ps => Object.fromEntries(ps.map(p => [p.dataset.wall, p.getAttribute('points').split(' ').map(xy => xy.split(',').map(Number))])));
    assert.equal(walls.left.length, 2 * th.leftWall.length, 'a point at each end of each piece');
    // Left's wall is drawn left of (or on) Right's at t = 0, where Left's stop is the larger
    assert.ok(walls.left[0][0] <= walls.right[0][0] + 0.01, `${board}: Left's stop is drawn on the left`);
    assert.equal(walls.left[0][1], walls.right[0][1], 't = 0 at both walls');
    // both walls end on the mast: the same point at the top
    assert.deepEqual(walls.left.at(-1), walls.right.at(-1), `${board}: the walls meet and rise as the mast`);
    return q;
  }
  let q = await check(d.start);
  // a click on a cell changes it: empty, then each piece in turn
  const pieces = game.view.pieces.map(p => p.letter), empty = game.view.words.empty;
  const cycle = [empty, ...pieces];
  let board = q[field];
  const next = ch => cycle[(cycle.indexOf(ch) + 1) % cycle.length];
  for (const i of [0, 1, 1]) {
    board = board.slice(0, i) + next(board[i]) + board.slice(i + 1);
    await page.click(`#board .cell[data-cell="${i}"]`);
    await page.waitForFunction(b => new URLSearchParams(location.hash.slice(1)).get('p') === b, board);
    await ready(page);
    await check(board);
  }
  // cells taken away and added at the end
  board = board.slice(0, -1);
  await page.click('#remove-cell');
  await page.waitForFunction(b => new URLSearchParams(location.hash.slice(1)).get('p') === b, board);
  await ready(page);
  await check(board);
  board += empty;
  await page.click('#add-cell');
  await page.waitForFunction(b => new URLSearchParams(location.hash.slice(1)).get('p') === b, board);
  await ready(page);
  await check(board);
  // a typed board: T-TFF is up, a hot one: a move opens its child with the value it listed
  for (const typed of ['T-TFF', 'TT-F-F-']) {
    await page.fill('#position', typed);
    await page.press('#position', 'Enter');
    await page.waitForFunction(b => new URLSearchParams(location.hash.slice(1)).get('p') === b, typed);
    await ready(page);
    q = await check(typed);
  }
  const m = q.rightMoves[0];
  await page.click(`table[data-list="rightMoves"] button.move[data-move="${m.move}"]`);
  await page.waitForFunction(b => new URLSearchParams(location.hash.slice(1)).get('p') === b, m[field]);
  await ready(page);
  assert.equal((await check(m[field])).value, m.value, 'the child has the value its move listed');
  // boards by value: the same answer as the route's, each listed board opens with that value
  for (const [value, kind, temperature] of [['*', '', ''], ['', 'hot', '1'], ['^', '', '']]) {
    if (value) await page.fill('#find-value', value); else await page.fill('#find-value', '');
    await page.selectOption('#find-kind', kind);
    await page.fill('#find-temperature', temperature);
    await page.click('#find-form button[type=submit]');
    await page.waitForSelector('#find[data-ready="1"] #find-summary');
    const params = new URLSearchParams();
    if (value) params.set('value', value);
    if (kind) params.set('kind', kind);
    if (temperature) params.set('temperatureAtLeast', temperature);
    params.set('limit', '20');
    const a = await json(`${base}api/cgt7/find?${params}`);
    assert.ok(a.found, `${value || kind} is found up to 7 cells`);
    const lengths = await page.$$eval('#find-lengths tbody tr', trs => trs.map(tr => [Number(tr.cells[0].textContent), Number(tr.cells[1].textContent.replace(/,/g, ''))]));
    assert.deepEqual(lengths, a.byLength.filter(e => e.boards > 0).map(e => [e.length, e.boards]));
    const listed = await page.$$eval('#find-shortest a', as => as.map(x => x.dataset.board));
    assert.deepEqual(listed, a.shortest.map(x => x.board));
    const pick = listed.at(-1);
    await page.click(`#find-shortest a[data-board="${pick}"]`);
    await page.waitForFunction(b => new URLSearchParams(location.hash.slice(1)).get('p') === b, pick);
    await ready(page);
    const got = await check(pick);
    if (value) assert.equal(got.value, a.value, `${pick} has the value found`);
    else assert.ok(got.kind === 'hot' && valueOf(got.temperature) >= 1, `${pick} is hot enough`);
    assert.deepEqual(await page.$$eval('#find-shortest a', as => as.map(x => x.dataset.board)), listed, 'the results stay while boards are opened');
  }
  await noOverflow(page, 'the values view');
  await shot(page, 'values');
  // what the server refuses is said where it was asked
  const before = problems.length;
  await page.fill('#find-value', '{0|');
  await page.selectOption('#find-kind', '');
  await page.fill('#find-temperature', '');
  await page.click('#find-form button[type=submit]');
  await page.waitForSelector('#find-error');
  const refused = await fetch(`${base}api/cgt7/find?value=${encodeURIComponent('{0|')}&limit=20`).then(r => r.json());
  assert.equal(await page.textContent('#find-error'), refused.error);
  const seven = 'TT-F-F-';  // past the database's length: the server's message, the board kept
  await page.fill('#position', seven);
  await page.press('#position', 'Enter');
  await page.waitForFunction(b => new URLSearchParams(location.hash.slice(1)).get('p') === b, seven);
  await ready(page);
  await page.click('#add-cell');
  await page.waitForSelector('#error:not([hidden])');
  const long = await fetch(`${base}api/cgt7/query?p=${encodeURIComponent(seven + empty)}`).then(r => r.json());
  assert.equal(await page.textContent('#error'), long.error);
  assert.equal(await page.inputValue('#position'), seven + empty);
  // the error above is still showing: wait for the new board's message, not just any error
  const bad = await fetch(`${base}api/cgt7/query?p=TXF`).then(r => r.json());
  await page.fill('#position', 'TXF');
  await page.press('#position', 'Enter');
  await page.waitForFunction(text => { const e = document.querySelector('#error'); return e && !e.hidden && e.textContent === text; }, bad.error, { timeout: 10000 })
    .catch(async () => assert.fail(`the page shows '${await page.textContent('#error')}' for TXF, not the server's '${bad.error}'`));
  problems.splice(before);  // the 400s asked for above are the point
  // a phone: the board, the thermograph and the forms fit
  const phone = await openPage(browser, `${base}#db=cgt7&p=TT-F-F-`, { width: 390, height: 844 });
  await ready(phone);
  await phone.waitForSelector('#thermograph');
  await noOverflow(phone, 'the values view on a phone');
  await shot(phone, 'values-phone');
};

/// "3/2" -> 1.5
function valueOf(text) {
  const [n, dd] = String(text).split('/');
  return Number(n) / (dd ? Number(dd) : 1);
}

// ---- main ----------------------------------------------------------------------------------

const needs = {
  'toads-frogs': ['tf8'], puzzle: ['frogs3'], forest: ['forest3'], 'river-toad': ['rt2'], 'deep-link': ['tf8', 'frogs3', 'frogs8'],
  plain: ['cgt6', 'rt2'], values: ['cgt7'],
};
if (!cases[which]) { console.error(`no case '${which}': ${Object.keys(cases).join(', ')}`); process.exit(2); }
fs.mkdirSync(path.join(WORK, 'data'), { recursive: true });
for (const id of needs[which]) {
  if (id === 'tf8') solve(id, 'toads-frogs', '--length', '8');
  if (id === 'frogs3') solve(id, 'frog-puzzle', '--left', '3', '--right', '3');
  if (id === 'frogs8') solve(id, 'frog-puzzle', '--left', '8', '--right', '8');
  if (id === 'rt2') solve(id, 'river-toad', '--turns', '2');
  if (id === 'forest3') solve(id, 'forest', '--side', '3');
  if (id === 'cgt6') solve(id, 'toads-frogs-cgt', '--length', '6');
  if (id === 'cgt7') {
    solve(id, 'toads-frogs-cgt', '--length', '7');
    if (!fs.existsSync(path.join(WORK, 'data', id, 'cgt-find.index'))) toadbase('cgt', 'index', '--db', path.join(WORK, 'data', id));
  }
}
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
let failed = false;
try {
  await cases[which](browser, server.url);
  if (problems.length) throw new Error('the page reported problems:\n  ' + problems.join('\n  '));
  console.log(`PASSED: ${which}`);
} catch (e) {
  failed = true;
  console.error(`FAILED: ${which}: ${e.stack || e}`);
} finally {
  await browser.close();
  server.stop();
}
process.exit(failed ? 1 : 0);
