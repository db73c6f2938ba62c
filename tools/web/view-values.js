// The values view (kind "values"): a database of combinatorial game values of boards of a
// strip. A board typed, or built by clicks (a cell cycles empty, then each of the game's
// pieces; cells added and taken away at the end); its value in the notation, the query's
// other fields (outcome class, stops, mean, temperature, atomic weight, ...), each player's
// moves with the child's value (a click opens the child), and the value's thermograph drawn
// from the game's route (view.route: ?value=V gives its walls). Below, the find form: boards
// by value or by property (/api/<db>/find), each listed board a link. The address is
// #db=ID&p=BOARD. What this knows of the game: the query's fields, view.pieces, the empty
// cell's letter (view.words.empty, '-' when the game names none), the lists of moves (the
// fields that hold objects with a `move`).
'use strict';

/// "3/2" -> 1.5 (the notation's numbers: integers and dyadic fractions).
function valuesNumber(text) {
  const m = String(text).match(/^(-?\d+)(?:\/(\d+))?$/);
  return m ? Number(m[1]) / (m[2] ? Number(m[2]) : 1) : NaN;
}

/// A wall's points [value, t] from t = 0 up to `top` (pieces: {from, value, slope}).
function valuesWallPoints(wall, top) {
  const pts = [];
  wall.forEach((p, i) => {
    const t0 = valuesNumber(p.from), v0 = valuesNumber(p.value);
    const t1 = i + 1 < wall.length ? valuesNumber(wall[i + 1].from) : top;
    pts.push([v0, t0]);
    if (t1 > t0) pts.push([v0 + p.slope * (t1 - t0), t1]);
  });
  return pts;
}

const SVGNS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs = {}, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/// The thermograph as SVG: temperature up, values from right (Right's side, low) to left
/// (Left's side, high), as the literature draws it; Left's wall and Right's wall, the mast
/// above their meeting point, the stops, mean and temperature marked.
function valuesThermograph(th) {
  const temp = valuesNumber(th.temperature), mean = valuesNumber(th.mean);
  const top = Math.max(temp, 0) + Math.max(1, Math.max(temp, 0) * 0.35);
  const left = valuesWallPoints(th.leftWall, top), right = valuesWallPoints(th.rightWall, top);
  const xs = [...left, ...right].map(p => p[0]);
  let hi = Math.max(...xs), lo = Math.min(...xs);
  if (hi - lo < 2) { const c = (hi + lo) / 2; hi = c + 1; lo = c - 1; }
  const pad = (hi - lo) * 0.08;
  hi += pad; lo -= pad;
  const W = 420, H = 260, mx = 46, my = 24;
  const X = v => mx + (hi - v) / (hi - lo) * (W - 2 * mx);
  const Y = t => H - my - t / top * (H - 2 * my);
  // (a value printed past the text cap comes as null, with its length)
  const named = th.value === null ? `a value of ${th.characters} characters` : th.value;
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', id: 'thermograph',
    'aria-label': `thermograph of ${named}: mean ${th.mean}, temperature ${th.temperature}` });
  svg.append(svgEl('title', {}, `Thermograph of ${named}`));
  // the axes: t = 0, and value 0 where it is in range
  svg.append(svgEl('line', { x1: mx - 8, x2: W - mx + 8, y1: Y(0), y2: Y(0), class: 'axis' }));
  if (lo <= 0 && 0 <= hi) svg.append(svgEl('line', { x1: X(0), x2: X(0), y1: Y(0), y2: my - 6, class: 'zero' }));
  svg.append(svgEl('text', { x: W - mx + 10, y: Y(0) + 4, class: 'label' }, 't = 0'));
  const path = (pts, cls, who) => svg.append(svgEl('polyline', {
    points: pts.map(([v, t]) => `${X(v).toFixed(1)},${Y(t).toFixed(1)}`).join(' '), class: cls, 'data-wall': who }));
  path(left, 'wall left', 'left');
  path(right, 'wall right', 'right');
  // the marks: Left's stop and Right's stop at t = 0, the mean where the walls meet
  const l0 = valuesNumber(th.leftWall[0].value), r0 = valuesNumber(th.rightWall[0].value);
  svg.append(svgEl('text', { x: X(l0), y: H - 6, class: 'label', 'text-anchor': 'middle' }, th.leftWall[0].value));
  if (r0 !== l0) svg.append(svgEl('text', { x: X(r0), y: H - 6, class: 'label', 'text-anchor': 'middle' }, th.rightWall[0].value));
  if (temp >= 0) {
    svg.append(svgEl('circle', { cx: X(mean), cy: Y(temp), r: 3.5, class: 'meet' }));
    svg.append(svgEl('text', { x: X(mean) + 7, y: Y(temp) - 6, class: 'label' }, `mean ${th.mean}, temperature ${th.temperature}`));
  } else {
    svg.append(svgEl('text', { x: X(mean) + 7, y: my + 8, class: 'label' }, `a number: mean ${th.mean}, temperature ${th.temperature}`));
  }
  return svg;
}

