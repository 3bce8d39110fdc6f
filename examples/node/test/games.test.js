'use strict';
// Every game ListGames returns, through the real server: drawn, played to
// its end, and asked for a suggestion.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Parlour, drawBoard, withMaxPlies } = require('../parlour_client');
const { playGame, rng } = require('../play');
const { Server } = require('../support/server');

const MAX_PLIES = 200;
let server;
let rules;

test.before(async () => {
  server = await Server.start();
  rules = new Parlour(server.address);
});

test.after(async () => {
  rules?.close();
  await server?.stop();
});

test('health is SERVING', async () => {
  assert.equal(await rules.health(), 'SERVING');
  assert.equal(await rules.health(''), 'SERVING');
});

test('ListGames', async () => {
  const games = await rules.listGames();
  assert.ok(games.length > 0, 'ListGames returned no game');
  assert.equal(new Set(games.map((g) => g.game)).size, games.length);
  for (const g of games) {
    assert.ok(g.name && g.variants.length && g.playerCount >= 1, JSON.stringify(g));
    assert.ok(g.variants.includes(g.defaultVariant), JSON.stringify(g));
  }
});

async function describeAndDraw(game, variant) {
  const desc = await rules.describe(game, variant);
  assert.deepEqual([desc.game, desc.variant], [game, variant]);
  const names = desc.board.cells.map((c) => c.name);
  assert.ok(names.length > 0);
  assert.equal(new Set(names).size, names.length);
  desc.board.cells.forEach((c, i) => {
    assert.equal(c.index, i);
    for (const n of c.neighbors) assert.ok(names.includes(n.cell), `${c.name} links to unknown cell ${n.cell}`);
  });
  // The map shows every cell name once, none overlapping another.
  const board = drawBoard(desc);
  assert.deepEqual(board.split(/\s+/).filter(Boolean).sort(), [...names].sort(), board);
  // The start drawn: one symbol per piece, every other cell empty.
  const start = desc.start;
  const lines = drawBoard(desc, start).split('\n');
  const grid = start.pieces.length ? lines.slice(0, -1) : lines;
  const marks = grid.join('').replace(/[ .]/g, '');
  assert.equal(marks.length, start.pieces.length, lines.join('\n'));
  assert.equal(grid.join('').replace(/[^.]/g, '').length, names.length - start.pieces.length);
  return desc;
}

async function playWholeGame(game, variant, desc) {
  const seats = desc.players.map((p) => p.name);
  const last = await playGame(rules, game, variant, { maxPlies: MAX_PLIES, seed: 7 });
  assert.ok(last.gameOver);
  assert.ok(['GAME_STATUS_WON', 'GAME_STATUS_DRAWN'].includes(last.status), last.status);
  if (last.status === 'GAME_STATUS_WON') {
    assert.ok(last.winners.length > 0);
    for (const w of last.winners) assert.ok(seats.includes(w), w);
  }
  const ply = Number((last.state.position.match(/(?:^|; )ply=(\d+)/) || [0, '0'])[1]);
  assert.ok(ply <= MAX_PLIES, `ply ${ply}`);
  assert.deepEqual(await rules.moves(last.state), []);
  const evaluation = await rules.evaluate(last.state);
  assert.equal(evaluation.status, last.status);
  assert.deepEqual(evaluation.winners, last.winners);
  const again = await rules.newGame(game, variant, last.state.position);
  assert.equal(again.position, last.state.position);
  return last;
}

async function everyMoveApplies(game, variant) {
  const random = rng(`${game}/${variant}`);
  let state = withMaxPlies(await rules.newGame(game, variant), MAX_PLIES);
  for (let i = 0; i < 6; i++) {
    const moves = await rules.moves(state);
    if (!moves.length) break;
    assert.equal(new Set(moves.map((m) => m.notation)).size, moves.length, 'a move listed twice');
    for (const m of moves.slice(0, 40)) {
      assert.equal((await rules.apply(state, m.notation)).move.notation, m.notation);
    }
    state = (await rules.apply(state, moves[Math.floor(random() * moves.length)])).state;
  }
}

async function suggestIsLegalAndSeeded(game, variant, desc) {
  const state = await rules.newGame(game, variant);
  const legal = new Set((await rules.moves(state)).map((m) => m.notation));
  const budget = { timeLimit: 5000, maxIterations: 200, seed: 11 };
  const first = await rules.suggest(state, budget);
  assert.ok(legal.has(first.move.notation), first.move.notation);
  const seats = desc.players.map((p) => p.name);
  for (const v of first.values) assert.ok(seats.includes(v.player), v.player);
  const second = await rules.suggest(state, budget);
  assert.equal(second.move.notation, first.move.notation, 'same state, seed and iterations: same answer');
  assert.equal((await rules.apply(state, first.move)).move.notation, first.move.notation);
}

test('every game and variant that ListGames returns', async (t) => {
  const games = await rules.listGames();
  for (const g of games) {
    for (const variant of g.variants) {
      await t.test(`${g.game}/${variant}`, async (t) => {
        const desc = await describeAndDraw(g.game, variant);
        await t.test('plays a whole game', async () => {
          await playWholeGame(g.game, variant, desc);
        });
        await t.test('every move applies', () => everyMoveApplies(g.game, variant));
        await t.test('suggests a legal move, the same for the same seed', () =>
          suggestIsLegalAndSeeded(g.game, variant, desc),
        );
      });
    }
  }
});

test('the seat to move may resign, in every game', async () => {
  for (const g of await rules.listGames()) {
    for (const variant of g.variants) {
      const state = await rules.newGame(g.game, variant);
      const reply = await rules.apply(state, 'resign');
      assert.ok(reply.gameOver && reply.reason === 'resigned', `${g.game}/${variant}`);
      assert.equal(reply.moverSeat, state.seatToMove);
      assert.ok(!reply.state.result.winnerSeats.includes(state.seatToMove));
      assert.deepEqual(await rules.moves(reply.state), []);
    }
  }
});
