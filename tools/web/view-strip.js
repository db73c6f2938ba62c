// The strip view (kind "strip"): a row of cells, each empty or holding one of the game's
// pieces (/api/'s view.pieces: its letter, class, glyph and name). A move's name holds the
// cells it goes from and to, in that order ("1-2", "L from 1 to 2"). Two players (view.sides):
// against perfect play, the player to move at the front of the position ("1_", view.turnPrefix),
// each move coloured by its value, a chart of the game. One player: a puzzle, the moves tried as
// a tree, a hint, and the optimal solution from the game's route (view.route) when it has one.
'use strict';

// ---- values, colours, words -----------------------------------------------------------------

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

// ---- the strip ------------------------------------------------------------------------------

/// The player to move, '1' or '2' (a game without the prefix: '1').
function stripTurn(game, position) {
  return game.view.turnPrefix ? position[0] : '1';
}
function stripCells(game, position) {
  return (game.view.turnPrefix ? position.slice(2) : position).split('');
}
function stripPieceOf(game, ch) {
  return game.view.pieces.find(p => p.letter === ch) || null;
}

/// The cells a move goes from and to.
function moveCells(m) {
  const n = m.move.match(/(\d+)\D+(\d+)/);
  return n ? [Number(n[1]), Number(n[2])] : [-1, -1];
}

