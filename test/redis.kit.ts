import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { TestContext } from 'node:test';
import { redactRedisUrl } from '../src/live/redis.js';
import { freePort } from '../src/store/pg.kit.js';

// A real Redis for tests. BOTARENA_TEST_REDIS_URL, when set, is used as is (it cannot be killed or restarted
// from here); otherwise the machine's redis-server is started on a free 127.0.0.1 port with no persistence at
// all, so a kill() and restart() lose everything it held: the hardest case a Redis restart can be.

/** A Redis to test on. */
export interface TestRedis {
  /** where it comes from, for test names */
  source: string;
  /** its redis:// URL */
  url: string;
  port: number;
  /** whether kill() and restart() work (not on BOTARENA_TEST_REDIS_URL's server) */
  canRestart: boolean;
  /** kills the server at once (SIGKILL: no save, clients cut off mid-reply) */
  kill(): void;
  /** starts it again, empty, on the same port after kill(); resolves once it answers PING */
  restart(): Promise<void>;
  /** stops the server and deletes its folder */
  stop(): Promise<void>;
}

/** Why no Redis could be had (the tests then skip, or fail under CI). */
export interface NoRedis {
  missing: string;
}

const ENV_URL = 'BOTARENA_TEST_REDIS_URL';
const START_LIMIT_MS = 10_000;

/** A Redis for this test file, or why there is none. */
export async function testRedis(): Promise<TestRedis | NoRedis> {
  const fromEnv = process.env[ENV_URL]?.trim();
  if (fromEnv) {
    const notHere = () => {
      throw new Error(`kill() and restart() are not available with ${ENV_URL}: the server is not this test's to stop`);
    };
    return {
      source: `${ENV_URL} (${redactRedisUrl(fromEnv)})`,
      url: fromEnv,
      port: Number(new URL(fromEnv).port || 6379),
      canRestart: false,
      kill: notHere,
      restart: async () => notHere(),
      stop: async () => {},
    };
  }
  const bin = findRedisServer();
  if (!bin)
    return { missing: 'no redis-server on this machine (neither on PATH nor in /usr/bin): apt-get install redis-server, or set BOTARENA_TEST_REDIS_URL' };
  return startServer(bin);
}

/**
 * For a test file without Redis: fails under CI (BOTARENA_CI; CI must never skip the Redis tests), else
 * skips saying why.
 */
export function redisMissing(missing: string, t: TestContext): void {
  if (process.env.BOTARENA_CI) assert.fail(`Redis is missing, and CI must run the Redis tests: ${missing}`);
  t.skip(`Redis is missing: ${missing}`);
}

/** redis-server on PATH, else Debian's /usr/bin/redis-server. */
export function findRedisServer(): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/bin']) {
    const p = join(dir, 'redis-server');
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

// Servers of this process, killed when it exits without its `after` (a crash, a timeout): none is left behind.
const running = new Set<{ child: ChildProcess | null; dir: string }>();
process.on('exit', () => {
  for (const s of running) {
    s.child?.kill('SIGKILL');
    rmSync(s.dir, { recursive: true, force: true });
  }
});

async function startServer(bin: string): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'botarena-redis-'));
  const entry: { child: ChildProcess | null; dir: string } = { child: null, dir };
  running.add(entry);
  let port = 0;
  let exited: Promise<void> = Promise.resolve();

  /** Starts redis-server on `port`; resolves once it answers PING, or throws with what it printed. */
  const launch = async (): Promise<{ ok: true } | { ok: false; output: string }> => {
    // No persistence: nothing survives a kill, and nothing is written to the folder but what Redis insists on.
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    entry.child = child;
    let output = '';
    const keep = (d: Buffer) => void (output = (output + d.toString()).slice(-4000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    let gone = false;
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    void exited.then(() => (gone = true));
    child.once('error', (err) => void (output += `\n${err.message}`));
    const until = Date.now() + START_LIMIT_MS;
    while (!gone && Date.now() < until) {
      if (await answersPing(port)) return { ok: true };
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!gone) {
      child.kill('SIGKILL');
      await exited;
      output += `\n(no PONG within ${START_LIMIT_MS / 1000} s)`;
    }
    return { ok: false, output: output.trim() || 'no output' };
  };

  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const started = await launch();
    if (started.ok) break;
    // Another process may take the free port between our probe and redis-server's bind: try another.
    if (!/address already in use/i.test(started.output) || attempt >= 3) {
      running.delete(entry);
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server (${bin}) did not start on 127.0.0.1:${port}: ${started.output}`);
    }
  }

  const alive = () => entry.child !== null && entry.child.exitCode === null && entry.child.signalCode === null;
  return {
    source: `a private redis-server (${bin})`,
    url: `redis://127.0.0.1:${port}`,
    port,
    canRestart: true,
    kill() {
      if (alive()) entry.child!.kill('SIGKILL');
    },
    async restart() {
      if (alive()) throw new Error('restart() is for after kill(): the test redis-server is still running');
      await exited; // its port is free only once it is gone
      const started = await launch();
      if (!started.ok) throw new Error(`redis-server did not start again on 127.0.0.1:${port}: ${started.output}`);
    },
    async stop() {
      running.delete(entry);
      if (alive()) {
        entry.child!.kill('SIGTERM'); // no persistence: it exits at once
        const timer = setTimeout(() => entry.child?.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a Redis answers PING on 127.0.0.1:port within a second (a raw socket: no client library's retries). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let got = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d: Buffer) => {
      got += d.toString();
      // +PONG once it serves; -LOADING (or any error) while it is not ready yet
      if (got.includes('\r\n')) done(got.startsWith('+PONG'));
    });
  });
}
