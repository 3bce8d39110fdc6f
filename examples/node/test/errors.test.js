'use strict';
// Errors come back as ParlourError with the google.rpc details parsed.

const test = require('node:test');
const assert = require('node:assert/strict');
const { Parlour, ParlourError, withMaxPlies, grpc } = require('../parlour_client');
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

/** The ParlourError a promise rejects with. */
async function failure(promise) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ParlourError, `not a ParlourError: ${e}`);
    return e;
  }
  assert.fail('the call succeeded');
}

/** `from-to` between two cells of the board that is no legal move. */
function illegalNotation(legal, desc) {
  const names = desc.board.cells.map((c) => c.name);
  for (const a of [names[0], names[names.length - 1], names[names.length >> 1]]) {
    for (const b of [...names].reverse()) if (a !== b && !legal.has(`${a}-${b}`)) return `${a}-${b}`;
  }
  throw new Error('every from-to move is legal?');
}

test('an illegal move is INVALID_ARGUMENT with reason ILLEGAL_MOVE, in every game', async (t) => {
  for (const g of await rules.listGames()) {
    for (const variant of g.variants) {
      await t.test(`${g.game}/${variant}`, async () => {
        const desc = await rules.describe(g.game, variant);
        const state = await rules.newGame(g.game, variant);
        const legal = new Set((await rules.moves(state)).map((m) => m.notation));
        const e = await failure(rules.apply(state, illegalNotation(legal, desc)));
        assert.equal(e.code, grpc.status.INVALID_ARGUMENT);
        assert.equal(e.codeName, 'INVALID_ARGUMENT');
        assert.equal(e.reason, 'ILLEGAL_MOVE');
        assert.equal(e.domain, 'parlour.v1');
        assert.equal(e.field, 'move.notation');
        assert.equal(e.metadata.field, 'move.notation');
        assert.ok(e.details.length > 0);
      });
    }
  }
});

test('an illegal move names the cell at fault', async () => {
  const state = await rules.newGame('contiguity');
  const e = await failure(rules.apply(state, '1a-5a'));
  assert.deepEqual([e.codeName, e.reason, e.field, e.cell], ['INVALID_ARGUMENT', 'ILLEGAL_MOVE', 'move.notation', '1a']);
  assert.match(e.details, /1a holds a red piece/);
  assert.deepEqual(e.violations, [{ field: 'move.notation', description: e.details }]);
});

test('a move after the end is GAME_OVER', async () => {
  const state = withMaxPlies(await rules.newGame('contiguity'), 1);
  const reply = await rules.apply(state, (await rules.moves(state))[0]);
  assert.ok(reply.gameOver);
  assert.equal(reply.status, 'GAME_STATUS_DRAWN');
  const e = await failure(rules.apply(reply.state, '30a-5a'));
  assert.deepEqual([e.codeName, e.reason], ['INVALID_ARGUMENT', 'GAME_OVER']);
});

test('an unknown game or variant is UNKNOWN_GAME', async () => {
  let e = await failure(rules.newGame('no-such-game'));
  assert.deepEqual([e.reason, e.field], ['UNKNOWN_GAME', 'game']);
  const game = (await rules.listGames())[0].game;
  e = await failure(rules.describe(game, 'no-such-variant'));
  assert.deepEqual([e.reason, e.field], ['UNKNOWN_GAME', 'variant']);
});

test('a bad position is BAD_POSITION naming the key', async () => {
  let e = await failure(rules.newGame('contiguity', '', 'to_move=white; white=1a,1a'));
  // The field is the request's own; the position key is in the metadata.
  assert.deepEqual([e.codeName, e.reason, e.field, e.cell], ['INVALID_ARGUMENT', 'BAD_POSITION', 'position', '1a']);
  assert.equal(e.metadata.key, 'white');
  e = await failure(rules.moves({ game: 'contiguity', position: 'white=1a' }));
  assert.equal(e.reason, 'BAD_POSITION');
  assert.equal(e.field, 'state.position');
  assert.equal(e.metadata.key, 'to_move');
});

test('a move whose fields disagree is refused naming both', async () => {
  const state = await rules.newGame('contiguity');
  const e = await failure(rules.apply(state, { notation: '30a-5a', fromCell: '29b', toCell: '5b' }));
  assert.deepEqual([e.reason, e.field], ['ILLEGAL_MOVE', 'move.from_cell']);
  assert.match(e.message, /move\.notation/);
  assert.match(e.message, /move\.from_cell/);
});