async function valuesDatabase(d, game, h) {
  const token = renderToken;
  const field = game.view.positionField || 'position';
  const pieces = game.view.pieces || [];
  const empty = (game.view.words && game.view.words.empty) || '-';
  const root = el('section', { class: 'game values', 'data-game': d.game });
  view().replaceChildren(root);
  current = {};
  const findPanel = el('div', { class: 'panel find', id: 'find' });
  let found = null;  // the last find's answer, kept while boards change

  /// The next letter of a cell when clicked: empty, then each piece in turn.
  const cycle = [empty, ...pieces.map(p => p.letter)];
  const pieceOf = ch => pieces.find(p => p.letter === ch) || null;

  function boardStrip(board) {
    const cells = [...board];
    const strip = el('div', { class: 'strip', role: 'group', 'aria-label': 'the board: a click changes a cell', style: `--cells: ${Math.max(cells.length, 1)}`, id: 'board' });
    cells.forEach((ch, i) => {
      const piece = pieceOf(ch);
      strip.append(el('button', {
        class: 'cell', 'data-cell': i, 'data-piece': ch, type: 'button',
        'aria-label': `cell ${i}: ${piece ? piece.name : 'empty'} (a click changes it)`,
        onclick: () => {
          const next = cycle[(cycle.indexOf(ch) + 1) % cycle.length];
          show(board.slice(0, i) + next + board.slice(i + 1));
        },
      }, piece ? el('span', { class: 'piece ' + piece.style, text: piece.letter, 'aria-hidden': 'true' }) : null,
      el('span', { class: 'num', text: i, 'aria-hidden': 'true' })));
    });
    return strip;
  }

  function movesTable(key, moves) {
    return el('div', { class: 'panel' }, el('h3', { text: plainWords(key) }),
      moves.length === 0 ? el('p', { class: 'sub', text: 'No move.' }) :
        el('table', { class: 'moves-table', 'data-list': key },
          el('thead', {}, el('tr', {}, el('th', { text: 'move' }), el('th', { text: 'to' }), el('th', { text: 'value' }))),
          el('tbody', {}, moves.map(m => el('tr', {},
            el('td', { text: m.move }),
            el('td', {}, typeof m[field] === 'string'
              ? el('button', { class: 'move', 'data-move': m.move, 'data-position': m[field], title: `open ${m[field]}`, onclick: () => show(m[field]) }, m[field])
              : ''),
            el('td', { class: 'value-text', 'data-key': 'value', text: m.value === undefined ? '' : String(m.value) }))))));
  }

  async function thermographPanel(value) {
    const panel = el('div', { class: 'panel chart', id: 'thermograph-panel' }, el('h3', { text: 'Thermograph' }));
    if (!game.view.route) return panel;
    if (value.length > 2000) {
      panel.append(el('p', { class: 'sub', text: `The value is ${value.length.toLocaleString('en')} characters long: too long to send for drawing here.` }));
      return panel;
    }
    try {
      const th = await api(`${game.view.route}?value=${encodeURIComponent(value)}`);
      panel.append(valuesThermograph(th),
        el('p', { class: 'legend' }, el('span', {}, el('i', { style: 'background: var(--left-player)' }), "Left's wall"),
          el('span', {}, el('i', { style: 'background: var(--right-player)' }), "Right's wall"),
          el('a', { href: `${game.view.route}?value=${encodeURIComponent(value)}`, id: 'thermograph-json' }, 'its walls as JSON')));
    } catch (e) {
      panel.append(el('p', { class: 'sub', text: e.message }));
    }
    return panel;
  }

  function findForm() {
    const kinds = ['', 'number', 'nimber', 'infinitesimal', 'number-plus-infinitesimal', 'hot'];
    const outcomes = ['', 'L', 'R', 'N', 'P'];
    const form = el('form', { class: 'controls', id: 'find-form', onsubmit: e => { e.preventDefault(); find(new FormData(e.target)); } },
      el('label', {}, 'value', el('input', { name: 'value', id: 'find-value', size: 12, spellcheck: 'false', autocomplete: 'off', placeholder: '*2, ^, 1/8' })),
      el('label', {}, 'outcome', el('select', { name: 'outcome', id: 'find-outcome' }, outcomes.map(o => el('option', { value: o, text: o || 'any' })))),
      el('label', {}, 'kind', el('select', { name: 'kind', id: 'find-kind' }, kinds.map(k => el('option', { value: k, text: k || 'any' })))),
      el('label', {}, 'temperature \u2265', el('input', { name: 'temperatureAtLeast', id: 'find-temperature', size: 5, autocomplete: 'off' })),
      el('button', { type: 'submit' }, 'Find'));
    return form;
  }

  function drawFound() {
    const parts = [el('h3', { text: 'Boards by value' }), findForm()];
    if (found && found.error) parts.push(el('p', { class: 'notice', id: 'find-error', text: found.error }));
    else if (found) {
      const a = found.answer;
      parts.push(el('p', { class: 'sub', id: 'find-summary', text: a.found
        ? `${a.values.toLocaleString('en')} distinct value(s); boards of each length (dead pieces and mirrors counted):`
        : (a.message || 'No board has it.') }));
      if (a.found) {
        parts.push(el('table', { class: 'moves-table', id: 'find-lengths' },
          el('thead', {}, el('tr', {}, el('th', { text: 'cells' }), el('th', { text: 'boards' }))),
          el('tbody', {}, a.byLength.filter(e => e.boards > 0).map(e => el('tr', {}, el('td', { text: e.length }), el('td', { text: Number(e.boards).toLocaleString('en') }))))));
        parts.push(el('h3', { text: 'The shortest (no dead pieces)' }),
          el('ol', { class: 'items', id: 'find-shortest' }, a.shortest.map(s => el('li', {},
            el('a', { href: hashOf({ db: d.id, p: s.board }), 'data-board': s.board,
              onclick: e => { e.preventDefault(); show(s.board); } }, s.board), ' ',
            el('span', { class: 'value-text', text: s.value !== undefined ? s.value : `(${s.characters} characters)` })))));
      }
    }
    findPanel.replaceChildren(...parts);
    if (found && found.params) for (const [k, v] of Object.entries(found.params)) {
      const input = findPanel.querySelector(`[name="${k}"]`);
      if (input) input.value = v;
    }
  }

  async function find(data) {
    const params = {};
    for (const [k, v] of data.entries()) if (String(v).trim() !== '') params[k] = String(v).trim();
    const q = new URLSearchParams(params);
    q.set('limit', '20');
    // a '+' in a value is sent encoded (%2B): URLSearchParams does so
    findPanel.dataset.ready = '0';
    try {
      found = { params, answer: await api(`/api/${encodeURIComponent(d.id)}/find?${q.toString()}`) };
    } catch (e) {
      found = { params, error: e.message };
    }
    if (token !== renderToken) return;
    drawFound();
    findPanel.dataset.ready = '1';
  }

  async function draw(q, asked) {
    if (token !== renderToken) return;
    const here = q && typeof q[field] === 'string' ? q[field] : asked;
    note({ db: d.id, p: here });
    const form = el('form', { class: 'controls', id: 'position-form', onsubmit: e => { e.preventDefault(); show(new FormData(e.target).get('p')); } },
      el('label', {}, 'board', el('input', { name: 'p', id: 'position', value: here, size: 26, spellcheck: 'false', autocomplete: 'off' })),
      el('button', { type: 'submit' }, 'Show'),
      el('button', { type: 'button', id: 'add-cell', title: 'an empty cell at the right end', onclick: () => show(here + empty) }, '+ cell'),
      el('button', { type: 'button', id: 'remove-cell', title: 'take the right end cell away', disabled: here.length <= 1, onclick: () => show(here.slice(0, -1)) }, '\u2212 cell'));
    const parts = [el('h2', { text: `${game.title}: ${d.id}` })];
    if (d.about) parts.push(el('p', { class: 'sub', text: d.about }));
    parts.push(form, boardStrip(here));
    if (q) {
      const fields = {}, lists = [];
      for (const [k, v] of Object.entries(q)) {
        if (k === field || k === 'value') continue;
        if (Array.isArray(v) && v.every(m => m && typeof m === 'object' && 'move' in m)) lists.push([k, v]);
        else fields[k] = v;
      }
      const answer = plainFields(fields);
      answer.id = 'answer';
      const thermo = await thermographPanel(String(q.value));
      if (token !== renderToken) return;
      parts.push(el('div', { class: 'layout' },
        el('div', {},
          el('p', { class: 'value-line', id: 'value' }, el('span', { class: 'sub', text: 'value ' }), el('span', { class: 'value-text', id: 'value-text', text: String(q.value) })),
          answer, thermo,
          el('p', { class: 'sub' }, el('a', { href: queryPath(d, here), id: 'json' }, 'This answer as JSON'))),
        el('div', {}, lists.map(([k, moves]) => movesTable(k, moves)))));
    }
    parts.push(findPanel);
    root.replaceChildren(...parts);
    root.dataset.ready = '1';
    view().dataset.ready = '1';
  }

  const show = p => queryAndDraw(d, p, root, token, draw);
  drawFound();
  findPanel.dataset.ready = '1';
  await show(h.p || d.start || empty);
}

views.values = {
  database: valuesDatabase,
};
