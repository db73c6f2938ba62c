// The wanderer view (kind "wanderer"): a forest walked by an agent, step by step, from the
// game's route (view.route: the whole walk in one answer: the forest, every step with the
// exact posterior after it, the result). Without a database (a tool) any agent but the optimal
// one; with a served database of the forest's side, the optimal agent reads it.
'use strict';

async function wanderer(game, h, { about, route }) {
  const token = renderToken;
  const side = Math.max(2, Math.min(8, Number(h.side) || 3));
  // what was asked and could not be shown is said on the page, not replaced silently
  const replaced = [];
  if (h.side !== undefined && h.side !== '' && Number(h.side) !== side)
    replaced.push(`Side ${h.side} was asked; this view walks forests of side 2 to 8, so this is side ${side}.`);
  const seed = Number.isFinite(Number(h.seed)) && h.seed !== '' ? Number(h.seed) : 1;
  // the game's databases: the optimal agent reads one of the forest's side
  const ownDbs = databases.filter(x => x.game === game.name);
  const dbOfSide = s => ownDbs.find(x => Number(x.parameters.side) === Number(s));
  const tool = game.tools.find(t => t.kind === 'wanderer');
  const viewId = tool ? tool.id : '';
  let agent = h.agent || 'original';
  let db = h.db || (agent === 'optimal' && dbOfSide(side) ? dbOfSide(side).id : '');
  const served = ownDbs.find(x => x.id === db);
  if (agent === 'optimal' && (!served || Number(served.parameters.side) !== side)) {
    agent = 'bayes';
    replaced.push(`The optimal agent reads a solved database of the forest's side, and this server has none of side ${side}: the Bayesian agent (bayes) walks instead.`);
  }
  note({ view: viewId, side, seed, agent, db: agent === 'optimal' ? db : '' });
  const root = el('section', { class: 'game forest', 'data-game': game.name });
  view().replaceChildren(root, el('p', { text: 'The wanderer is walking this forest\u2026' }));
  const q = new URLSearchParams({ side, seed, agent });
  if (agent === 'optimal') q.set('db', db);
  const play = await api(route + '?' + q);
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
  // what each tile's look means, drawn with the tiles' own classes
  function legend() {
    const key = [['tile mist', 'unknown (mist)'], ['tile seen start', 'the start'], ['tile seen', 'walked on'],
      ['tile monster', 'killed by a monster'], ['tile trap', 'fell into a trap'], ['tile portal', 'the portal'],
      ['tile revealed trap', 'shown at the end, never met (faded)']];
    return el('ul', { class: 'legend tiles', id: 'forest-legend', 'aria-label': 'what the tiles show' },
      key.map(([cls, words]) => el('li', {}, el('span', { class: cls, 'aria-hidden': 'true' }), words)),
      el('li', {}, el('span', { class: 'tile seen', 'aria-hidden': 'true' }, el('span', { class: 'who', text: 'W' })), 'the wanderer'),
      el('li', {}, 'stoned: a stone was thrown there; bones, leaves: what he saw on a walked tile'));
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
    // the success colour only for a walk that paid: the portal after deaths can leave the score
    // below zero
    const r = play.result, paid = r.portal && r.score > 0;
    const end = !done ? '' : r.portal ? (paid ? `Reached the portal: score ${r.score}.` :
      `Reached the portal, but at a loss: score ${r.score} (${r.deaths} ${r.deaths === 1 ? 'death' : 'deaths'}, ${r.stones} ${r.stones === 1 ? 'stone' : 'stones'}).`) :
      `Stuck: the forest ends with score ${r.score}.`;
    const endClass = !done ? '' : paid ? 'win' : r.portal ? 'mixed' : 'lose';
    const stats = el('dl', { class: 'stats', id: 'stats' },
      el('div', {}, el('dt', { text: 'score' }), el('dd', { id: 'score', text: last ? last.score : 0 })),
      el('div', {}, el('dt', { text: 'moves' }), el('dd', { id: 'moves', text: last ? last.moves : 0 })),
      el('div', {}, el('dt', { text: 'stones' }), el('dd', { id: 'stones', text: last ? last.stones : 0 })),
      el('div', {}, el('dt', { text: 'deaths' }), el('dd', { id: 'deaths', text: last ? last.deaths : 0 })));
    const agents = ['original', 'bayes', 'oracle'].concat(dbOfSide(side) ? ['optimal'] : []);
    root.replaceChildren(
      el('h2', { text: `${game.title}: ${side}\u00d7${side}, seed ${seed}` }),
      el('p', { class: 'sub', text: (about ? about + ' ' : '') + 'Press Next move or Enter.' }),
      ...(replaced.length ? [el('p', { class: 'notice', id: 'replaced', role: 'status' }, replaced.join(' '))] : []),
      el('form', { class: 'controls', id: 'forest-form', onsubmit: e => { e.preventDefault(); const f = new FormData(e.target); const own = dbOfSide(f.get('side')); go({ view: viewId, side: f.get('side'), seed: f.get('seed'), agent: f.get('agent'), db: f.get('agent') === 'optimal' && own ? own.id : '' }); } },
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
          el('p', { class: 'value-line ' + endClass, id: 'result', text: end }),
          grid, stats, legend()),
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

views.wanderer = {
  tool(t, game, h) {
    return wanderer(game, h, { about: t.about, route: t.route });
  },
  database(d, game, h) {
    return wanderer(game, { ...h, agent: 'optimal', db: d.id, side: h.side || d.parameters.side }, { about: d.about, route: game.view.route });
  },
  link(d, game) {
    const tool = game.tools.find(t => t.kind === 'wanderer');
    return { view: tool ? tool.id : '', side: d.parameters.side, seed: 1, agent: 'optimal', db: d.id };
  },
};
