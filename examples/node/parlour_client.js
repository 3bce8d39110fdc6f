'use strict';
/**
 * A small Node.js client for the parlour rules service (parlour.v1.Rules),
 * with @grpc/grpc-js and the proto loaded at run time by @grpc/proto-loader.
 *
 *   const { Parlour, ParlourError } = require('./parlour_client');
 *   const rules = new Parlour('localhost:50051');
 *   const state = await rules.newGame('contiguity');
 *   const moves = await rules.moves(state);
 *   const reply = await rules.apply(state, moves[0]);  // a move, or its notation
 *   try {
 *     await rules.apply(reply.state, '1a-5a');
 *   } catch (e) {
 *     if (!(e instanceof ParlourError)) throw e;
 *     console.log(e.codeName, e.reason, e.field, e.cell); // INVALID_ARGUMENT ILLEGAL_MOVE move.notation ...
 *   }
 *   rules.close();
 *
 * Messages are plain objects with camelCase fields (`toMove`, `gameOver`),
 * enums as their names (`GAME_STATUS_WON`), 64-bit integers as numbers.
 * The proto is read from the repository's proto/ (PARLOUR_PROTO_DIR to point
 * elsewhere). Errors are ParlourError, with the google.rpc.ErrorInfo and
 * BadRequest that parlour puts in the `grpc-status-details-bin` trailer.
 */

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const PROTO_DIR = process.env.PARLOUR_PROTO_DIR || path.resolve(__dirname, '..', '..', 'proto');

const packageDefinition = protoLoader.loadSync('parlour/v1/rules.proto', {
  includeDirs: [PROTO_DIR],
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
});
const { parlour } = grpc.loadPackageDefinition(packageDefinition);

// The few messages of google/rpc/status.proto, google/rpc/error_details.proto
// and grpc/health/v1/health.proto this client reads, field numbers as there.
// `Detail` has the wire form of google.protobuf.Any.
const extras = protobuf.parse(`
  syntax = "proto3";
  package extras;
  message Detail { string type_url = 1; bytes value = 2; }
  message Status { int32 code = 1; string message = 2; repeated Detail details = 3; }
  message ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }
  message FieldViolation { string field = 1; string description = 2; }
  message BadRequest { repeated FieldViolation field_violations = 1; }
  message HealthCheckRequest { string service = 1; }
  message HealthCheckResponse {
    enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
    ServingStatus status = 1;
  }
`, { keepCase: true }).root;
const T = (name) => extras.lookupType(`extras.${name}`);
const Status = T('Status');
const ErrorInfo = T('ErrorInfo');
const BadRequest = T('BadRequest');
const HealthCheckRequest = T('HealthCheckRequest');
const HealthCheckResponse = T('HealthCheckResponse');

const HealthClient = grpc.makeGenericClientConstructor(
  {
    Check: {
      path: '/grpc.health.v1.Health/Check',
      requestStream: false,
      responseStream: false,
      requestSerialize: (o) => Buffer.from(HealthCheckRequest.encode(HealthCheckRequest.fromObject(o)).finish()),
      requestDeserialize: (b) => HealthCheckRequest.toObject(HealthCheckRequest.decode(b)),
      responseSerialize: (o) => Buffer.from(HealthCheckResponse.encode(HealthCheckResponse.fromObject(o)).finish()),
      responseDeserialize: (b) =>
        HealthCheckResponse.toObject(HealthCheckResponse.decode(b), { enums: String, defaults: true }),
    },
  },
  'Health',
);

const CODE_NAMES = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k]));

/**
 * A failed call, with parlour's rich error details.
 *   code        the numeric gRPC code (grpc.status.INVALID_ARGUMENT = 3)
 *   codeName    its name, e.g. `INVALID_ARGUMENT`
 *   message     the status message, for a person
 *   reason      ErrorInfo.reason: UNKNOWN_GAME, BAD_POSITION, ILLEGAL_MOVE, GAME_OVER, BAD_ARGUMENT (or null)
 *   domain      ErrorInfo.domain (`parlour.v1`)
 *   metadata    ErrorInfo.metadata (`field`, and `cell` when one cell is at fault)
 *   violations  BadRequest field violations: [{field, description}]
 *   field       the first violation's field, e.g. `move.notation`
 *   cell        metadata.cell, or null
 */
