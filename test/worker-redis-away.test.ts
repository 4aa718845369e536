import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort } from '../src/store/pg.kit.js';
import { ROOT } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'botarena-worker-away-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('botarena worker and serve with their Redis away', () => {
  it('stops on the first SIGTERM, saying it stops without telling Redis, and exits 0', async () => {
    const port = await freePort(); // nobody listens there
    const worker = spawn(process.execPath, ['bin/botarena', 'worker', '--queue', `redis://127.0.0.1:${port}`, '--database', join(dir, 'w.sqlite')], {
      cwd: ROOT,
    });
    let out = '';
    worker.stdout.on('data', (d: Buffer) => (out += d));
    worker.stderr.on('data', (d: Buffer) => (out += d));
    const exited = new Promise<number | null>((resolve) => worker.on('close', resolve));
    // Killed after 60 s if it never stops (what it did: BullMQ's close waited for a connection that never came).
    const killer = setTimeout(() => worker.kill('SIGKILL'), 60_000);
    try {
      for (let i = 0; i < 300 && !/cannot be reached; retrying/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(out, /cannot be reached; retrying/, 'the worker says its Redis cannot be reached');
      worker.kill('SIGTERM');
      const code = await exited;
      assert.equal(code, 0, `it stopped by itself (exit 0), not killed:\n${out}`);
      assert.match(out, /did not answer: stopping without telling it/);
    } finally {
      clearTimeout(killer);
      worker.kill('SIGKILL');
    }
  });

  it('serve --queue says once that Redis cannot be reached, then retries quietly (no stack trace every 5 s)', async () => {
    const port = await freePort();
    const server = spawn(
      process.execPath,
      ['bin/botarena', 'serve', '--queue', `redis://127.0.0.1:${port}`, '--port', '0', '--no-gateway', '--database', join(dir, 's.sqlite')],
      { cwd: ROOT },
    );
    let out = '';
    server.stdout.on('data', (d: Buffer) => (out += d));
    server.stderr.on('data', (d: Buffer) => (out += d));
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    try {
      // Two heartbeats (every 10 s) and three ladder tries (every 5 s) fail in this time.
      await new Promise((r) => setTimeout(r, 23_000));
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
    const count = (re: RegExp) => out.split('\n').filter((l) => re.test(l)).length;
    assert.equal(count(/the ladder failed to start a match/), 1, out);
    assert.equal(count(/cannot reach the queue/), 1, out);
    assert.ok(count(/"stack"/) <= 1, `at most one stack trace:\n${out}`);
  });
});
