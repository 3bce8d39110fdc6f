// The playground in a real browser: Debian's chromium, driven by
// playwright-core, against the real parlour binary.
//
// For every game and variant: open the page, play moves by clicking the
// board (pieces, landings, set-up cells) and the move buttons (bids,
// actions), see the engine answer, until the game ends or a ply cap; no
// console errors. Also: two levels playing each other to the end, live
// analysis, export and import. Screenshots go to target/browser-artifacts.
// The pages run with `pace=0` (no pause between the engine's own moves,
// which is for people watching): every wait is on the page's state
// (`window.playground`), none on time.
//
//   PARLOUR_BIN=path/to/parlour node --test web/tests/   (default: target/debug/parlour)
//   PARLOUR_CHROMIUM=/usr/bin/chromium                   (the default)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = process.env.PARLOUR_BIN || path.join(ROOT, 'target/debug/parlour');
const ARTIFACTS = path.join(ROOT, 'target/browser-artifacts');
const HUMAN_PLIES = 4; // moves the test clicks at the start of each game
const PLY_CAP = 24; // plies (reached in the play phase) after which a game counts as played enough

let server;
let base;
let browser;

function startServer() {
  return new Promise((resolve, reject) => {
    const p = spawn(BIN, ['serve', '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const onData = (d) => {
      log += d.toString();
      const m = /parlour listening[^\n]*?addr=([0-9.]+:[0-9]+)|addr=([0-9.]+:[0-9]+)[^\n]*parlour listening/.exec(log.replace(/\x1b\[[0-9;]*m/g, ''));
      if (m) resolve({ proc: p, url: `http://${m[1] || m[2]}` });
    };
    p.stdout.on('data', onData);
    p.stderr.on('data', onData);
    p.on('exit', (code) => reject(new Error(`parlour exited (${code}) before listening:\n${log}`)));
    setTimeout(() => reject(new Error(`parlour did not start in 20 s:\n${log}`)), 20000).unref();
  });
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  base = server.url;
  browser = await chromium.launch({
    executablePath: process.env.PARLOUR_CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.proc.kill('SIGTERM');
});

// A fresh page (its own context, so its own profile) that records errors.
async function openPage(query) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}/?${query}`);
  return { page, errors, context };
}

// Waits until the page is idle: its turn is a person's, or the game is over.
async function idle(page) {
  await page.waitForFunction(() => window.playground && window.playground.ready, null, { timeout: 60000 });
  return page.evaluate(() => ({
    over: window.playground.over,
    plies: window.playground.history.length,
    toMove: window.playground.state.toMove,
    phase: window.playground.state.phase,
    moves: window.playground.moves,
    result: window.playground.result,
  }));
}

// The same reading of a move's cells as the page's moveCells.
function cellsOf(m) {
  const from = m.fromCell || '';
  const p = m.path && m.path.length ? m.path : from && m.toCell ? [from, m.toCell] : [];
  const to = m.toCell || (m.placed && m.placed.cell) || (p.length ? p[p.length - 1] : '');
  return { from: from || (p.length > 1 ? p[0] : ''), to, path: p };
}

// Clicks a cell of the board, then waits for the page's calls (the
// redrawn board) to finish.
async function clickCell(page, cell) {
  await page.locator(`#board svg .cell[data-cell="${cell}"]`).click({ force: true });
  await settle(page);
}

const settle = (page) => page.waitForFunction(() => window.playground.busy === 0, null, { timeout: 30000 });

// Makes one move as a person would: click the piece and each landing, or
// the cell to place on (then the right choice), or the move's button.
async function clickMove(page, m) {
  const c = cellsOf(m);
  if (c.path.length >= 2) {
    for (const cell of c.path) {
      await clickCell(page, cell);
      // After a landing that could end the move, the page offers "stop here".
      const stop = page.locator(`#choices button[data-notation="${m.notation}"]`);
      if (cell === c.path[c.path.length - 1] && (await stop.count())) await stop.click();
    }
  } else if (c.to) {
    await clickCell(page, c.to);
    const choice = page.locator(`#choices button[data-notation="${m.notation}"]`);
    if (await choice.count()) await choice.click();
  } else {
    await page.locator(`#actions button[data-notation="${m.notation}"]`).click();
  }
}

// Picks the move to make: a varied but reproducible one.
function pick(moves, n) {
  return moves[(n * 7919) % moves.length];
}

async function games() {
  const r = await fetch(`${base}/parlour.v1.Rules/ListGames`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
  });
  return (await r.json()).games.flatMap((g) => g.variants.map((v) => [g.game, v]));
}