class ParlourError extends Error {
  constructor({ code, details, reason = null, domain = null, metadata = {}, violations = [] }) {
    super(`${CODE_NAMES[code] || code}: ${details}${reason ? ` [${reason}]` : ''}`);
    this.name = 'ParlourError';
    this.code = code;
    this.codeName = CODE_NAMES[code] || String(code);
    this.details = details;
    this.reason = reason;
    this.domain = domain;
    this.metadata = metadata;
    this.violations = violations;
  }

  get field() {
    return this.violations.length ? this.violations[0].field : this.metadata.field || null;
  }

  get cell() {
    return this.metadata.cell || null;
  }

  /** From a grpc-js ServiceError: parses the `grpc-status-details-bin` trailer. */
  static fromServiceError(err) {
    const out = { code: err.code, details: err.details, metadata: {}, violations: [] };
    const bin = err.metadata && typeof err.metadata.get === 'function' ? err.metadata.get('grpc-status-details-bin') : [];
    if (bin.length) {
      let status;
      try {
        status = Status.decode(bin[0]);
      } catch {
        status = { details: [] }; // not a google.rpc.Status: keep code and message
      }
      for (const d of status.details) {
        const type = d.type_url.slice(d.type_url.lastIndexOf('/') + 1);
        if (type === 'google.rpc.ErrorInfo') {
          const info = ErrorInfo.decode(d.value);
          out.reason = info.reason;
          out.domain = info.domain;
          out.metadata = { ...info.metadata };
        } else if (type === 'google.rpc.BadRequest') {
          for (const v of BadRequest.decode(d.value).field_violations) {
            out.violations.push({ field: v.field, description: v.description });
          }
        }
      }
    }
    return new ParlourError(out);
  }
}

function toMove(move) {
  if (typeof move === 'string') return { notation: move };
  // Only what a request reads; every field given must agree with the others.
  const { notation, fromCell, toCell, path } = move;
  // A reply's `bid` defaults to 0 when unset; `_bid` says whether it is set.
  const hasBid = move._bid === 'bid' || (move.kind === undefined && move.bid !== undefined);
  return hasBid ? { notation, fromCell, toCell, path, bid: move.bid } : { notation, fromCell, toCell, path };
}

/** The same state with the `max_plies` position key set, so that a game
 * played from it ends (drawn, at the latest) after `maxPlies` plies. */
/** A call's last argument: {timeout, view, stateForm}, or a bare timeout. */
function opts(options) {
  const o = options !== null && typeof options === 'object' ? { ...options } : { timeout: options };
  for (const k of ['view', 'stateForm']) if (o[k] === undefined) delete o[k];
  return o;
}

function withMaxPlies(state, maxPlies) {
  const kept = state.position.split('; ').filter((kv) => !kv.startsWith('max_plies='));
  return { game: state.game, variant: state.variant, position: `${kept.join('; ')}; max_plies=${maxPlies}` };
}

/** A connection to a parlour server. Every call returns a promise, takes an
 * optional `timeout` in milliseconds and rejects with ParlourError. */
class Parlour {
  constructor(target = 'localhost:50051', { timeout = 30000, credentials = grpc.credentials.createInsecure() } = {}) {
    this.target = target;
    this.timeout = timeout;
    this.client = new parlour.v1.Rules(target, credentials);
    this.healthClient = new HealthClient(target, credentials, { channelOverride: this.client.getChannel() });
  }

  close() {
    this.client.close();
  }

  _call(client, method, request, timeout) {
    const deadline = Date.now() + (timeout ?? this.timeout);
    return new Promise((resolve, reject) => {
      client[method](request, { deadline }, (err, reply) => {
        if (!err) return resolve(reply);
        reject(parlourError(err)); // details that do not parse: the plain grpc-js error
      });
    });
  }

  /** The health status name: SERVING, NOT_SERVING, ... */
  async health(service = 'parlour.v1.Rules', timeout = 2000) {
    return (await this._call(this.healthClient, 'Check', { service }, timeout)).status;
  }