/// Draws the strip; `moves` coloured (colour: true) or plain; `onMove(m)` when one is taken.
function drawStrip(game, position, moves, { colour, hint, onMove, disabled }) {
  const cells = stripCells(game, position);
  const byFrom = new Map(moves.map(m => [moveCells(m)[0], m]));
  const byTo = new Map(moves.map(m => [moveCells(m)[1], m]));
  // --cells sizes the cells to the width (toadbase.css): they scale down on a narrow screen and
  // wrap onto a second row, numbers kept, only when even the smallest do not fit
  const strip = el('div', { class: 'strip', role: 'group', 'aria-label': 'the board', style: `--cells: ${cells.length}` });
  cells.forEach((ch, i) => {
    const m = byFrom.get(i);
    const piece = stripPieceOf(game, ch);
    const cell = el(m && !disabled ? 'button' : 'div', {
      class: 'cell', 'data-cell': i, 'data-piece': ch,
      'aria-label': `cell ${i}: ${piece ? piece.name : 'empty'}` + (m ? `, move ${m.move}` + (colour ? `, ${m.moveValue} (${moveWords(m)})` : '') : ''),
    }, piece ? el('span', { class: 'piece ' + piece.style, text: piece.glyph, 'aria-hidden': 'true' }) : null,
    el('span', { class: 'num', text: i, 'aria-hidden': 'true' }));
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

// ---- two players against perfect play ----------------------------------------------------

async function stripVersus(d, game, start) {
  const token = renderToken;
  const st = { history: [], players: { 1: 'you', 2: 'computer' }, busy: false, timer: null };
  current = { stop() { clearTimeout(st.timer); } };
  const root = el('section', { class: 'game versus', 'data-game': d.game });
  view().replaceChildren(root);
  const side = n => game.view.sides[Number(n) - 1];
  const other = n => (n === '1' || n === 1 ? '2' : '1');
  const turnOf = q => stripTurn(game, q.position);

  function valueWords(q) {
    const mover = side(turnOf(q)).name, them = side(other(turnOf(q))).name;
    if (q.moves.length === 0) return `${mover} cannot move: ${them} win`;
    if (q.positionValue === 'win') return `${mover} to move win in ${q.remoteness}`;
    if (q.positionValue === 'lose') return `${mover} to move lose in ${q.remoteness}`;
    return `${mover} to move: ${q.positionValue}`;
  }
  function winnerOf(q) {
    const mover = turnOf(q);
    return q.positionValue === 'win' ? side(mover) : side(other(mover));
  }

  async function push(position, move) {
    const q = await api(queryPath(d, position));
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
    svg.setAttribute('aria-label', 'remoteness over the moves: ' + h.map((e, i) => `move ${i}: ${e.q.remoteness}, ${winners[i].name} winning`).join('; '));
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
      add('line', { x1: x(i - 1), y1: y(h[i - 1].q.remoteness), x2: x(i), y2: y(h[i].q.remoteness), style: `stroke:${winners[i].colour}`, 'stroke-width': 3 });
    h.forEach((e, i) => {
      const c = add('circle', { cx: x(i), cy: y(e.q.remoteness), r: 5, style: `fill:${winners[i].colour}`, 'data-winner': winners[i].name });
      const t = document.createElementNS('http://www.w3.org/2000/svg', 'title');
      t.textContent = `after ${i} moves: ${valueWords(e.q)}`;
      c.append(t);
    });
    return el('figure', { class: 'chart' }, svg,
      el('figcaption', { class: 'legend' }, game.view.sides.map(s => el('span', {}, el('i', { style: `background:${s.colour}` }), `${s.name} winning`))));
  }

  function render() {
    if (token !== renderToken) return;
    const top = st.history[st.history.length - 1].q;
    const turn = turnOf(top);
    const human = st.players[turn] === 'you';
    const over = top.moves.length === 0;
    note({ db: d.id, p: top.position });
    const playerSelect = n => el('label', {}, `${side(n).name}:`,
      el('select', { id: `player-${n}`, onchange: e => { st.players[n] = e.target.value; render(); schedule(); } },
        ...['you', 'computer'].map(v => el('option', { value: v, selected: st.players[n] === v, text: v === 'you' ? 'you (by hand)' : 'perfect play' }))));
    const movesList = el('ol', { class: 'moves', 'aria-label': 'every legal move, best first' },
      top.moves.map(m => el('li', {}, el('button', {
        'data-move': m.move, 'data-value': m.moveValue, style: `--mc:${moveColour(m)}`, disabled: !human || st.busy,
        onclick: () => play(m),
      }, `${symbol(m.moveValue)} ${m.move}: ${m.moveValue} (${moveWords(m)})`))));
    root.replaceChildren(
      el('h2', { text: `${game.title}: ${d.id}` }),
      el('p', { class: 'sub', text: (d.about ? d.about + ' ' : '') + 'Each legal move is coloured for the player making it: green wins, red loses; the brightest is the quickest win or the slowest loss.' }),
      el('p', { id: 'value', class: 'value-line ' + (over ? '' : top.positionValue), 'data-value': top.positionValue, 'data-remoteness': top.remoteness },
        valueWords(top) + (over ? '' : human ? ' (your move)' : ' (perfect play is thinking)')),
      el('div', { class: 'layout' },
        el('div', {},
          drawStrip(game, top.position, top.moves, { colour: true, onMove: play, disabled: !human || st.busy }),
          el('div', { class: 'controls' }, playerSelect(1), playerSelect(2),
            el('button', { id: 'undo', onclick: undo, disabled: st.history.length < 2, title: 'Undo (U)' }, 'Undo'),
            el('button', { id: 'restart', onclick: () => go({ db: d.id, p: d.start }) }, 'New game')),
          chart()),
        el('div', { class: 'panel' }, el('h3', { text: over ? 'No move left' : `${side(turn).name}' moves` }), movesList,
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
    if (top.moves.length === 0 || st.players[turnOf(top)] !== 'computer') return;
    st.timer = setTimeout(() => play(top.moves[0]), 350);
  }
  function undo() {
    clearTimeout(st.timer);
    if (st.history.length < 2) return;
    st.history.pop();
    // back to a position where a person moves (unless both sides are perfect play)
    while (st.history.length > 1 && st.players[turnOf(st.history[st.history.length - 1].q)] === 'computer' &&
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
  const first = turnOf(st.history[0].q);
  st.players = { [first]: 'you', [other(first)]: 'computer' };
  render();
}

// ---- one player: a puzzle ----------------------------------------------------------------

async function stripPuzzle(d, game, start) {
  const token = renderToken;
  const root = el('section', { class: 'game puzzle', 'data-game': d.game });
  view().replaceChildren(root);
  current = {};
  const words = game.view.words || {};
  const cache = new Map();
  async function query(p) {
    if (!cache.has(p)) cache.set(p, await api(queryPath(d, p)));
    return cache.get(p);
  }
  const first = await query(start || d.start);
  if (token !== renderToken) return;
  const rootNode = { q: first, move: null, parent: null, children: [] };
  const st = { node: rootNode, hint: null, solution: null, step: 0, busy: false };

  function valueWords(q) {
    if (q.positionValue === 'win' && q.remoteness === 0) return words.solved || 'Solved!';
    if (q.positionValue === 'win') return `Fewest moves left: ${q.remoteness}`;
    if (q.moves.length === 0) return words.stuck || 'Stuck: nothing can move, and this is not the goal.';
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
      st.solution = await api(`${game.view.route}?p=${encodeURIComponent(st.node.q.position)}`);
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
    const solvable = q.positionValue === 'win' && q.remoteness > 0;
    root.replaceChildren(
      el('h2', { text: `${game.title}: ${d.id}` }),
      el('p', { class: 'sub', text: d.about || '' }),
      el('p', { id: 'value', class: 'value-line ' + cls, 'data-value': q.positionValue, 'data-remoteness': q.remoteness }, valueWords(q)),
      el('div', { class: 'layout' },
        el('div', {},
          drawStrip(game, q.position, q.moves, { colour: false, hint: st.hint, onMove: take, disabled: st.busy }),
          el('div', { class: 'controls' },
            el('button', { id: 'undo', onclick: undo, disabled: !st.node.parent, title: 'Undo (U)' }, 'Undo'),
            el('button', { id: 'restart', onclick: () => { st.node = rootNode; st.solution = null; st.hint = null; render(); } }, 'Start again'),
            el('button', { id: 'hint', disabled: !solvable, onclick: () => { st.hint = q.moves[0]; render(); } }, 'Hint'),
            game.view.route ? el('button', { id: 'show-solution', disabled: !solvable, onclick: showSolution }, 'Show an optimal solution') : null),
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

views.strip = {
  database(d, game, h) {
    return game.view.sides.length === 2 ? stripVersus(d, game, h.p) : stripPuzzle(d, game, h.p);
  },
};