// Clicks `n` moves (fewer if the game ends), each answered by the engine.
async function clickMoves(page, s, n, label) {
  for (let i = 0; i < n && !s.over; i++) {
    const before = s.plies;
    await clickMove(page, pick(s.moves, before + i));
    await page.waitForFunction((k) => window.playground.history.length > k, before, { timeout: 30000 });
    s = await idle(page);
    assert.ok(s.plies > before, `${label}: the click made no move`);
  }
  return s;
}

test('every game and variant can be played by clicking against the engine', async (t) => {
  for (const [game, variant] of await games()) {
    await t.test(`${game} ${variant}`, async () => {
      const label = `${game} ${variant}`;
      const { page, errors, context } = await openPage(`game=${game}&variant=${variant}&mode=human-bot&level=beginner&pace=0`);
      // A few moves by clicking (in the set-up, bidding or play phase)...
      let s = await clickMoves(page, await idle(page), HUMAN_PLIES, label);
      if (!s.over) {
        // ...then the engine plays both sides into the play phase and past
        // the cap (or to the end)...
        await page.selectOption('#mode', 'bot-bot');
        await page.waitForFunction(
          (cap) => window.playground.over || (window.playground.state.phase === 'play' && window.playground.history.length >= cap),
          PLY_CAP,
          { timeout: 120000 },
        );
        await page.selectOption('#mode', 'human-bot');
        s = await idle(page);
        // ...and a few more clicks in the play phase.
        s = await clickMoves(page, s, 2, label);
      }
      assert.ok(s.over || s.plies >= PLY_CAP, `${label}: neither finished nor at the cap`);
      const history = await page.evaluate(() => window.playground.history.map((h) => h.notation));
      assert.equal(await page.locator('#moves li').count(), history.length);
      await page.screenshot({ path: path.join(ARTIFACTS, `${game}-${variant}.png`) });
      assert.deepEqual(errors, [], `${label}: console errors`);
      await context.close();
    });
  }
});

test('multi-jump entered landing by landing', async () => {
  // Scala: find a position with a jump chain by letting the engine play.
  const { page, errors, context } = await openPage('game=scala&mode=human-human');
  let s = await idle(page);
  for (let i = 0; i < 40 && !s.over; i++) {
    const chain = s.moves.find((m) => cellsOf(m).path.length >= 3);
    if (chain) {
      const c = cellsOf(chain);
      await clickCell(page, c.path[0]);
      await clickCell(page, c.path[1]);
      // Mid-move: the first landing is selected and the next one offered.
      const sel = await page.evaluate(() => window.playground.selection);
      assert.deepEqual(sel, c.path.slice(0, 2));
      await page.locator(`#board svg .highlight[data-cell="${c.path[2]}"]`).waitFor();
      for (const cell of c.path.slice(2)) await clickCell(page, cell);
      const stop = page.locator(`#choices button[data-notation="${chain.notation}"]`);
      if (await stop.count()) await stop.click();
      await page.waitForFunction((n) => window.playground.history.length > n, s.plies);
      const last = await page.evaluate(() => window.playground.history.at(-1).notation);
      assert.equal(last, chain.notation);
      assert.deepEqual(errors, []);
      await page.screenshot({ path: path.join(ARTIFACTS, 'multi-jump.png') });
      await context.close();
      return;
    }
    await clickMove(page, pick(s.moves, i));
    await page.waitForFunction((n) => window.playground.history.length > n, s.plies);
    s = await idle(page);
  }
  assert.fail('no jump chain came up in 40 plies of Scala');
});