  /** Polls health until SERVING; rejects after `timeout` ms. */
  async waitUntilServing(timeout = 30000) {
    const end = Date.now() + timeout;
    let last = null;
    while (Date.now() < end) {
      try {
        if ((await this.health('parlour.v1.Rules', 1000)) === 'SERVING') return;
      } catch (e) {
        last = e;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${this.target} not SERVING after ${timeout} ms (last error: ${last})`);
  }

  /** One GameSummary per game. */
  async listGames(timeout) {
    return (await this._call(this.client, 'ListGames', {}, timeout)).games;
  }

  /** The board, seats, piece kinds, variants, position keys, start state. */
  async describe(game, variant = '', timeout) {
    return (await this._call(this.client, 'DescribeGame', { game, variant }, timeout)).description;
  }

  // Every call about a state takes, in its last argument, `view` and
  // `stateForm` (docs/api.md, "Views"): unset, the server answers its
  // default, what a game needs (moves without `passed`, groups without
  // cells, the state as text only, without position keys). `view:
  // 'REPLY_VIEW_FULL'` adds those; `stateForm: 'STATE_FORM_BOTH'` (or
  // `'STATE_FORM_STRUCTURED'`) adds `pieces` and `fields` (drawBoard needs
  // `pieces`). That argument may also be a bare timeout in milliseconds.

  /** The start state, or `position` parsed, or the next game of a match after `previousGame`. */
  async newGame(game, variant = '', position = '', previousGame = null, options) {
    const { timeout, ...views } = opts(options);
    const req = { game, variant, position, ...views };
    if (previousGame) req.previousGame = previousGame;
    return (await this._call(this.client, 'NewGame', req, timeout)).state;
  }

  /** Every legal move; empty once the game is over. */
  async moves(state, options) {
    const { timeout, ...views } = opts(options);
    return (await this._call(this.client, 'GenerateMoves', { state, ...views }, timeout)).moves;
  }

  /** Click-by-click entry: the legal moves whose path begins with the
   * cells chosen so far (`moves`), the cells that may be chosen next
   * (`nextCells`) and whether the cells chosen make a whole move (`complete`). */
  async entry(state, chosenCells, options) {
    const { timeout, ...views } = opts(options);
    return this._call(this.client, 'GenerateMoves', { state, chosenCells, ...views }, timeout);
  }

  /** Makes a move (a Move or its notation): {state, move, captured, mover,
   * moverSeat, status, winners, reason, gameOver}; with `nextMoves`, also
   * `nextMoves` (the legal moves after it), so a turn takes one call. */
  async apply(state, move, { nextMoves = false, timeout, view, stateForm } = {}) {
    const req = { state, move: toMove(move), includeNextMoves: nextMoves, view, stateForm };
    return this._call(this.client, 'ApplyMove', req, timeout);
  }

  /** Status, winners and the game's measures per seat (each group's cells
   * with `view: 'REPLY_VIEW_FULL'`). */
  async evaluate(state, options) {
    const { timeout, ...views } = opts(options);
    return this._call(this.client, 'Evaluate', { state, ...views }, timeout);
  }

  /** A move for the player to move (.move), with values and candidates.
   * `timeLimit` in milliseconds; unset leaves it to the server's default
   * (or to `level`: beginner, easy, medium, hard, strong, master). */
  async suggest(
    state,
    { timeLimit, maxIterations = 0, seed = 0, level = '', stateAfter = false, timeout, view, stateForm, history = [] } = {},
  ) {
    // `history`: the game's earlier positions (their `state.position`
    // texts); a move back to one is a draw to the search (Scala).
    const req = {
      state, budget: budget(timeLimit, maxIterations, seed), level, includeStateAfter: stateAfter, view, stateForm, history,
    };
    return this._call(this.client, 'SuggestMove', req, timeout);
  }

  /** The search's analysis as it improves (AnalyzeStream): an async
   * iterator of {analysis, final}, one every `reportInterval` ms, the last
   * with `final` set. Leaving the loop early cancels the call, and the
   * server stops searching. */
  async *analyze(state, { timeLimit, maxIterations = 0, seed = 0, level = '', reportInterval = 100, timeout } = {}) {
    const request = { state, budget: budget(timeLimit, maxIterations, seed), level, reportInterval: duration(reportInterval) };
    const call = this.client.AnalyzeStream(request, { deadline: Date.now() + (timeout ?? this.timeout) });
    try {
      for await (const reply of call) yield reply;
    } catch (err) {
      throw parlourError(err);
    } finally {
      call.cancel();
    }
  }

  // --- whole games (docs/records.md)

  /** Replays a whole game in one call (ReplayGame): `game` is a GameRecord,
   * a record's text, or {state, moves}. A move that cannot be made is no
   * error: `.failure` gives its index and ApplyMove's reason, field, cell
   * and message, and `.state` is the state before it. `.repetitions` lists
   * positions seen before; `.record`/`.recordText` the game as replayed. */
  async replay(game, { includeStates = false, timeout } = {}) {
    return this._call(this.client, 'ReplayGame', { ...gameRequest(game), includeStates }, timeout);
  }

  /** Analyzes a whole game (AnalyzeGame): an async iterator of one reply
   * per turn as it is done ({turn}: the search's answer, the move played,
   * the value it lost), then a last one ({final, blunders, turnsAnalyzed}).
   * Turn i is the position before move i; no `turns` means all. The budget
   * is per turn. Leaving the loop early cancels the call. */
  async *analyzeGame(game, {
    turns = [], timeLimit, maxIterations = 0, seed = 0, level = '', maxBlunders = 0, blunderThreshold = 0, timeout,
  } = {}) {
    const request = {
      ...gameRequest(game), turns, budget: budget(timeLimit, maxIterations, seed), level, maxBlunders, blunderThreshold,
    };
    const call = this.client.AnalyzeGame(request, { deadline: Date.now() + (timeout ?? this.timeout) });
    try {
      for await (const reply of call) yield reply;
    } catch (err) {
      throw parlourError(err);
    } finally {
      call.cancel();
    }
  }
}

/** The request fields giving a game one way: record text, a GameRecord, or {state, moves}. */
function gameRequest(game) {
  if (typeof game === 'string') return { recordText: game };
  if (game && game.state) return { state: game.state, moves: game.moves || [] };
  return { record: game };
}

// --- game records as text (docs/records.md)

const KNOWN_HEADERS = ['game', 'variant', 'start', 'result', 'reason'];

/** The text form of a record: one `key: value` header per line (game,
 * variant, start, result, reason when set, then the free headers in
 * order), an empty line, then the moves ten to a line. The server writes
 * the same text (ReplayGameResponse.recordText). */
function recordToText(record) {
  const lines = KNOWN_HEADERS.filter((k) => record[k]).map((k) => `${k}: ${record[k]}`);
  for (const h of record.headers || []) lines.push(h.value ? `${h.key}: ${h.value}` : `${h.key}:`);
  const moves = record.moves || [];
  if (moves.length) {
    lines.push('');
    for (let i = 0; i < moves.length; i += 10) lines.push(moves.slice(i, i + 10).join(' '));
  }
  return lines.map((l) => `${l}\n`).join('');
}

/** Reads a record's text form (the inverse of recordToText); throws naming
 * the line on a malformed header. */
function recordFromText(text) {
  const record = { game: '', variant: '', start: '', result: '', reason: '', moves: [], headers: [] };
  const lines = text.split(/\r?\n/);
  const seen = new Set();
  let i = 0;
  for (; i < lines.length && lines[i].trim() !== ''; i++) {
    const at = lines[i].indexOf(':');
    if (at < 0) throw new Error(`line ${i + 1}: \`${lines[i]}\` is not a header \`key: value\``);
    const key = lines[i].slice(0, at).trim();
    const value = lines[i].slice(at + 1).trim();
    if (seen.has(key)) throw new Error(`line ${i + 1}: header \`${key}\` is given twice`);
    seen.add(key);
    if (KNOWN_HEADERS.includes(key)) record[key] = value;
    else record.headers.push({ key, value });
  }
  for (const line of lines.slice(i + 1)) record.moves.push(...line.split(/\s+/).filter(Boolean));
  if (!record.game) throw new Error('the record has no `game:` header');
  return record;
}

/** FNV-1a 64 of `text`'s UTF-8 bytes, as a BigInt: GameState.positionHash
 * of its positionKey (this client reads 64-bit fields as Numbers, so compare
 * `Number(fnv1a64(key))`). */
function fnv1a64(text) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text, 'utf8')) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

/** A Duration from milliseconds. */
function duration(ms) {
  return { seconds: Math.floor(ms / 1000), nanos: Math.round((ms % 1000) * 1e6) };
}

function budget(timeLimit, maxIterations, seed) {
  const b = { maxIterations, seed };
  if (timeLimit !== undefined) b.timeLimit = duration(timeLimit);
  return b;
}

/** A ParlourError from a grpc-js error, or the error itself when its
 * details do not parse. */
function parlourError(err) {
  try {
    return ParlourError.fromServiceError(err);
  } catch {
    return err;
  }
}

// --- drawing a board as text (the same layout as examples/python)

function symbolsFor(pieces, seats) {
  const byOwner = new Map();
  for (const p of pieces) {
    if (!byOwner.has(p.owner)) byOwner.set(p.owner, []);
    if (!byOwner.get(p.owner).includes(p.kind)) byOwner.get(p.owner).push(p.kind);
  }
  const rank = (o) => (seats.includes(o) ? seats.indexOf(o) : seats.length);
  const owners = [...byOwner.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const used = new Set();
  const symbols = new Map();
  for (const owner of owners) {
    byOwner.get(owner).forEach((kind, i) => {
      const letters = [...owner.toLowerCase()].filter((c) => /[a-z]/.test(c));
      const cands = [...letters.map((c) => (i ? c.toUpperCase() : c)), ...letters.map((c) => c.toUpperCase()), ...'0123456789'];
      const sym = cands.find((c) => !used.has(c)) || '?';
      used.add(sym);
      symbols.set(`${owner}\u0000${kind}`, sym);
    });
  }
  return symbols;
}

function idealScale(values, limit, span) {
  const distinct = [...new Set(values.map((v) => Math.round(v * 1000) / 1000))].sort((a, b) => a - b);
  const gaps = distinct.slice(1).map((b, i) => b - distinct[i]).filter((g) => g > 1e-6);
  if (!gaps.length) return 1;
  const gap = Math.min(...gaps);
  return span / gap > limit ? null : 1 / gap;
}

/** Character grid [row, col] of each cell such that labels `width` wide never overlap on a row. */
function layout(cells, width) {
  const xs = cells.map((c) => c.x);
  const ys = cells.map((c) => c.y);
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  const xspan = Math.max(...xs) - x0;
  const yspan = Math.max(...ys) - y0;
  const place = (sx, sy) => {
    const pos = new Map(cells.map((c) => [c.name, [Math.floor((c.y - y0) * sy + 0.5), Math.floor((c.x - x0) * sx + 0.5)]]));
    const rows = new Map();
    for (const [r, col] of pos.values()) {
      if (!rows.has(r)) rows.set(r, []);
      rows.get(r).push(col);
    }
    for (const cols of rows.values()) {
      cols.sort((a, b) => a - b);
      for (let i = 1; i < cols.length; i++) if (cols[i] - cols[i - 1] < width + 1) return null;
    }
    return pos;
  };
  const ix = idealScale(xs, 160, xspan);
  const iy = idealScale(ys, 60, yspan);
  if (ix !== null && iy !== null) {
    for (let k = 1; k <= 2 * (width + 1); k++) {
      const pos = place(ix * k, iy);
      if (pos && xspan * ix * k <= 200) return pos;
    }
  }
  for (let sx = 0.5; sx <= 64; sx += 0.25) {
    const pos = place(sx, sx / 2);
    if (pos) return pos;
  }
  return new Map(cells.map((c, i) => [c.name, [i, 0]]));
}

/** The board as text, each cell where its x/y puts it. Without a state, each
 * cell shows its name; with one, each piece shows as a letter (legend below)
 * and an empty cell as `empty`, in the same places. */
function drawBoard(description, state = null, { empty = '.' } = {}) {
  const cells = description.board.cells;
  if (!cells.length) return '(no board)';
  const seats = description.players.map((p) => p.name);
  const labels = new Map();
  let legend = '';
  if (!state) {
    for (const c of cells) labels.set(c.name, c.name);
  } else {
    const symbols = symbolsFor(state.pieces, seats);
    for (const c of cells) labels.set(c.name, empty);
    for (const p of state.pieces) labels.set(p.cell, symbols.get(`${p.owner}\u0000${p.kind}`));
    legend = [...symbols].map(([k, s]) => `${s} ${k.replace('\u0000', ' ')}`).join('  ');
  }
  const width = Math.max(...cells.map((c) => c.name.length));
  const pos = layout(cells, width);
  const nrows = Math.max(...[...pos.values()].map(([r]) => r)) + 1;
  const ncols = Math.max(...[...pos.values()].map(([, c]) => c)) + width + 1;
  const grid = Array.from({ length: nrows }, () => Array(ncols).fill(' '));
  for (const c of cells) {
    const [r, col] = pos.get(c.name);
    const text = center(labels.get(c.name), width);
    for (let i = 0; i < width; i++) grid[r][col + i] = text[i];
  }
  const lines = grid.map((row) => row.join('').trimEnd());
  if (legend) lines.push(legend);
  return lines.join('\n');
}

/** Python's str.center: the extra space goes right when the padding is odd
 * and the width even, left otherwise. */
function center(s, width) {
  const pad = width - s.length;
  if (pad <= 0) return s;
  const left = Math.floor(pad / 2) + (pad & width & 1);
  return ' '.repeat(left) + s + ' '.repeat(pad - left);
}

module.exports = {
  Parlour, ParlourError, drawBoard, withMaxPlies, recordToText, recordFromText, fnv1a64, grpc, PROTO_DIR,
};
