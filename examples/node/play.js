#!/usr/bin/env node
'use strict';
/**
 * Lists parlour's games, draws each board, and plays a whole game of each.
 *
 *   node play.js                                   # every game, random moves
 *   node play.js --target localhost:50051 --game scala --suggest --max-plies 100
 *   node play.js --boards-only                     # just list and draw
 *
 * Moves are chosen at random from GenerateMoves (seeded: --seed), or asked of
 * SuggestMove with --suggest. Each game is bounded by the `max_plies` position
 * key, so it ends (drawn at the latest) after --max-plies plies.
 */

const { parseArgs } = require('node:util');
const { Parlour, ParlourError, drawBoard, withMaxPlies } = require('./parlour_client');

/** A small seeded generator (mulberry32 over a string hash), so games replay. */
function rng(seedText) {
  let h = 1779033703;
  for (const ch of seedText) h = Math.imul(h ^ ch.charCodeAt(0), 3432918353) >>> 0;
  return () => {
    h = (h + 0x6d2b79f5) >>> 0;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plays one game from the start to its end and returns the last ApplyMove
 * reply ({state, status, winners, gameOver}). Logs the moves with `log`. */
async function playGame(rules, game, variant = '', { maxPlies = 200, seed = 0, suggest = false, think = 50, log = null } = {}) {
  const random = rng(`${game}/${variant}/${seed}`);
  let state = withMaxPlies(await rules.newGame(game, variant), maxPlies);
  let last = null;
  const made = [];
  const seen = []; // the positions so far, for SuggestMove's history
  // max_plies bounds the plies; this bound is a safety net only.
  const limit = 10 * maxPlies + 100;
  // One call a turn: ApplyMove returns the next moves with the new state.
  let moves = suggest ? null : await rules.moves(state);
  for (let i = 0; ; i++) {
    if (i === limit) throw new Error(`${game}/${variant}: no end after ${limit} moves despite max_plies`);
    let move;
    if (suggest) {
      // The earlier positions keep a side that is ahead from going round a cycle.
      move = (await rules.suggest(state, { timeLimit: think, seed, history: seen })).move;
      seen.push(state.position);
    } else {
      if (!moves.length) break;
      move = moves[Math.floor(random() * moves.length)];
    }
    last = await rules.apply(state, move, { nextMoves: !suggest });
    moves = last.nextMoves;
    made.push(`${last.moverSeat}:${last.move.notation}${last.captured.length ? `x${last.captured.join(',')}` : ''}`);
    state = last.state;
    if (last.gameOver) break;
  }
  if (log) log(`  ${made.length} moves: ${made.join(' ')}`);
  return last;
}

function resultText(reply) {
  const status = reply.status.replace('GAME_STATUS_', '').toLowerCase();
  const seats = reply.state.result.winnerSeats;
  let by = reply.winners.length ? ` by ${reply.winners.join(', ')}` : '';
  if (seats.length && seats.join() !== reply.winners.join()) by += ` (${seats.join(', ')})`;
  return status + by + (reply.reason ? `: ${reply.reason}` : '');
}

/** The measures that apply to the game (proto3 optional fields that are set), and groups. */
function describeEvaluation(p) {
  const parts = Object.keys(p)
    .filter((k) => k.startsWith('_') && p[k])
    .map((k) => `${p[k]}=${p[p[k]]}`);
  if (p.groups.length) parts.push(`${p.groupCount} group(s) ${p.groups.map((g) => `[${g.cells.join(',')}]`).join(' ')}`);
  return parts.join(', ') || '-';
}

async function main(argv) {
  const { values: args } = parseArgs({
    args: argv,
    options: {
      target: { type: 'string', default: 'localhost:50051' },
      game: { type: 'string', multiple: true },
      'all-variants': { type: 'boolean', default: false },
      'max-plies': { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      suggest: { type: 'boolean', default: false },
      think: { type: 'string', default: '50' },
      'boards-only': { type: 'boolean', default: false },
    },
  });
  const rules = new Parlour(args.target);
  try {
    let games;
    try {
      games = await rules.listGames();
    } catch (e) {
      if (!(e instanceof ParlourError)) throw e;
      console.error(`cannot reach ${args.target}: ${e.message}`);
      return 2;
    }
    console.log(`${games.length} games at ${args.target}:`);
    for (const g of games) {
      console.log(`  ${g.game.padEnd(22)} ${g.name} (${g.author}), ${g.playerCount} players, variants: ${g.variants.join(', ')}`);
    }
    for (const g of games) {
      if (args.game && !args.game.includes(g.game)) continue;
      for (const variant of args['all-variants'] ? g.variants : [g.defaultVariant]) {
        const desc = await rules.describe(g.game, variant);
        console.log(`\n== ${desc.name} (${desc.game}, ${desc.variant}): ${desc.board.cells.length} cells`);
        console.log(drawBoard(desc));
        if (args['boards-only']) continue;
        console.log(`\nstart: ${desc.start.position}`);
        console.log(drawBoard(desc, desc.start));
        const t = process.hrtime.bigint();
        const last = await playGame(rules, g.game, variant, {
          maxPlies: Number(args['max-plies']),
          seed: Number(args.seed),
          suggest: args.suggest,
          think: Number(args.think),
          log: console.log,
        });
        const secs = Number(process.hrtime.bigint() - t) / 1e9;
        console.log(`\nend (${resultText(last)}, ${secs.toFixed(2)}s): ${last.state.position}`);
        // Replies carry the state as text by default; the drawing needs its pieces.
        const drawn = await rules.newGame(g.game, variant, last.state.position, null, { stateForm: 'STATE_FORM_BOTH' });
        console.log(drawBoard(desc, drawn));
        const evaluated = await rules.evaluate(last.state, { view: 'REPLY_VIEW_FULL' });
        for (const p of evaluated.players) console.log(`  ${p.player}: ${describeEvaluation(p)}`);
      }
    }
    return 0;
  } finally {
    rules.close();
  }
}

module.exports = { playGame, resultText, rng };

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
