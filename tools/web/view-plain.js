// The plain view (kind "plain"): any game's database, knowing nothing of the game but the
// field of its query that holds a position (view.positionField). A position in; the query's
// answer shown as a list of its fields (a list of strings as lines, a list of moves as a table);
// every move that names the position it leads to is a button that opens it. A game without a
// view of its own is shown so, and any database is at #db=ID&p=POSITION&as=plain.
'use strict';

/// "outcomeClass" -> "outcome class".
function plainWords(key) {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
}

/// A list of moves: objects that each name their move.
function plainIsMoves(v) {
  return Array.isArray(v) && v.length > 0 && v.every(m => m && typeof m === 'object' && !Array.isArray(m) && 'move' in m);
}

/// A value of the answer, readably: text, lines, a list, a nested list of fields.
function plainValue(v) {
  if (v === null || v === undefined) return el('span', { class: 'none', text: 'none' });
  if (Array.isArray(v)) {
    if (v.length === 0) return el('span', { class: 'none', text: 'none' });
    if (v.every(x => typeof x === 'string')) return el('pre', { class: 'lines', text: v.join('\n') });
    if (v.every(x => x === null || typeof x !== 'object')) return v.join(', ');
    return el('ol', { class: 'items' }, v.map(x => el('li', {}, plainValue(x))));
  }
  if (typeof v === 'object') return plainFields(v);
  return String(v);
}

function plainFields(obj) {
  return el('dl', { class: 'fields' }, Object.entries(obj).map(([k, v]) =>
    el('div', {}, el('dt', { text: plainWords(k) }), el('dd', { 'data-key': k }, plainValue(v)))));
}

async function plainDatabase(d, game, h) {
  const token = renderToken;
  const field = game.view.positionField || 'position';
  const root = el('section', { class: 'game plain', 'data-game': d.game });
  view().replaceChildren(root);
  current = {};
  const as = h.as || '';

  function draw(q, asked) {
    if (token !== renderToken) return;
    const here = q && typeof q[field] === 'string' ? q[field] : asked;
    note({ db: d.id, p: here, as });
    const form = el('form', { class: 'controls', id: 'position-form', onsubmit: e => { e.preventDefault(); show(new FormData(e.target).get('p')); } },
      el('label', {}, 'position', el('input', { name: 'p', id: 'position', value: here, size: 28, spellcheck: 'false', autocomplete: 'off' })),
      el('button', { type: 'submit' }, 'Show'));
    const parts = [el('h2', { text: `${game.title}: ${d.id}` })];
    if (d.about) parts.push(el('p', { class: 'sub', text: d.about }));
    parts.push(form);
    if (q) {
      const fields = {}, lists = [];
      for (const [k, v] of Object.entries(q)) {
        if (plainIsMoves(v)) lists.push([k, v]);
        else fields[k] = v;
      }
      const answer = plainFields(fields);
      answer.id = 'answer';
      const tables = lists.map(([k, moves]) => {
        const columns = [];
        for (const m of moves) for (const c of Object.keys(m)) if (!columns.includes(c)) columns.push(c);
        return el('div', { class: 'panel' }, el('h3', { text: plainWords(k) }),
          el('table', { class: 'moves-table', 'data-list': k },
            el('thead', {}, el('tr', {}, columns.map(c => el('th', { text: plainWords(c) })))),
            el('tbody', {}, moves.map(m => el('tr', {}, columns.map(c => {
              if (c === 'move' && typeof m[field] === 'string')
                return el('td', {}, el('button', { class: 'move', 'data-move': m.move, 'data-position': m[field], title: `open ${m[field]}`, onclick: () => show(m[field]) }, String(m.move)));
              return el('td', { 'data-key': c }, plainValue(m[c]));
            }))))));
      });
      parts.push(el('div', { class: 'layout' }, el('div', {}, answer,
        el('p', { class: 'sub' }, el('a', { href: queryPath(d, here), id: 'json' }, 'This answer as JSON'))),
        lists.length ? el('div', {}, tables) : el('div', { class: 'panel' }, el('h3', { text: 'Moves' }), el('p', { class: 'sub', text: 'No move from here.' }))));
    }
    root.replaceChildren(...parts);
    root.dataset.ready = '1';
    view().dataset.ready = '1';
  }

  const show = p => queryAndDraw(d, p, root, token, draw);
  await show(h.p || d.start);
}

views.plain = {
  database: plainDatabase,
};
