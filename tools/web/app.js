// toadbase's page: pick a served database (or a game that needs none) and play it. Plain
// script, no framework, no network beyond this server's /api/. The address's hash names what
// is shown, so a link can be shared:
//   #db=tf8&p=1_TTT--FFF                  Toads and Frogs (or the frog puzzle) at a position
//   #db=rt4&p=4_13_3_0.0.0.0              a River Toad position database
//   #view=forest&side=3&seed=7&agent=bayes[&db=forest3]   a forest, the wanderer stepping
//   #view=rolls                           River Toad: a roll file solved and replayed
'use strict';

const $ = (sel, root = document) => root.querySelector(sel);
const view = () => $('#view');
let databases = [];
let current = null;  // the running view's state; `stop()` is called when another view starts
let renderToken = 0;

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'style') e.setAttribute('style', v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c.nodeType ? c : document.createTextNode(String(c)));
  return e;
}

function showError(message) {
  const e = $('#error');
  e.textContent = message;
  e.hidden = !message;
}

async function api(path, options) {
  const r = await fetch(path, options);
  let body;
  try {
    body = await r.json();
  } catch (e) {
    throw new Error(`${path}: the answer is not JSON (HTTP ${r.status})`);
  }
  if (!r.ok || (body && body.error && !Array.isArray(body))) throw new Error(body && body.error ? body.error : `${path}: HTTP ${r.status}`);
  return body;
}

// ---- the address -------------------------------------------------------------------------

