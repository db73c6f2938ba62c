// toadbase's page: pick a served database (or a game's view that needs none) and play it.
// Plain script, no framework, no network beyond this server's /api/. This file is the start
// and the routing; each way of showing a game is a file of its own, view-<kind>.js, which
// registers itself in `views`. No game is named here or there: what the page knows of a game
// is what /api/ says of it (its `games`: a title, the view of its databases, the pieces of a
// strip, the views it offers without a database), so a new game has a page without anyone
// touching tools/web/. The address's hash names what is shown, so a link can be shared:
//   #db=ID&p=POSITION              a database at a position, in its game's view
//   #db=ID&p=POSITION&as=plain     the same in the plain view (any game: the query's JSON)
//   #view=TOOL&...                 a game's view that needs no database (/api/'s `tools`)
'use strict';

const $ = (sel, root = document) => root.querySelector(sel);
const view = () => $('#view');
let databases = [];
let games = [];       // /api/'s `games`: how the page shows each game
let current = null;  // the running view's state; `stop()` is called when another view starts
let renderToken = 0;

/// The views by kind, each { database(d, game, h), tool(t, game, h), link(d, game) } (all
/// optional): view-<kind>.js files fill it in.
const views = {};

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

/// A database's query route for a position.
function queryPath(d, position) {
  return `/api/${encodeURIComponent(d.id)}/query?p=${encodeURIComponent(position)}`;
}

/// A view's step to a position: asks the database, then draw(q, p) with its answer, or
/// draw(null, p) after the server's message is shown (the position stays to be mended).
async function queryAndDraw(d, p, root, token, draw) {
  if (!p) return draw(null, '');
  root.dataset.ready = '0';
  view().dataset.ready = '0';
  let q;
  try {
    q = await api(queryPath(d, p));
    showError('');
  } catch (e) {
    if (token !== renderToken) return;
    showError(e.message);
    return draw(null, p);
  }
  return draw(q, p);
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

// ---- the games, as /api/ describes them ---------------------------------------------------

/// A database's game (its `games` entry), or a plain one for a game the server does not list.
function gameOf(d) {
  return games.find(g => g.name === d.game) ||
    { name: d.game, title: d.game, view: { kind: 'plain', route: '', positionField: 'position', turnPrefix: false, sides: [], pieces: [], words: {} }, tools: [] };
}
/// The view of a kind that shows databases (the plain view for a kind this page lacks).
function databaseView(kind) {
  return views[kind] && views[kind].database ? views[kind] : views.plain;
}
/// Every view that needs no database, with its game, by the game's title.
function allTools() {
  return games.flatMap(g => g.tools.map(t => ({ tool: t, game: g })))
    .sort((a, b) => a.game.title.localeCompare(b.game.title));
}
function toolById(id) {
  return allTools().find(x => x.tool.id === id) || null;
}
/// Where a database opens: its view says (a view of its own address), else at its start.
function linkOf(d) {
  const game = gameOf(d);
  const v = databaseView(game.view.kind);
  return v.link ? v.link(d, game) : { db: d.id, p: d.start };
}
function describe(d) {
  return d.description || d.game;
}

// ---- the start: the picker ---------------------------------------------------------------

function fillPicker() {
  const s = $('#picker');
  s.replaceChildren(el('option', { value: '', text: 'Choose\u2026' }));
  for (const d of databases) s.append(el('option', { value: 'db:' + d.id, text: `${d.id}: ${describe(d)}` }));
  for (const { tool, game } of allTools()) s.append(el('option', { value: 'view:' + tool.id, text: `${game.title}: ${tool.picker}` }));
  s.addEventListener('change', () => {
    const v = s.value;
    if (v.startsWith('db:')) go(linkOf(databases.find(x => x.id === v.slice(3))));
    else if (v.startsWith('view:')) go({ view: v.slice(5) });
    else go({});
  });
}

function syncPicker(h) {
  const s = $('#picker');
  const t = h.view ? toolById(h.view) : null;
  const d = h.db ? databases.find(x => x.id === h.db) : null;
  // a database shown in a view of its own game's is the database's entry
  const v = d && (!t || t.game.name === d.game) ? 'db:' + d.id : h.view ? 'view:' + h.view : h.db ? 'db:' + h.db : '';
  s.value = [...s.options].some(o => o.value === v) ? v : '';
}

function home() {
  const cards = databases.map(d => el('a', { class: 'card', href: hashOf(linkOf(d)) }, el('b', { text: d.id }), ' ', describe(d),
    el('small', { text: `${Number(d.positions).toLocaleString('en')} positions` })));
  for (const { tool, game } of allTools())
    cards.push(el('a', { class: 'card', href: hashOf({ view: tool.id, ...tool.params }) }, el('b', { text: game.title }),
      ' ' + tool.card, el('small', { text: 'no database needed' })));
  view().replaceChildren(el('h2', { text: 'Solved games' }),
    el('p', { class: 'sub', text: 'Pick a database to play against perfect play, solve a puzzle, or watch a wanderer.' }),
    el('div', { class: 'dbs' }, cards));
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
    if (h.view) {
      const t = toolById(h.view);
      if (t && views[t.tool.kind] && views[t.tool.kind].tool) return await views[t.tool.kind].tool(t.tool, t.game, h);
    }
    if (h.db) {
      const d = databases.find(x => x.id === h.db);
      if (!d) throw new Error(`no database '${h.db}' is served here`);
      const game = gameOf(d);
      const v = h.as && views[h.as] && views[h.as].database ? views[h.as] : databaseView(game.view.kind);
      return await v.database(d, game, h);
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

// the view files load after this one: the page starts once every script has run
document.addEventListener('DOMContentLoaded', async () => {
  try {
    const listing = await api('/api/');
    databases = listing.databases;
    games = listing.games || [];
  } catch (e) {
    showError('cannot list the databases: ' + e.message);
  }
  fillPicker();
  route();
});
