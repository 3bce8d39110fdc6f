'use strict';
/**
 * Starts the real parlour binary on a free loopback port, for the tests.
 * The binary is PARLOUR_BIN, or else target/release/parlour, or else
 * target/debug/parlour (under CARGO_TARGET_DIR when set): build it first
 * (`cargo build --release --bin parlour`, which scripts/test does).
 */

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { Parlour } = require('../parlour_client');

const ROOT = path.resolve(__dirname, '..', '..', '..');

function findBinary() {
  if (process.env.PARLOUR_BIN) return process.env.PARLOUR_BIN;
  const target = process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target');
  for (const profile of ['release', 'debug']) {
    const bin = path.join(target, profile, 'parlour');
    if (fs.existsSync(bin)) return bin;
  }
  throw new Error(`no parlour binary under ${target}: run \`cargo build --release --bin parlour\` or set PARLOUR_BIN`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** `parlour serve` as a child process: `address` is host:port; `stop()` ends it. */
class Server {
  static async start() {
    const binary = findBinary();
    let lastError;
    for (let attempt = 0; attempt < 3; attempt++) {
      // The free port can be taken between bind and listen: then try another.
      const address = `127.0.0.1:${await freePort()}`;
      const server = new Server(binary, address);
      try {
        await server.waitUntilServing(30000);
        return server;
      } catch (e) {
        lastError = e;
        await server.stop();
      }
    }
    throw lastError;
  }

  constructor(binary, address) {
    this.address = address;
    this.output = '';
    this.exited = null;
    this.proc = spawn(binary, ['serve', '--listen', address, '--shutdown-grace-ms', '2000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk) => {
      this.output = (this.output + chunk).slice(-4000);
    };
    this.proc.stdout.on('data', keep);
    this.proc.stderr.on('data', keep);
    this.done = new Promise((resolve) =>
      this.proc.on('exit', (code, signal) => {
        this.exited = { code, signal };
        resolve(this.exited);
      }),
    );
  }

  async waitUntilServing(timeout) {
    const client = new Parlour(this.address);
    const end = Date.now() + timeout;
    try {
      while (Date.now() < end) {
        if (this.exited) throw new Error(`parlour exited (${JSON.stringify(this.exited)}): ${this.output}`);
        try {
          if ((await client.health('parlour.v1.Rules', 1000)) === 'SERVING') return;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`parlour at ${this.address} not SERVING after ${timeout} ms: ${this.output}`);
    } finally {
      client.close();
    }
  }

  /** SIGTERM, then SIGKILL after 10 s; resolves to {code, signal}. */
  async stop() {
    if (!this.exited) {
      this.proc.kill('SIGTERM');
      const timer = setTimeout(() => this.proc.kill('SIGKILL'), 10000);
      await this.done;
      clearTimeout(timer);
    }
    return this.exited;
  }
}

module.exports = { Server, findBinary };
