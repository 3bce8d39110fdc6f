'use strict';
// SuggestMove levels and AnalyzeStream through the client, on the real server.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Parlour, ParlourError } = require('../parlour_client');
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

test('a level sets the budget and an unknown level is refused', async () => {
  const state = await rules.newGame('contiguity');
  const easy = await rules.suggest(state, { level: 'easy' });
  assert.equal(Number(easy.iterations), 300);
  const legal = new Set((await rules.moves(state)).map((m) => m.notation));
  assert.ok(legal.has(easy.move.notation), easy.move.notation);
  // The request's own budget fields win over the level's.
  assert.equal(Number((await rules.suggest(state, { level: 'medium', maxIterations: 40 })).iterations), 40);
  await assert.rejects(rules.suggest(state, { level: 'grandmaster' }), (e) => {
    assert.ok(e instanceof ParlourError, String(e));
    assert.equal(e.reason, 'BAD_ARGUMENT');
    assert.equal(e.field, 'level');
    return true;
  });
});

test('an analysis streams until its final report', async () => {
  const state = await rules.newGame('scala');
  const reports = [];
  for await (const r of rules.analyze(state, { timeLimit: 500, seed: 3, reportInterval: 50 })) reports.push(r);
  assert.ok(reports.length >= 3, `${reports.length} reports`);
  assert.equal(reports.filter((r) => r.final).length, 1);
  assert.ok(reports.at(-1).final);
  const its = reports.map((r) => Number(r.analysis.iterations));
  assert.deepEqual(its, [...its].sort((a, b) => a - b), 'reports come as the search goes on');
  const legal = new Set((await rules.moves(state)).map((m) => m.notation));
  assert.ok(legal.has(reports.at(-1).analysis.move.notation));
});

test('leaving an analysis early cancels it', async () => {
  const state = await rules.newGame('shoulder-to-shoulder');
  const started = Date.now();
  for await (const r of rules.analyze(state, { timeLimit: 30000, reportInterval: 50 })) {
    assert.equal(r.final, false);
    break; // cancels the call
  }
  assert.ok(Date.now() - started < 5000);
  assert.equal(Number((await rules.suggest(state, { maxIterations: 20 })).iterations), 20);
});

test('a bad state is refused before the stream starts', async () => {
  const state = await rules.newGame('contiguity');
  state.position = 'to_move=white; white=1a,1a';
  await assert.rejects(
    (async () => {
      for await (const r of rules.analyze(state, { timeLimit: 1000 })) void r;
    })(),
    (e) => e instanceof ParlourError && e.reason === 'BAD_POSITION',
  );
});

test("the game's history reaches the search", async () => {
  // Eleven white stones against a lone black one: White is ahead.
  const state = { game: 'scala', position: 'to_move=white; white=h4,f5,h5,f6,g6,h7,i7,i8,j9,i10,h11; black=h3' };
  const best = (await rules.suggest(state, { maxIterations: 500, seed: 1 })).move.notation;
  const after = (await rules.apply(state, best)).state.position;
  // Told that the game has been where `best` leads, the search values it a draw.
  const told = await rules.suggest(state, { maxIterations: 500, seed: 1, history: [after] });
  assert.notEqual(told.move.notation, best);
  for (const c of told.candidates.filter((c) => c.move.notation === best)) assert.equal(c.value, 0);
  await assert.rejects(rules.suggest(state, { maxIterations: 10, history: [after, 'to_move=white; white=z1'] }), (e) => {
    assert.ok(e instanceof ParlourError, String(e));
    assert.equal(e.field, 'history[1]');
    return true;
  });
});
