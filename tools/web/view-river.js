// The river view (kind "river"): a board of rows, each character a cell drawn as the game's
// pieces say (view.pieces: a letter's class and glyph; any other letter is water). A position
// database: the query's `board` and each action's survival odds. Without a database (a tool):
// a roll file solved by the game's route (the tool's route: POST the file) and replayed turn
// by turn, its board and HP.
'use strict';

function riverBoard(game, rows, label) {
  const g = el('div', { class: 'river', role: 'img', 'aria-label': label, style: `grid-template-columns: repeat(${rows.length ? rows[0].length : 1}, 1fr)` });
  rows.forEach(row => row.split('').forEach(ch => {
    const piece = game.view.pieces.find(p => p.letter === ch);
    g.append(el('div', { class: piece ? 'rc ' + piece.style : 'rc', text: piece ? piece.glyph : '' }));
  }));
  return g;
}

async function riverDatabase(d, game, position) {
  const token = renderToken;
  const root = el('section', { class: 'game river-db', 'data-game': d.game });
  view().replaceChildren(root);
  current = {};
  async function show(p) {
    let q;
    try {
      q = await api(queryPath(d, p));
      showError('');
    } catch (e) {
      showError(e.message);
      return;
    }
    if (token !== renderToken) return;
    note({ db: d.id, p: q.position });
    const best = q.bestAction;
    root.replaceChildren(
      el('h2', { text: `${game.title}: ${d.id}` }),
      el('p', { class: 'sub', text: d.about || '' }),
      el('form', { class: 'controls', onsubmit: e => { e.preventDefault(); show(new FormData(e.target).get('p')); } },
        el('label', {}, 'position', el('input', { name: 'p', id: 'position', value: q.position, size: 24 })), el('button', { type: 'submit' }, 'Show')),
      el('p', { id: 'value', class: 'value-line', text: `${q.turnsLeft} turns left, HP ${q.hp}: survival ${(100 * q.survival).toFixed(2)}% with the best action ${best}` }),
      el('div', { class: 'layout' }, riverBoard(game, q.board, 'the board'),
        el('div', { class: 'panel' }, el('h3', { text: 'Each action' }),
          el('ol', { class: 'odds', id: 'odds' }, q.moves.map(m => el('li', { 'data-move': m.move, 'data-survival': m.survival },
            el('b', { text: m.move }), el('span', { class: 'bar' }, el('span', { style: `width:${(100 * m.survival).toFixed(1)}%` })),
            `${(100 * m.survival).toFixed(2)}%${m.move === best ? ' best' : ''}`))))));
    root.dataset.ready = '1';
    view().dataset.ready = '1';
  }
  await show(position || d.start);
}

function riverRolls(tool, game) {
  const token = renderToken;
  const root = el('section', { class: 'game rolls', 'data-game': `${game.name}-${tool.id}` });
  view().replaceChildren(root);
  current = {};
  const st = { result: null, turn: 0 };
  const sample = '10 # rolls\n5\n17\n30\n2\n9\n21\n12\n0\n33\n8\n';
  const area = el('textarea', { id: 'rolls', 'aria-label': 'the roll file', spellcheck: 'false' }, sample);
  const file = el('input', { type: 'file', id: 'rolls-file', 'aria-label': 'or load a roll file', onchange: async e => { if (e.target.files[0]) area.value = await e.target.files[0].text(); } });
  const out = el('div', { id: 'replay' });
  async function solve() {
    try {
      st.result = await api(tool.route, { method: 'POST', body: area.value });
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
      riverBoard(game, t.board, `the river after ${st.turn} turns`));
    root.dataset.turn = st.turn;
  }
  root.append(el('h2', { text: `${game.title}: ${tool.picker}` }),
    el('p', { class: 'sub', text: tool.about }),
    el('div', { class: 'layout' }, el('div', {}, area, el('div', { class: 'controls' }, file, el('button', { id: 'solve', onclick: solve }, 'Solve and replay'))), out));
  root.dataset.ready = '1';
  view().dataset.ready = '1';
}

views.river = {
  database(d, game, h) {
    return riverDatabase(d, game, h.p);
  },
  tool(t, game) {
    return riverRolls(t, game);
  },
};
