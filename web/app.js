// parlour playground: a complete game UI on the public API alone.
//
// Unary calls are JSON POSTs by the Connect protocol (POST
// /parlour.v1.Rules/<Method>, Content-Type: application/json; the URLs are
// relative to the page, so the playground also works under a path prefix of
// a site's own reverse proxy); the live
// analysis reads AnalyzeStream by Connect streaming (application/connect+json,
// enveloped JSON messages). The board is RenderBoard's SVG, inlined: every
// cell and piece carries data-cell, so a click names its cell.
'use strict';

const LEVELS = ['beginner', 'easy', 'medium', 'hard', 'strong', 'master'];
const $ = (id) => document.getElementById(id);

// --- the API -------------------------------------------------------------

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.code = body && body.code;
    this.details = (body && body.details) || [];
  }
}

async function call(method, request) {
  ui.busy += 1;
  try {
    const resp = await fetch(`parlour.v1.Rules/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request || {}),
    });
    const body = await resp.json().catch(() => null);
    if (!resp.ok) throw new ApiError(resp.status, body);
    return body;
  } finally {
    ui.busy -= 1;
  }
}

// Server streaming by Connect: one enveloped request, enveloped answers, an
// end-of-stream envelope (flags 2) that may hold an error.
async function stream(method, request, onMessage, signal) {
  const json = new TextEncoder().encode(JSON.stringify(request));
  const frame = new Uint8Array(5 + json.length);
  new DataView(frame.buffer).setUint32(1, json.length);
  frame.set(json, 5);
  const resp = await fetch(`parlour.v1.Rules/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/connect+json' },
    body: frame,
    signal,
  });
  const reader = resp.body.getReader();
  let buf = new Uint8Array(0);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const joined = new Uint8Array(buf.length + value.length);
    joined.set(buf);
    joined.set(value, buf.length);
    buf = joined;
    while (buf.length >= 5) {
      const len = new DataView(buf.buffer, buf.byteOffset).getUint32(1);
      if (buf.length < 5 + len) break;
      const flags = buf[0];
      const msg = JSON.parse(new TextDecoder().decode(buf.subarray(5, 5 + len)));
      buf = buf.slice(5 + len);
      if (flags & 2) {
        if (msg.error) throw new ApiError(0, msg.error);
        return;
      }
      onMessage(msg);
    }
  }
}

// --- moves ---------------------------------------------------------------

// The cells a move touches, as the API describes them: where the piece
// starts, every cell it stands on in turn, and where it ends (or where a
// set-up piece is placed). The one place that knows Move's cell fields.
function moveCells(m) {
  const from = m.fromCell || '';
  const path = m.path && m.path.length ? m.path : from && m.toCell ? [from, m.toCell] : [];
  const to = m.toCell || (m.placed && m.placed.cell) || (path.length ? path[path.length - 1] : '');
  return { from: from || (path.length > 1 ? path[0] : ''), to, path };
}

const startsWith = (path, prefix) => prefix.every((c, i) => path[i] === c);

// --- the game --------------------------------------------------------------

const ui = {
  games: [],          // ListGames
  desc: null,         // DescribeGame's description
  start: null,        // the state the game began from
  state: null,        // the current state
  history: [],        // [{notation, move, state}] of moves made
  moves: [],          // legal moves now
  over: false,
  result: '',
  lastMove: null,     // the last move as ApplyMove described it
  match: null,        // Evaluate's match standing, for games played as matches
  selection: [],      // cells clicked so far of a move in progress
  generation: 0,      // bumps on every new game, so stale answers are dropped
  busy: 0,           // unary calls in flight
  ready: false,       // idle: the board shows the current state
  pace: 250,          // ms between the engine's moves when it plays both sides (?pace=)
};
window.playground = ui; // for the browser tests and the curious

function seats() {
  return ui.desc ? ui.desc.players.map((p) => p.name) : [];
}

// The index of the seat to move: by the game's seats (stable through set-up,
// colour choice and the match) where it has them, else by colour.
function seatIndex(state) {
  const d = ui.desc;
  if (d && d.seats && d.seats.length && state.seatToMove) {
    return Math.max(0, d.seats.map((x) => x.name).indexOf(state.seatToMove));
  }
  return Math.max(0, seats().indexOf(state.toMove));
}

// Who plays the turn: 'human' or a level name. In "me against the engine"
// I hold the first seat, in "the engine against me" the second.
function controller(state) {
  const mode = $('mode').value;
  const idx = seatIndex(state);
  const level = idx % 2 === 0 ? $('level').value : $('level2').value;
  switch (mode) {
    case 'human-human': return 'human';
    case 'bot-bot': return idx % 2 === 0 ? $('level').value : $('level2').value;
    case 'bot-human': return idx === 0 ? level : 'human';
    default: return idx === 0 ? 'human' : $('level').value;
  }
}