test('two levels play a whole game to its end', async () => {
  const { page, errors, context } = await openPage('game=hex-swish&mode=bot-bot&level=beginner&level2=easy&pace=0');
  await page.waitForFunction(() => window.playground.over && window.playground.ready, null, { timeout: 240000 });
  const result = await page.locator('#status').textContent();
  assert.match(result, /Won by|Drawn|over/);
  // Each level's option says what it searches in this game (DescribeGame's levels).
  const master = await page.locator('#level option[value="master"]').getAttribute('title');
  assert.match(master, /30 000 iterations/);
  await page.screenshot({ path: path.join(ARTIFACTS, 'bot-bot.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('live analysis, export and import', async () => {
  const { page, errors, context } = await openPage('game=contiguity&mode=human-human&theme=dark');
  let s = await idle(page);
  await clickMove(page, s.moves[0]);
  await page.waitForFunction(() => window.playground.history.length === 1);
  s = await idle(page);
  await page.check('#analyze');
  await page.waitForFunction(() => document.getElementById('best') && document.getElementById('best').textContent.length > 1, null, { timeout: 30000 });
  const best = await page.locator('#best').textContent();
  assert.ok(s.moves.some((m) => m.notation === best), `best move ${best} is not legal`);
  await page.screenshot({ path: path.join(ARTIFACTS, 'analysis.png') });
  await page.uncheck('#analyze');

  const text = await page.locator('#gametext').inputValue();
  assert.match(text, /^game: contiguity\nvariant: default\nstart: .+\n\n\S+\n$/);
  // Import the game into a fresh page: the same position.
  const fresh = await openPage('game=scala');
  await idle(fresh.page);
  await fresh.page.fill('#gametext', text);
  await fresh.page.click('#import');
  await fresh.page.waitForFunction(() => window.playground.state.game === 'contiguity' && window.playground.history.length === 1 && window.playground.ready);
  const [a, b] = await Promise.all([page, fresh.page].map((p) => p.evaluate(() => window.playground.state.position)));
  assert.equal(a, b);
  // A bad move names its line.
  await fresh.page.fill('#gametext', text + 'zz-top\n');
  await fresh.page.click('#import');
  await fresh.page.waitForFunction(() => document.getElementById('error').textContent.includes('move 2'));
  assert.deepEqual(errors, []);
  await fresh.context.close();
  await context.close();
});

test('a match goes on to its next game', async () => {
  // Shoulder to Shoulder is a match of three games; a ply limit ends the
  // first one quickly (drawn), then the page offers the next game.
  const { page, errors, context } = await openPage('game=shoulder-to-shoulder&mode=human-human');
  await idle(page);
  const start = await page.evaluate(() => window.playground.start.position);
  await page.fill('#gametext', `game: shoulder-to-shoulder\nvariant: three-player\nstart: ${start}; max_plies=3\n`);
  await page.click('#import');
  await page.waitForFunction(() => window.playground.ready && window.playground.history.length === 0 && /max_plies=3/.test(window.playground.state.position));
  for (let i = 0; i < 3; i++) {
    const s = await idle(page);
    await clickMove(page, pick(s.moves, i));
    await page.waitForFunction((n) => window.playground.history.length > n, s.plies);
  }
  await page.waitForFunction(() => window.playground.over && window.playground.ready);
  assert.match(await page.locator('#status').textContent(), /Match: game 1 of 3/);
  await page.click('#next-game');
  await page.waitForFunction(() => window.playground.ready && /game=2/.test(window.playground.state.position));
  const s = await idle(page);
  assert.equal(s.over, false);
  assert.ok(s.moves.length > 0);
  await page.screenshot({ path: path.join(ARTIFACTS, 'match-next-game.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
