'use strict';
// Game records, whole-game replay and analysis, and position keys through the client.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Parlour, ParlourError, recordToText, recordFromText, fnv1a64 } = require('../parlour_client');
const { Server } = require('../support/server');

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

/** A short game: each turn the (i mod n)-th legal move. */
async function play(game, variant = '', plies = 12) {
  const start = await rules.newGame(game, variant);
  let state = start;
  const moves = [];
  for (let i = 0; i < plies; i++) {
    const legal = await rules.moves(state);
    if (!legal.length) break;
    const move = legal[i % legal.length].notation;
    state = (await rules.apply(state, move, { view: 'REPLY_VIEW_FULL' })).state; // with its position keys
    moves.push(move);
  }
  return { start, moves, end: state };
}

test('records of every game round-trip through text and replay in one call', async () => {
  for (const g of await rules.listGames()) {
    for (const variant of g.variants) {
      const { start, moves, end } = await play(g.game, variant);
      const record = {
        game: g.game, variant, start: '', result: '', reason: '', moves, headers: [{ key: 'white', value: 'Ada' }],
      };
      const text = recordToText(record);
      assert.deepEqual(recordFromText(text), record);
      const reply = await rules.replay(text, { includeStates: true });
      assert.equal(reply.failure, null, `${g.game}/${variant}`);
      assert.equal(reply.state.position, end.position);
      assert.equal(reply.state.positionKey, end.positionKey);
      assert.deepEqual(reply.moves.map((m) => m.move.notation), moves);
      assert.equal(reply.recordText, recordToText(reply.record));
      assert.equal((await rules.replay({ state: start, moves })).state.position, end.position);
    }
  }
});

test('a received game is validated with the exact failing move', async () => {
  const { start, moves } = await play('squeeze', '', 6);
  const bad = [...moves.slice(0, 3), 'a1-a2', ...moves.slice(3)];
  const reply = await rules.replay({ state: start, moves: bad });
  assert.equal(reply.failure.index, 3);
  assert.equal(reply.failure.move, 'a1-a2');
  await assert.rejects(rules.apply(reply.state, 'a1-a2'), (e) => {
    assert.ok(e instanceof ParlourError, String(e));
    assert.deepEqual([reply.failure.reason, reply.failure.field, reply.failure.message], [e.reason, e.field, e.details]);
    return true;
  });
});

test('repetitions are reported and keys leave out ply', async () => {
  const moves = ['30a-28a', '1a-3a', '28a-30a', '3a-1a'];
  const reply = await rules.replay({ game: 'contiguity', moves }, { includeStates: true });
  assert.deepEqual(reply.repetitions.map((r) => [r.position, r.first, r.occurrence]), [[4, 0, 2]]);
  const last = reply.moves[3].state;
  assert.notEqual(last.position, reply.start.position);
  assert.equal(last.positionKey, reply.start.positionKey);
  assert.equal(last.positionHash, Number(fnv1a64(last.positionKey)));
});

test('a game is analysed turn by turn with blunders marked, and leaving early cancels it', async () => {
  const { moves } = await play('contiguity', '', 4);
  const replies = [];
  for await (const r of rules.analyzeGame({ game: 'contiguity', moves }, { maxIterations: 100, seed: 2 })) replies.push(r);
  const turns = replies.filter((r) => !r.final).map((r) => r.turn);
  assert.deepEqual(turns.map((t) => t.turn), [0, 1, 2, 3, 4]);
  assert.deepEqual(turns.slice(0, 4).map((t) => t.played.notation), moves);
  const last = replies[replies.length - 1];
  assert.ok(last.final);
  assert.equal(last.turnsAnalyzed, 5);
  for (const b of last.blunders) assert.ok(b.valueLost >= 0.25);
  for await (const r of rules.analyzeGame({ game: 'contiguity', moves }, { timeLimit: 500 })) {
    assert.equal(r.turn.turn, 0);
    break; // cancels the call
  }
  const state = await rules.newGame('contiguity');
  assert.equal(Number((await rules.suggest(state, { maxIterations: 20 })).iterations), 20);
});