function humanTurn() {
  return !ui.over && ui.state && controller(ui.state) === 'human';
}

function showError(e) {
  $('error').textContent = e ? String(e.message || e) : '';
  if (e) console.warn('parlour:', e);
}

function minimal(state) {
  return { game: state.game, variant: state.variant, position: state.position };
}

async function render() {
  const highlight = [];
  if (ui.selection.length) {
    highlight.push(...ui.selection);
    for (const m of ui.moves) {
      const c = moveCells(m);
      if (c.path.length > ui.selection.length && startsWith(c.path, ui.selection)) highlight.push(c.path[ui.selection.length]);
    }
  }
  const r = await call('RenderBoard', {
    state: minimal(ui.state),
    lastMove: ui.lastMove || undefined,
    highlight: [...new Set(highlight)],
    theme: $('theme').value,
    width: 640,
  });
  $('board').innerHTML = r.svg;
}

function describeStatus() {
  if (ui.over) return ui.result;
  const who = ui.state.toMove;
  const c = controller(ui.state);
  const phase = ui.state.phase && ui.state.phase !== 'play' ? ` (${ui.state.phase})` : '';
  return c === 'human' ? `${who} to move${phase}: your turn` : `${who} to move${phase}: the engine (${c}) is thinking…`;
}

function renderSide() {
  $('status').textContent = describeStatus();
  const list = $('moves');
  list.innerHTML = '';
  for (const h of ui.history) {
    const li = document.createElement('li');
    li.textContent = h.notation;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
  // Moves that are not a click on the board: bids, actions, passes.
  const actions = $('actions');
  actions.innerHTML = '';
  if (ui.over && ui.match && !ui.match.finished) {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = 'next-game';
    b.textContent = `Next game of the match (${(ui.match.gameNumber || 1) + 1} of ${ui.match.gamesInMatch})`;
    b.onclick = () => nextGame().catch(showError);
    actions.appendChild(b);
  }
  if (humanTurn()) {
    for (const m of ui.moves) {
      const c = moveCells(m);
      if (c.to) continue;
      actions.appendChild(moveButton(m));
    }
  }
}

function moveButton(m, label) {
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset.notation = m.notation;
  b.textContent = label || m.notation;
  b.onclick = () => play(m);
  return b;
}

function showChoices(moves, text) {
  const box = $('choices');
  box.innerHTML = '';
  if (!moves.length) return;
  const p = document.createElement('span');
  p.textContent = text + ' ';
  box.appendChild(p);
  for (const m of moves) box.appendChild(moveButton(m, m.placed ? `${m.placed.owner} ${m.placed.kind} (${m.notation})` : m.notation));
}

// After every change of state: legal moves, status, picture; then the
// engine's turn if it is one.
async function refresh() {
  const gen = ui.generation;
  ui.ready = false;
  ui.selection = [];
  showChoices([]);
  const [gm, ev] = await Promise.all([
    call('GenerateMoves', { state: minimal(ui.state) }),
    call('Evaluate', { state: minimal(ui.state) }),
  ]);
  if (gen !== ui.generation) return;
  ui.state = gm.state;
  ui.moves = gm.moves || [];
  const status = ev.status || 'GAME_STATUS_ONGOING';
  ui.over = status !== 'GAME_STATUS_ONGOING' || ui.moves.length === 0;
  ui.result = status === 'GAME_STATUS_WON' ? `Won by ${(ev.winners || []).join(' and ')}.` : status === 'GAME_STATUS_DRAWN' ? 'Drawn.' : ui.over ? 'Game over.' : '';
  ui.match = ev.match || null;
  if (ui.match && ui.over) {
    const m = ui.match;
    const totals = seats().map((p, i) => `${p} ${(m.totals || [])[i] || 0}`).join(', ');
    ui.result += ` Match: game ${m.gameNumber || 1} of ${m.gamesInMatch || 1}; penalties ${totals}.`;
    if (m.finished) ui.result += ` Match won by ${(m.winners || []).join(' and ')}.`;
  }
  await render();
  if (gen !== ui.generation) return;
  renderSide();
  exportText();
  analyze();
  if (!ui.over && !humanTurn()) {
    setTimeout(() => engineMove(gen), $('mode').value === 'bot-bot' ? ui.pace : 0);
  } else {
    ui.ready = true;
  }
}

async function engineMove(gen) {
  if (gen !== ui.generation) return;
  try {
    const s = await call('SuggestMove', { state: minimal(ui.state), level: controller(ui.state) });
    if (gen !== ui.generation) return;
    await play(s.move, gen);
  } catch (e) {
    showError(e);
    ui.ready = true;
  }
}

async function play(m, gen = ui.generation) {
  try {
    const a = await call('ApplyMove', { state: minimal(ui.state), move: { notation: m.notation } });
    if (gen !== ui.generation) return;
    ui.history.push({ notation: a.move.notation, state: ui.state });
    ui.lastMove = a.move;
    ui.state = a.state;
    showError(null);
    await refresh();
  } catch (e) {
    showError(e);
    ui.ready = true;
  }
}

// --- clicks on the board -----------------------------------------------------

async function onCell(cell) {
  if (!humanTurn() || !ui.ready) return;
  const sel = ui.selection;
  if (sel.length === 0) {
    const movers = ui.moves.filter((m) => { const c = moveCells(m); return c.from === cell && c.path.length >= 2; });
    if (movers.length) {
      ui.selection = [cell];
      showChoices([]);
      return render();
    }
    const placements = ui.moves.filter((m) => { const c = moveCells(m); return !c.from && c.to === cell; });
    if (placements.length === 1) return play(placements[0]);
    if (placements.length > 1) return showChoices(placements, `On ${cell}:`);
    return;
  }
  if (sel.length === 1 && cell === sel[0]) {
    ui.selection = [];
    showChoices([]);
    return render();
  }
  const next = [...sel, cell];
  const cands = ui.moves.filter((m) => startsWith(moveCells(m).path, next));
  if (!cands.length) {
    ui.selection = [];
    return onCell(cell); // perhaps another piece of ours
  }
  const exact = cands.filter((m) => moveCells(m).path.length === next.length);
  const longer = cands.filter((m) => moveCells(m).path.length > next.length);
  if (exact.length === 1 && !longer.length) return play(exact[0]);
  if (exact.length > 1 && !longer.length) return showChoices(exact, 'Which move?');
  // A multi-jump goes on: show the next landings, and offer to stop here.
  ui.selection = next;
  showChoices(exact, 'Stop here:');
  return render();
}

$('board').addEventListener('click', (e) => {
  const el = e.target.closest('[data-cell]');
  if (el) onCell(el.dataset.cell).catch(showError);
});

// --- live analysis -------------------------------------------------------------

let analysisAbort = null;

function analyze() {
  if (analysisAbort) analysisAbort.abort();
  analysisAbort = null;
  const box = $('analysis');
  if (!$('analyze').checked) return;
  if (ui.over) { box.innerHTML = '<p class="muted">The game is over.</p>'; return; }
  const ctl = new AbortController();
  analysisAbort = ctl;
  box.innerHTML = '<p class="muted">Thinking…</p>';
  const req = { state: minimal(ui.state), budget: { timeLimit: '5s' }, reportInterval: '0.25s' };
  stream('AnalyzeStream', req, (r) => {
    if (ctl.signal.aborted) return;
    const a = r.analysis || {};
    const values = (a.values || []).map((v) => `${v.player} ${(v.value || 0).toFixed(2)}`).join(', ');
    const cands = (a.candidates || []).slice(0, 5).map((c) => `<tr><td>${esc(c.move.notation)}</td><td>${(c.value || 0).toFixed(2)}</td><td>${c.visits || 0}</td></tr>`).join('');
    box.innerHTML = `<p>Best: <b id="best">${esc(a.move ? a.move.notation : '—')}</b>${a.proven ? ' (proven)' : ''}${r.final ? ' — final' : ''}</p>`
      + `<p>Values: ${esc(values)}</p><p>Line: <code>${esc((a.principalVariation || []).join(' '))}</code></p>`
      + `<p class="muted">${a.iterations || 0} iterations, ${parseFloat(a.timeUsed || '0').toFixed(2)} s</p>`
      + (cands ? `<table><tr><td>move</td><td>value</td><td>visits</td></tr>${cands}</table>` : '');
  }, ctl.signal).catch((e) => { if (!ctl.signal.aborted) showError(e); });
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// --- export and import ----------------------------------------------------------

// Game text: `key: value` lines (game, variant, start), then one move per line.
function exportText() {
  const lines = [`game: ${ui.desc.game}`, `variant: ${ui.desc.variant}`, `start: ${ui.start.position}`, ''];
  for (const h of ui.history) lines.push(h.notation);
  $('gametext').value = lines.join('\n') + '\n';
}

async function importText(text) {
  const head = {};
  const moves = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(game|variant|start):\s*(.*)$/.exec(line);
    if (m) head[m[1]] = m[2];
    else moves.push(line);
  }
  if (!head.game) throw new Error('the game text has no "game:" line');
  selectGame(head.game, head.variant || '');
  // Two people, so that nobody moves while the game is replayed.
  $('mode').value = 'human-human';
  const gen = ++ui.generation;
  const ng = await call('NewGame', { game: head.game, variant: head.variant || '', position: head.start || '' });
  ui.desc = (await call('DescribeGame', { game: head.game, variant: ng.state.variant })).description;
  titleLevels(ui.desc);
  ui.start = ng.state;
  ui.state = ng.state;
  ui.history = [];
  ui.lastMove = null;
  for (const [i, n] of moves.entries()) {
    let a;
    try {
      a = await call('ApplyMove', { state: minimal(ui.state), move: { notation: n } });
    } catch (e) {
      throw new Error(`move ${i + 1} (${n}): ${e.message}`);
    }
    if (gen !== ui.generation) return;
    ui.history.push({ notation: a.move.notation, state: ui.state });
    ui.lastMove = a.move;
    ui.state = a.state;
  }
  await refresh();
}

// --- set-up ------------------------------------------------------------------------

function fillSelect(sel, values, chosen) {
  sel.innerHTML = '';
  for (const v of values) {
    const o = document.createElement('option');
    o.value = o.textContent = v;
    sel.appendChild(o);
  }
  if (chosen && values.includes(chosen)) sel.value = chosen;
}

// Each level's option says what the level searches in this game
// (DescribeGame's levels: a level's budget depends on the game).
function titleLevels(desc) {
  const said = new Map((desc.levels || []).map((l) => [l.name, l.summary]));
  for (const sel of [$('level'), $('level2')]) {
    for (const o of sel.options) o.title = said.get(o.value) || '';
  }
}

function selectGame(game, variant) {
  $('game').value = game;
  const g = ui.games.find((x) => x.game === game) || ui.games[0];
  fillSelect($('variant'), g.variants, variant || g.defaultVariant);
}

async function newGame() {
  const gen = ++ui.generation;
  showError(null);
  const game = $('game').value;
  const variant = $('variant').value;
  const [d, ng] = await Promise.all([call('DescribeGame', { game, variant }), call('NewGame', { game, variant })]);
  if (gen !== ui.generation) return;
  ui.desc = d.description;
  titleLevels(ui.desc);
  ui.start = ng.state;
  ui.state = ng.state;
  ui.history = [];
  ui.lastMove = null;
  ui.over = false;
  updateLevel2();
  await refresh();
}

// The next game of a match (Shoulder to Shoulder): NewGame from the
// finished game.
async function nextGame() {
  const gen = ++ui.generation;
  const ng = await call('NewGame', { previousGame: minimal(ui.state) });
  if (gen !== ui.generation) return;
  ui.start = ng.state;
  ui.state = ng.state;
  ui.history = [];
  ui.lastMove = null;
  ui.over = false;
  await refresh();
}

function updateLevel2() {
  $('level2-label').style.display = $('mode').value === 'bot-bot' ? '' : 'none';
}

async function main() {
  const params = new URLSearchParams(location.search);
  fillSelect($('level'), LEVELS, params.get('level') || 'easy');
  fillSelect($('level2'), LEVELS, params.get('level2') || params.get('level') || 'easy');
  if (params.get('mode')) $('mode').value = params.get('mode');
  if (params.get('theme')) $('theme').value = params.get('theme');
  // The pause between the engine's own moves, so a person can follow them
  // (the browser tests set 0: they wait on the page's state, not on time).
  if (/^[0-9]+$/.test(params.get('pace') || '')) ui.pace = Number(params.get('pace'));
  document.body.classList.toggle('dark', $('theme').value === 'dark');
  ui.games = (await call('ListGames', {})).games;
  fillSelect($('game'), ui.games.map((g) => g.game), params.get('game'));
  selectGame($('game').value, params.get('variant'));
  $('game').onchange = () => { selectGame($('game').value); newGame().catch(showError); };
  $('variant').onchange = () => newGame().catch(showError);
  $('new').onclick = () => newGame().catch(showError);
  $('mode').onchange = () => { updateLevel2(); ui.generation++; refresh().catch(showError); };
  $('level').onchange = $('level2').onchange = () => { ui.generation++; refresh().catch(showError); };
  $('theme').onchange = () => { document.body.classList.toggle('dark', $('theme').value === 'dark'); render().catch(showError); };
  $('analyze').onchange = analyze;
  $('export').onclick = exportText;
  $('import').onclick = () => importText($('gametext').value).catch(showError);
  await newGame();
}

main().catch(showError);