function readHash() {
  return Object.fromEntries(new URLSearchParams(location.hash.replace(/^#/, '')));
}
function hashOf(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  return '#' + q.toString();
}
/// Records where the view is without starting it again.
function note(params) {
  const h = hashOf(params);
  if (location.hash !== h) history.replaceState(null, '', h);
}
function go(params) {
  const h = hashOf(params);
  if (location.hash === h) route();
  else location.hash = h;
}

// ---- values, colours, words -----------------------------------------------------------------

const SIDE = { 1: 'Toads', 2: 'Frogs' };

/// A move's colour for the player making it: win green, lose red; the best of each (a win that
/// hurries, a loss that stalls: deltaRemoteness 0) brightest, others paler (as GamesmanUni).
function moveColour(m) {
  const d = Math.min(m.deltaRemoteness || 0, 6);
  if (m.moveValue === 'win') return `hsl(135, ${62 - d * 5}%, ${46 + d * 6}%)`;
  if (m.moveValue === 'lose') return `hsl(3, ${78 - d * 6}%, ${58 + d * 5}%)`;
  return 'hsl(50, 80%, 60%)';
}
function moveWords(m) {
  if (m.moveValue === 'win') return `wins in ${m.remoteness + 1}`;
  if (m.moveValue === 'lose') return m.remoteness === 0 && m.positionValue === 'win' ? 'loses at once' : `loses in ${m.remoteness + 1}`;
  return m.moveValue;
}
function symbol(v) { return v === 'win' ? '\u2713' : v === 'lose' ? '\u2717' : '='; }

function tfValueWords(q) {
  const turn = q.position[0];
  const mover = SIDE[turn], other = SIDE[turn === '1' ? 2 : 1];
  if (q.moves.length === 0) return `${mover} cannot move: ${other} win`;
  if (q.positionValue === 'win') return `${mover} to move win in ${q.remoteness}`;
  if (q.positionValue === 'lose') return `${mover} to move lose in ${q.remoteness}`;
  return `${mover} to move: ${q.positionValue}`;
}

// ---- the start: the picker -------------------------------------------------------------------

function describe(d) {
  const p = d.parameters || {};
  if (d.game === 'toads-frogs') return `Toads and Frogs, ${p.length} cells` + (p.toads !== undefined ? `, ${p.toads} toads, ${p.frogs} frogs` : '');
  if (d.game === 'frog-puzzle') return `Frog puzzle, ${p.left} + ${p.right} frogs, ${p.empty} empty`;
  if (d.game === 'river-toad') return `River Toad positions, ${p.turns} turns`;
  if (d.game === 'forest') return `Magic Forest policy, side ${p.side}`;
  return d.game;
}

function fillPicker() {
  const s = $('#picker');
  s.replaceChildren(el('option', { value: '', text: 'Choose\u2026' }));
  for (const d of databases) s.append(el('option', { value: 'db:' + d.id, text: `${d.id}: ${describe(d)}` }));
  s.append(el('option', { value: 'view:forest', text: 'Magic Forest: watch the wanderer' }));
  s.append(el('option', { value: 'view:rolls', text: 'River Toad: replay a roll file' }));
  s.addEventListener('change', () => {
    const v = s.value;
    if (v.startsWith('db:')) {
      const d = databases.find(x => x.id === v.slice(3));
      if (d.game === 'forest') go({ view: 'forest', side: 3, seed: 1, agent: 'optimal', db: d.id });
      else go({ db: d.id, p: d.start });
    } else if (v.startsWith('view:')) go({ view: v.slice(5) });
    else go({});
  });
}

function syncPicker(h) {
  const s = $('#picker');
  const v = h.view === 'forest' && h.db ? 'db:' + h.db : h.view ? 'view:' + h.view : h.db ? 'db:' + h.db : '';
  s.value = [...s.options].some(o => o.value === v) ? v : '';
}

function home() {
  const cards = databases.map(d => {
    const h = d.game === 'forest' ? hashOf({ view: 'forest', side: 3, seed: 1, agent: 'optimal', db: d.id }) : hashOf({ db: d.id, p: d.start });
    return el('a', { class: 'card', href: h }, el('b', { text: d.id }), ' ', describe(d),
      el('small', { text: `${Number(d.positions).toLocaleString('en')} positions` }));
  });
  cards.push(el('a', { class: 'card', href: hashOf({ view: 'forest', side: 4, seed: 7, agent: 'bayes' }) }, el('b', { text: 'Magic Forest' }),
    ' watch a wanderer cross a misty forest', el('small', { text: 'no database needed' })));
  cards.push(el('a', { class: 'card', href: hashOf({ view: 'rolls' }) }, el('b', { text: 'River Toad' }),
    ' solve a roll file and replay it', el('small', { text: 'no database needed' })));
  view().replaceChildren(el('h2', { text: 'Solved games' }),
    el('p', { class: 'sub', text: 'Pick a database to play against perfect play, solve a puzzle, or watch a wanderer.' }),
    el('div', { class: 'dbs' }, cards));
  view().dataset.ready = '1';
}

// ---- Toads and Frogs and the frog puzzle: a strip of cells --------------------------------------

function boardOf(game, position) {
  if (game === 'toads-frogs') return position.slice(2).split('');
  return position.split('');
}

function pieceOf(game, ch) {
  if (game === 'toads-frogs') {
    if (ch === 'T') return el('span', { class: 'piece toad', text: 'T\u203a', 'aria-hidden': 'true' });
    if (ch === 'F') return el('span', { class: 'piece frog', text: '\u2039F', 'aria-hidden': 'true' });
  } else {
    if (ch === 'L') return el('span', { class: 'piece left', text: 'L\u203a', 'aria-hidden': 'true' });
    if (ch === 'R') return el('span', { class: 'piece right', text: '\u2039R', 'aria-hidden': 'true' });
  }
  return null;
}
function cellName(game, ch) {
  return { T: 'toad', F: 'frog', L: 'frog facing right', R: 'frog facing left' }[ch] || 'empty';
}

/// "1-2" (Toads and Frogs) or "L from 1 to 2" (puzzle): the cells a move goes from and to.
function moveCells(m) {
  const n = m.move.match(/(\d+)\D+(\d+)/);
  return n ? [Number(n[1]), Number(n[2])] : [-1, -1];
}

/// Draws the strip; `moves` coloured (colour: true) or plain; `onMove(m)` when one is taken.
function drawStrip(game, position, moves, { colour, hint, onMove, disabled }) {
  const cells = boardOf(game, position);
  const byFrom = new Map(moves.map(m => [moveCells(m)[0], m]));
  const byTo = new Map(moves.map(m => [moveCells(m)[1], m]));
  const strip = el('div', { class: 'strip', role: 'group', 'aria-label': 'the board' });
  cells.forEach((ch, i) => {
    const m = byFrom.get(i);
    const cell = el(m && !disabled ? 'button' : 'div', {
      class: 'cell', 'data-cell': i, 'data-piece': ch,
      'aria-label': `cell ${i}: ${cellName(game, ch)}` + (m ? `, move ${m.move}` + (colour ? `, ${m.moveValue} (${moveWords(m)})` : '') : ''),
    }, pieceOf(game, ch), el('span', { class: 'num', text: i, 'aria-hidden': 'true' }));
    if (m) {
      cell.dataset.move = m.move;
      if (colour) {
        cell.classList.add('move');
        cell.style.setProperty('--mc', moveColour(m));
        cell.dataset.value = m.moveValue;
        cell.append(el('span', { class: 'sym', text: symbol(m.moveValue), 'aria-hidden': 'true' }));
      }
      if (hint && hint.move === m.move) cell.classList.add('hint');
      if (!disabled) cell.addEventListener('click', () => onMove(m));
    }
    const t = byTo.get(i);
    if (t && colour) {
      cell.classList.add('target');
      cell.style.setProperty('--mc', moveColour(t));
    }
    strip.append(cell);
  });
  return strip;
}

// ---- Toads and Frogs against perfect play ------------------------------------------------

async function toadsFrogs(d, start) {
  const token = renderToken;
  const st = { history: [], players: { 1: 'you', 2: 'computer' }, busy: false, timer: null };
  current = { stop() { clearTimeout(st.timer); } };
  const root = el('section', { class: 'game tf', 'data-game': 'toads-frogs' });
  view().replaceChildren(root);

  async function push(position, move) {
    const q = await api(`/api/${encodeURIComponent(d.id)}/query?p=${encodeURIComponent(position)}`);
    if (token !== renderToken) return false;
    st.history.push({ q, move });
    return true;
  }

  function chart() {
    const h = st.history;
    const W = 600, H = 190, L = 40, R = 12, T = 12, B = 30;
    const maxR = Math.max(4, ...h.map(x => x.q.remoteness));
    const n = Math.max(h.length - 1, 1);
    const x = i => L + (W - L - R) * i / n;
    const y = r => T + (H - T - B) * (1 - r / maxR);
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('role', 'img');
    const winners = h.map(e => winnerOf(e.q));
    svg.setAttribute('aria-label', 'remoteness over the moves: ' + h.map((e, i) => `move ${i}: ${e.q.remoteness}, ${winners[i]} winning`).join('; '));
    const add = (tag, attrs, text) => {
      const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.append(e);
      return e;
    };
    add('line', { x1: L, y1: y(0), x2: W - R, y2: y(0), stroke: '#9fb3a2' });
    add('line', { x1: L, y1: T, x2: L, y2: y(0), stroke: '#9fb3a2' });
    add('text', { x: 4, y: T + 8, 'font-size': 11, fill: '#4a5a4c' }, maxR);
    add('text', { x: 4, y: y(0), 'font-size': 11, fill: '#4a5a4c' }, '0');
    add('text', { x: L, y: H - 8, 'font-size': 11, fill: '#4a5a4c' }, 'moves played \u2192   (height: moves to the end with perfect play)');
    for (let i = 1; i < h.length; ++i)
      add('line', { x1: x(i - 1), y1: y(h[i - 1].q.remoteness), x2: x(i), y2: y(h[i].q.remoteness), stroke: colourOfSide(winners[i]), 'stroke-width': 3 });
    h.forEach((e, i) => {
      const c = add('circle', { cx: x(i), cy: y(e.q.remoteness), r: 5, fill: colourOfSide(winners[i]), 'data-winner': winners[i] });
      const t = document.createElementNS('http://www.w3.org/2000/svg', 'title');
      t.textContent = `after ${i} moves: ${tfValueWords(e.q)}`;
      c.append(t);
    });
    return el('figure', { class: 'chart' }, svg,
      el('figcaption', { class: 'legend' }, el('span', {}, el('i', { style: 'background:var(--toad)' }), 'Toads winning'),
        el('span', {}, el('i', { style: 'background:var(--frog)' }), 'Frogs winning')));
  }
  function winnerOf(q) {
    const mover = q.position[0];
    return q.positionValue === 'win' ? SIDE[mover] : SIDE[mover === '1' ? 2 : 1];
  }
  function colourOfSide(s) { return s === 'Toads' ? '#7a4a1c' : '#1f5fa8'; }

  function render() {
    if (token !== renderToken) return;
    const top = st.history[st.history.length - 1].q;
    const turn = top.position[0];
    const human = st.players[turn] === 'you';
    const over = top.moves.length === 0;
    note({ db: d.id, p: top.position });
    const playerSelect = side => el('label', {}, `${SIDE[side]}:`,
      el('select', { id: `player-${side}`, onchange: e => { st.players[side] = e.target.value; render(); schedule(); } },
        ...['you', 'computer'].map(v => el('option', { value: v, selected: st.players[side] === v, text: v === 'you' ? 'you (by hand)' : 'perfect play' }))));
    const movesList = el('ol', { class: 'moves', 'aria-label': 'every legal move, best first' },
      top.moves.map(m => el('li', {}, el('button', {
        'data-move': m.move, 'data-value': m.moveValue, style: `--mc:${moveColour(m)}`, disabled: !human || st.busy,
        onclick: () => play(m),
      }, `${symbol(m.moveValue)} ${m.move}: ${m.moveValue} (${moveWords(m)})`))));
    root.replaceChildren(
      el('h2', { text: `Toads and Frogs: ${d.id}` }),
      el('p', { class: 'sub', text: 'Toads (T, brown) slide or jump right, Frogs (F, blue) left; whoever cannot move loses. Each legal move is coloured for the player making it: green wins, red loses; the brightest is the quickest win or the slowest loss.' }),
      el('p', { id: 'value', class: 'value-line ' + (over ? '' : top.positionValue), 'data-value': top.positionValue, 'data-remoteness': top.remoteness },
        tfValueWords(top) + (over ? '' : human ? ' (your move)' : ' (perfect play is thinking)')),
      el('div', { class: 'layout' },
        el('div', {},
          drawStrip('toads-frogs', top.position, top.moves, { colour: true, onMove: play, disabled: !human || st.busy }),
          el('div', { class: 'controls' }, playerSelect(1), playerSelect(2),
            el('button', { id: 'undo', onclick: undo, disabled: st.history.length < 2, title: 'Undo (U)' }, 'Undo'),
            el('button', { id: 'restart', onclick: () => go({ db: d.id, p: d.start }) }, 'New game')),
          chart()),
        el('div', { class: 'panel' }, el('h3', { text: over ? 'No move left' : `${SIDE[turn]}' moves` }), movesList,
          el('p', { class: 'sub', text: `Position ${top.position}; move ${st.history.length - 1} of this game.` }),
          el('p', {}, el('a', { href: hashOf({ db: d.id, p: top.position }), id: 'link' }, 'Link to this position')))));
    root.dataset.ready = st.busy || (!over && !human) ? '0' : '1';
    view().dataset.ready = root.dataset.ready;
  }

  async function play(m) {
    if (st.busy) return;
    st.busy = true;
    try {
      if (!await push(m.position, m.move)) return;
    } catch (e) {
      showError(e.message);
    } finally {
      st.busy = false;
    }
    render();
    schedule();
  }
  function schedule() {
    clearTimeout(st.timer);
    const top = st.history[st.history.length - 1].q;
    if (top.moves.length === 0 || st.players[top.position[0]] !== 'computer') return;
    st.timer = setTimeout(() => play(top.moves[0]), 350);
  }
  function undo() {
    clearTimeout(st.timer);
    if (st.history.length < 2) return;
    st.history.pop();
    // back to a position where a person moves (unless both sides are perfect play)
    while (st.history.length > 1 && st.players[st.history[st.history.length - 1].q.position[0]] === 'computer' &&
           (st.players[1] === 'you' || st.players[2] === 'you'))
      st.history.pop();
    render();
    schedule();
  }
  current.key = e => {
    if ((e.key === 'u' || e.key === 'U') && !e.ctrlKey && !e.metaKey) { undo(); return true; }
    return false;
  };
  await push(start || d.start);
  if (token !== renderToken) return;
  // the side to move first is played by hand
  const first = st.history[0].q.position[0];
  st.players = { [first]: 'you', [first === '1' ? 2 : 1]: 'computer' };
  render();
}

// ---- the frog puzzle ---------------------------------------------------------------------

async function frogPuzzle(d, start) {
  const token = renderToken;
  const root = el('section', { class: 'game puzzle', 'data-game': 'frog-puzzle' });
  view().replaceChildren(root);
  current = {};
  const cache = new Map();
  async function query(p) {
    if (!cache.has(p)) cache.set(p, await api(`/api/${encodeURIComponent(d.id)}/query?p=${encodeURIComponent(p)}`));
    return cache.get(p);
  }
  const first = await query(start || d.start);
  if (token !== renderToken) return;
  const rootNode = { q: first, move: null, parent: null, children: [] };
  const st = { node: rootNode, hint: null, solution: null, step: 0, busy: false };
  const count = c => first.position.split('').filter(x => x === c).length;
  const goal = 'R'.repeat(count('R')) + '_'.repeat(first.position.length - count('R') - count('L')) + 'L'.repeat(count('L'));

  function valueWords(q) {
    if (q.positionValue === 'win' && q.remoteness === 0) return 'Solved! Every frog has crossed.';
    if (q.positionValue === 'win') return `Fewest moves left: ${q.remoteness}`;
    if (q.moves.length === 0) return 'Stuck: no frog can move, and this is not the goal.';
    return 'Dead end: the goal cannot be reached from here. Undo, or start again.';
  }
  async function take(m) {
    if (st.busy) return;
    st.busy = true;
    try {
      const q = await query(m.position);
      if (token !== renderToken) return;
      let child = st.node.children.find(c => c.move === m.move);
      if (!child) {
        child = { q, move: m.move, parent: st.node, children: [] };
        st.node.children.push(child);
      }
      st.node = child;
      st.hint = null;
      if (st.solution && st.solution.solution[st.step] && st.solution.solution[st.step].move === m.move) st.step += 1;
      else st.solution = null;
    } catch (e) {
      showError(e.message);
    } finally {
      st.busy = false;
    }
    render();
  }
  function undo() {
    if (!st.node.parent) return;
    st.node = st.node.parent;
    st.hint = null;
    st.solution = null;
    render();
  }
  async function showSolution() {
    try {
      st.solution = await api(`/api/frog-puzzle/solve?p=${encodeURIComponent(st.node.q.position)}`);
      st.step = 0;
    } catch (e) {
      showError(e.message);
    }
    render();
  }
  function treeOf(node, path) {
    const onPath = path.has(node);
    const cls = [node === st.node ? 'current' : '', onPath ? 'onpath' : 'abandoned', node.q.positionValue === 'lose' ? 'dead' : ''].join(' ');
    const label = node.move ? `${node.move} \u2192 ${node.q.position}` : `start ${node.q.position}`;
    return el('li', { class: cls, 'data-position': node.q.position },
      el('button', { class: 'node', title: 'go back to this position', onclick: () => { st.node = node; st.hint = null; st.solution = null; render(); } },
        label + (onPath || node === st.node ? '' : ' (abandoned)')),
      node.children.length ? el('ul', {}, node.children.map(c => treeOf(c, path))) : null);
  }
  function render() {
    if (token !== renderToken) return;
    const q = st.node.q;
    note({ db: d.id, p: q.position });
    const path = new Set();
    for (let n = st.node; n; n = n.parent) path.add(n);
    const cls = q.positionValue === 'win' ? 'win' : 'lose';
    let sol = null;
    if (st.solution) {
      const s = st.solution.solution;
      sol = el('div', { class: 'panel solution', id: 'solution' },
        el('h3', { text: `An optimal solution: ${st.solution.moves} moves (${st.solution.solutions} optimal in all)` }),
        el('p', { class: 'log', id: 'solution-step', text: st.step < s.length ? `Next, step ${st.step + 1} of ${s.length}: ${s[st.step].move}` : 'Done: the goal is reached.' }),
        el('div', { class: 'controls' },
          el('button', { id: 'solution-next', disabled: st.step >= s.length, onclick: () => take(q.moves.find(m => m.move === s[st.step].move)) }, 'Play the next step'),
          el('button', { id: 'solution-all', disabled: st.step >= s.length, onclick: async () => { while (st.solution && st.step < st.solution.solution.length) await take(st.node.q.moves.find(m => m.move === st.solution.solution[st.step].move)); } }, 'Play them all')),
        el('ol', {}, s.map((x, i) => el('li', { class: i === st.step ? 'here' : '' }, `${x.move} \u2192 ${x.position}`))));
    }
    root.replaceChildren(
      el('h2', { text: `The frog swap puzzle: ${d.id}` }),
      el('p', { class: 'sub', text: `Click a frog to move it: it slides into the empty cell ahead or jumps one frog of the other kind. Swap the two groups: the goal is ${goal}.` }),
      el('p', { id: 'value', class: 'value-line ' + cls, 'data-value': q.positionValue, 'data-remoteness': q.remoteness }, valueWords(q)),
      el('div', { class: 'layout' },
        el('div', {},
          drawStrip('frog-puzzle', q.position, q.moves, { colour: false, hint: st.hint, onMove: take, disabled: st.busy }),
          el('div', { class: 'controls' },
            el('button', { id: 'undo', onclick: undo, disabled: !st.node.parent, title: 'Undo (U)' }, 'Undo'),
            el('button', { id: 'restart', onclick: () => { st.node = rootNode; st.solution = null; st.hint = null; render(); } }, 'Start again'),
            el('button', { id: 'hint', disabled: q.positionValue !== 'win' || q.remoteness === 0, onclick: () => { st.hint = q.moves[0]; render(); } }, 'Hint'),
            el('button', { id: 'show-solution', disabled: q.positionValue !== 'win' || q.remoteness === 0, onclick: showSolution }, 'Show an optimal solution')),
          el('p', { class: 'log', id: 'hint-text', text: st.hint ? `Hint: ${st.hint.move} (then ${st.hint.remoteness} moves left)` : '' }),
          sol),
        el('div', { class: 'panel tree', id: 'tree' }, el('h3', { text: 'Moves tried' }),
          el('ul', {}, treeOf(rootNode, path)),
          el('p', { class: 'sub', text: 'Struck out: branches you left. \u2717: dead ends. Click a move to go back to it.' }))));
    root.dataset.ready = st.busy ? '0' : '1';
    view().dataset.ready = root.dataset.ready;
  }
  current.key = e => {
    if ((e.key === 'u' || e.key === 'U') && !e.ctrlKey && !e.metaKey) { undo(); return true; }
    return false;
  };
  render();
}

// ---- Magic Forest -----------------------------------------------------------------------

async function forestView(h) {
  const token = renderToken;
  const side = Math.max(2, Math.min(8, Number(h.side) || 3));
  const seed = Number.isFinite(Number(h.seed)) && h.seed !== '' ? Number(h.seed) : 1;
  const forestDbs = databases.filter(x => x.game === 'forest');
  let agent = h.agent || 'original';
  let db = h.db || (agent === 'optimal' && forestDbs[0] ? forestDbs[0].id : '');
  if (agent === 'optimal' && (!db || side !== 3)) agent = 'bayes';
  note({ view: 'forest', side, seed, agent, db: agent === 'optimal' ? db : '' });
  const root = el('section', { class: 'game forest', 'data-game': 'forest' });
  view().replaceChildren(root, el('p', { text: 'The wanderer is walking this forest\u2026' }));
  const q = new URLSearchParams({ side, seed, agent });
  if (agent === 'optimal') q.set('db', db);
  const play = await api('/api/forest/play?' + q);
  if (token !== renderToken) return;
  const st = { step: 0, heat: 'monster' };
  const n = side * side;
  const idx = ([r, c]) => r * side + c;
  const start = idx(play.forest.start), portal = idx(play.forest.portal);
  const bones = new Set(play.forest.bones.map(idx)), leaves = new Set(play.forest.leaves.map(idx));
  view().replaceChildren(root);

  function knowledge(k) {
    const seen = new Set([start]), stoned = new Set(), dead = new Map();
    let at = start, portalFound = false;
    for (const s of play.steps.slice(0, k)) {
      const t = idx(s.tile);
      if (s.outcome === 'stone') stoned.add(t);
      if (s.outcome === 'walked') seen.add(t);
      if (s.outcome === 'monster' || s.outcome === 'trap') dead.set(t, s.outcome);
      if (s.outcome === 'portal') portalFound = true;
      at = idx(s.at);
    }
    return { seen, stoned, dead, at, portalFound };
  }
  function render() {
    if (token !== renderToken) return;
    const k = knowledge(st.step);
    const done = st.step >= play.steps.length;
    const last = st.step > 0 ? play.steps[st.step - 1] : null;
    const grid = el('div', { class: 'grid', id: 'forest-grid', style: `grid-template-columns: repeat(${side}, 1fr)`, role: 'img',
      'aria-label': `the forest, ${side} by ${side}; the wanderer at row ${Math.floor(k.at / side)}, column ${k.at % side}` });
    for (let t = 0; t < n; ++t) {
      const words = [];
      let cls = 'tile mist';
      if (k.seen.has(t)) {
        cls = 'tile seen';
        if (bones.has(t)) words.push('bones');
        if (leaves.has(t)) words.push('leaves');
      }
      if (k.dead.has(t)) { cls = 'tile ' + k.dead.get(t); words.push(k.dead.get(t)); }
      if (t === portal && k.portalFound) { cls = 'tile portal'; words.push('portal'); }
      if (done && cls === 'tile mist') {  // the end: the forest shown as it was
        const c = play.forest.content[t];
        cls = 'tile revealed ' + (t === portal ? 'portal' : c || 'seen');
        if (t === portal) words.push('portal');
        else if (c) words.push(c);
        if (bones.has(t)) words.push('bones');
        if (leaves.has(t)) words.push('leaves');
      }
      if (t === start) cls += ' start';
      if (k.stoned.has(t)) words.push('stoned');
      const tile = el('div', { class: cls, 'data-tile': t }, words.join(' '));
      if (t === k.at) tile.append(el('span', { class: 'who', text: 'W', title: 'the wanderer' }));
      grid.append(tile);
    }
    const post = st.step === 0 ? play.posterior : (play.steps[st.step - 1].posterior || null);
    let heat;
    if (post) {
      const hv = post[st.heat];
      heat = el('div', { class: 'grid heat', id: 'heat', style: `grid-template-columns: repeat(${side}, 1fr)`, role: 'img', 'aria-label': `P(${st.heat}) per tile` });
      const colour = { monster: '123, 45, 142', trap: '91, 74, 54', portal: '224, 168, 0' }[st.heat];
      // shade: the square root of the probability (small ones stay visible, 0 stays white)
      hv.forEach((p, t) => heat.append(el('div', { class: 'tile', 'data-p': p, style: `background: rgba(${colour}, ${(0.9 * Math.sqrt(p)).toFixed(3)}); color: ${Math.sqrt(p) > 0.6 && st.heat !== 'portal' ? '#fff' : '#111'}` }, p.toFixed(2))));
    } else {
      heat = el('p', { class: 'sub', text: st.step > 0 && last.outcome === 'portal' ? 'The portal is found: nothing is left to guess.' : 'The exact posterior is computed up to side 6.' });
    }
    const words = last ? `Step ${st.step} of ${play.steps.length}: ${last.action === 'stone' ? 'threw a stone at' : 'moved to'} row ${last.tile[0]}, column ${last.tile[1]}` +
      ({ walked: '', stone: '', monster: ': killed by a monster, back to the start', trap: ': fell into a trap, back to the start', portal: ': the portal!' }[last.outcome]) :
      `The wanderer stands on the start tile. ${play.steps.length} actions to come.`;
    const end = done ? (play.result.portal ? `Reached the portal: score ${play.result.score}.` : `Stuck: the forest ends with score ${play.result.score}.`) : '';
    const stats = el('dl', { class: 'stats', id: 'stats' },
      el('div', {}, el('dt', { text: 'score' }), el('dd', { id: 'score', text: last ? last.score : 0 })),
      el('div', {}, el('dt', { text: 'moves' }), el('dd', { id: 'moves', text: last ? last.moves : 0 })),
      el('div', {}, el('dt', { text: 'stones' }), el('dd', { id: 'stones', text: last ? last.stones : 0 })),
      el('div', {}, el('dt', { text: 'deaths' }), el('dd', { id: 'deaths', text: last ? last.deaths : 0 })));
    const agents = ['original', 'bayes', 'oracle'].concat(forestDbs.length && side === 3 ? ['optimal'] : []);
    root.replaceChildren(
      el('h2', { text: `Magic Forest: ${side}\u00d7${side}, seed ${seed}` }),
      el('p', { class: 'sub', text: 'The wanderer learns the forest tile by tile: bones lie next to a monster, leaves next to a trap. A step costs 1, a stone 10, a death 10 per tile, and the portal pays 10 per tile. Press Next move or Enter.' }),
      el('form', { class: 'controls', id: 'forest-form', onsubmit: e => { e.preventDefault(); const f = new FormData(e.target); go({ view: 'forest', side: f.get('side'), seed: f.get('seed'), agent: f.get('agent'), db: f.get('agent') === 'optimal' ? forestDbs[0].id : '' }); } },
        el('label', {}, 'side', el('input', { type: 'number', name: 'side', min: 2, max: 8, value: side })),
        el('label', {}, 'seed', el('input', { type: 'number', name: 'seed', min: 0, value: seed })),
        el('label', {}, 'agent', el('select', { name: 'agent', id: 'agent' }, agents.map(a => el('option', { value: a, selected: a === agent, text: a === 'optimal' ? 'optimal (from the database)' : a })))),
        el('button', { type: 'submit', id: 'new-forest' }, 'New forest')),
      el('div', { class: 'layout' },
        el('div', {},
          el('div', { class: 'controls' },
            el('button', { id: 'next', disabled: done, onclick: () => { st.step += 1; render(); $('#next') && !$('#next').disabled && $('#next').focus(); } }, 'Next move'),
            el('button', { id: 'to-end', disabled: done, onclick: () => { st.step = play.steps.length; render(); } }, 'To the end'),
            el('button', { id: 'again', disabled: st.step === 0, onclick: () => { st.step = 0; render(); } }, 'From the start')),
          el('p', { class: 'log', id: 'log', text: words }),
          el('p', { class: 'value-line ' + (done ? (play.result.portal ? 'win' : 'lose') : ''), id: 'result', text: end }),
          grid, stats,
          el('p', { class: 'sub', text: 'W: the wanderer. Misty tiles are unknown; the start tile has a white rim.' })),
        el('div', { class: 'panel' }, el('h3', { text: 'What he can infer: exact probabilities' }),
          el('div', { class: 'controls', role: 'radiogroup', 'aria-label': 'which probability' },
            ['monster', 'trap', 'portal'].map(w => el('label', {}, el('input', { type: 'radio', name: 'heat', value: w, checked: st.heat === w, onchange: () => { st.heat = w; render(); } }), `P(${w})`))),
          heat)));
    root.dataset.ready = '1';
    root.dataset.step = st.step;
    view().dataset.ready = '1';
  }
  current = {
    key: e => {
      if (e.key === 'Enter' && !['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'A'].includes(document.activeElement.tagName)) {
        if (st.step < play.steps.length) { st.step += 1; render(); }
        return true;
      }
      return false;
    },
  };
  render();
}

// ---- River Toad ---------------------------------------------------------------------------

function riverBoard(rows, label) {
  const g = el('div', { class: 'river', role: 'img', 'aria-label': label });
  rows.forEach(row => row.split('').forEach((ch, c) => {
    let cls = 'rc', text = '';
    if (ch === '#') { cls += ' bank'; }
    else if (ch === 'S') { cls += ' snake'; text = 'S'; }
    else if (ch === 'F') { cls += ' fly'; text = 'F'; }
    else if (ch === 'T') { cls += ' toad'; text = 'T'; }
    else if (ch === 'X') { cls += ' dead'; text = 'X'; }
    if (c === 0 || c === 6) cls = 'rc bank';
    g.append(el('div', { class: cls, text }));
  }));
  return g;
}

async function riverDatabase(d, position) {
  const token = renderToken;
  const root = el('section', { class: 'game river-db', 'data-game': 'river-toad' });
  view().replaceChildren(root);
  current = {};
  async function show(p) {
    let q;
    try {
      q = await api(`/api/${encodeURIComponent(d.id)}/query?p=${encodeURIComponent(p)}`);
      showError('');
    } catch (e) {
      showError(e.message);
      return;
    }
    if (token !== renderToken) return;
    note({ db: d.id, p: q.position });
    const best = q.bestAction;
    root.replaceChildren(
      el('h2', { text: `River Toad: ${d.id}` }),
      el('p', { class: 'sub', text: 'A position: turns left, HP, column, and the river above. Each action\u2019s chance of surviving every remaining turn, over every roll, with the best play after it.' }),
      el('form', { class: 'controls', onsubmit: e => { e.preventDefault(); show(new FormData(e.target).get('p')); } },
        el('label', {}, 'position', el('input', { name: 'p', id: 'position', value: q.position, size: 24 })), el('button', { type: 'submit' }, 'Show')),
      el('p', { id: 'value', class: 'value-line', text: `${q.turnsLeft} turns left, HP ${q.hp}: survival ${(100 * q.survival).toFixed(2)}% with the best action ${best}` }),
      el('div', { class: 'layout' }, riverBoard(q.board, 'the board'),
        el('div', { class: 'panel' }, el('h3', { text: 'Each action' }),
          el('ol', { class: 'odds', id: 'odds' }, q.moves.map(m => el('li', { 'data-move': m.move, 'data-survival': m.survival },
            el('b', { text: m.move }), el('span', { class: 'bar' }, el('span', { style: `width:${(100 * m.survival).toFixed(1)}%` })),
            `${(100 * m.survival).toFixed(2)}%${m.move === best ? ' best' : ''}`))))));
    root.dataset.ready = '1';
    view().dataset.ready = '1';
  }
  await show(position || d.start);
}

function rollsView() {
  const token = renderToken;
  const root = el('section', { class: 'game rolls', 'data-game': 'river-toad-rolls' });
  view().replaceChildren(root);
  current = {};
  const st = { result: null, turn: 0 };
  const sample = '10 # rolls\n5\n17\n30\n2\n9\n21\n12\n0\n33\n8\n';
  const area = el('textarea', { id: 'rolls', 'aria-label': 'the roll file', spellcheck: 'false' }, sample);
  const file = el('input', { type: 'file', id: 'rolls-file', 'aria-label': 'or load a roll file', onchange: async e => { if (e.target.files[0]) area.value = await e.target.files[0].text(); } });
  const out = el('div', { id: 'replay' });
  async function solve() {
    try {
      st.result = await api('/api/river-toad/solve', { method: 'POST', body: area.value });
      st.turn = 0;
      showError('');
    } catch (e) {
      showError(e.message);
      st.result = null;
    }
    draw();
  }
  function draw() {
    if (token !== renderToken) return;
    const r = st.result;
    if (!r) { out.replaceChildren(); return; }
    const t = st.turn === 0 ? { board: r.start.board, hp: r.start.hp, column: r.start.column } : r.turns[st.turn - 1];
    const words = st.turn === 0 ? `Start: column ${t.column}, HP ${t.hp}` :
      `Turn ${t.turn} of ${r.turns.length}: action ${t.action}, roll ${t.roll}, column ${t.column}, HP ${t.hp}` + (t.ate ? ', ate a fly' : '') + (t.alive ? '' : `, dead (${t.death})`);
    const maxHp = Math.max(r.start.hp, ...r.turns.map(x => x.hp));
    out.replaceChildren(
      el('p', { class: 'value-line ' + (r.survivable ? 'win' : 'lose'), id: 'verdict', text: r.survivable ? `Survivable: the optimal plan ${r.plan} ends with HP ${r.finalHp}` : `No plan survives: the best lasts ${r.survivesTurns} of ${r.rolls} turns (${r.death})` }),
      el('div', { class: 'controls' },
        el('button', { id: 'prev-turn', disabled: st.turn === 0, onclick: () => { st.turn -= 1; draw(); } }, 'Previous turn'),
        el('button', { id: 'next-turn', disabled: st.turn >= r.turns.length, onclick: () => { st.turn += 1; draw(); $('#next-turn').focus(); } }, 'Next turn'),
        el('button', { id: 'last-turn', disabled: st.turn >= r.turns.length, onclick: () => { st.turn = r.turns.length; draw(); } }, 'Last turn')),
      el('p', { class: 'log', id: 'turn', 'data-hp': t.hp, text: words }),
      el('div', { class: 'hpbar', role: 'img', 'aria-label': `HP ${t.hp}` }, el('span', { style: `width:${(100 * t.hp / maxHp).toFixed(1)}%` })),
      riverBoard(t.board, `the river after ${st.turn} turns`));
    root.dataset.turn = st.turn;
  }
  root.append(el('h2', { text: 'River Toad: replay a roll file' }),
    el('p', { class: 'sub', text: 'The toad crosses a river of snakes (S) and flies (F) that the rolls bring down; each turn it moves with A S D F G. Give a roll file (the count, then one roll 0..33 a line): the server finds the plan that ends with the most HP, and you replay it turn by turn.' }),
    el('div', { class: 'layout' }, el('div', {}, area, el('div', { class: 'controls' }, file, el('button', { id: 'solve', onclick: solve }, 'Solve and replay'))), out));
  root.dataset.ready = '1';
  view().dataset.ready = '1';
}

// ---- routing ----------------------------------------------------------------------------

async function route() {
  renderToken += 1;
  if (current && current.stop) current.stop();
  current = null;
  showError('');
  view().dataset.ready = '0';
  const h = readHash();
  syncPicker(h);
  try {
    if (h.view === 'forest') return await forestView(h);
    if (h.view === 'rolls') return rollsView();
    if (h.db) {
      const d = databases.find(x => x.id === h.db);
      if (!d) throw new Error(`no database '${h.db}' is served here`);
      if (d.game === 'toads-frogs') return await toadsFrogs(d, h.p);
      if (d.game === 'frog-puzzle') return await frogPuzzle(d, h.p);
      if (d.game === 'river-toad') return await riverDatabase(d, h.p);
      if (d.game === 'forest') return await forestView({ ...h, view: 'forest', agent: 'optimal' });
    }
    home();
  } catch (e) {
    showError(e.message);
    if (!view().children.length || view().dataset.ready !== '1') home();
  }
}

document.addEventListener('keydown', e => {
  if (current && current.key && current.key(e)) e.preventDefault();
});
window.addEventListener('hashchange', route);

(async () => {
  try {
    databases = (await api('/api/')).databases;
  } catch (e) {
    showError('cannot list the databases: ' + e.message);
  }
  fillPicker();
  route();
})();
