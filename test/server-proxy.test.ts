import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { redisMissing, testRedis, type TestRedis } from './redis.kit.js';
import { ROOT } from './run-cli.js';
import { until } from './server.kit.js';

// The per-address limits behind a reverse proxy, on `botarena serve` processes from the built CLI (run
// `npm run build` first): the request limits' options change the 429 point; X-Forwarded-For is believed only
// from a --trust-proxy address, and then every per-address cap (request limits, event streams) counts the
// client it names; with --queue the request limits are counted in Redis, one bucket for every web node.
// The test plays the proxy itself: its requests come from 127.0.0.1 and carry the header a proxy would add.

const dir = mkdtempSync(join(tmpdir(), 'botarena-proxy-'));
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});
after(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A started `botarena serve`: its URL, its output so far, how to stop it. */
interface Server {
  url: string;
  log(): string;
  stop(): Promise<void>;
}

/** `botarena serve ARGS` on a free port, with no ladder and no gateway; resolves once it listens. */
function serve(args: string[]): Promise<Server> {
  const child = spawn(process.execPath, ['bin/botarena', 'serve', '--port', '0', '--no-gateway', '--no-ladder', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => (children.delete(child), resolve())));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 20 s:\n${out}`)), 20_000);
    const look = (d: Buffer) => {
      out += d;
      const m = /botarena server at (http:\/\/[\d.:]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          log: () => out,
          stop: async () => {
            child.kill('SIGKILL');
            await exited;
          },
        });
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before it listened:\n${out}`));
    });
  });
}

type Answer = { status: number; retryAfter: string | null; message: string };

/** A POST with an empty JSON object (a 400 once past the limit's check: cheap), from 127.0.0.1, with `forwarded` as its X-Forwarded-For. */
async function post(base: string, path: string, forwarded?: string): Promise<Answer> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(forwarded ? { 'x-forwarded-for': forwarded } : {}) },
    body: '{}',
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { error?: { message: string } };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), message: body.error?.message ?? '' };
}

/** Opens the global event stream with `forwarded` as X-Forwarded-For: its status, and how to close it. */
async function openStream(base: string, forwarded: string): Promise<{ status: number; close(): void }> {
  const ac = new AbortController();
  const res = await fetch(`${base}/api/events`, { headers: { 'x-forwarded-for': forwarded }, signal: ac.signal });
  if (res.status !== 200) await res.text();
  return { status: res.status, close: () => ac.abort() };
}

/** The statuses of `n` match requests, one after the other. */
async function statuses(base: string, n: number, forwarded?: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await post(base, '/api/matches', forwarded)).status);
  return out;
}

describe('request limits and a trusted proxy', () => {
  it('without --trust-proxy a forged X-Forwarded-For changes nothing, and the limit options set the 429 point', async () => {
    const s = await serve([
      '--database',
      join(dir, 'plain.sqlite'),
      '--match-requests-per-minute',
      '3',
      '--registrations-per-minute',
      '2',
      '--max-streams-per-address',
      '1',
    ]);
    try {
      // Each request claims another client: they all count as 127.0.0.1's, the connection's.
      assert.deepEqual(
        [
          (await post(s.url, '/api/matches', '203.0.113.1')).status,
          (await post(s.url, '/api/matches', '203.0.113.2')).status,
          (await post(s.url, '/api/matches', '203.0.113.3')).status,
        ],
        [400, 400, 400],
      );
      const over = await post(s.url, '/api/matches', '203.0.113.4');
      assert.equal(over.status, 429, over.message);
      assert.ok(Number(over.retryAfter) > 0 && Number(over.retryAfter) <= 60, `retry-after ${over.retryAfter}`);
      assert.match(over.message, /this client address \(127\.0\.0\.1\) sent more than 3 requests to POST \/api\/matches within a minute/);
      assert.match(over.message, /--match-requests-per-minute 3\); retry in \d+ seconds?$/);
      // Registrations have their own limit and option.
      assert.deepEqual([(await post(s.url, '/api/bots', '198.51.100.1')).status, (await post(s.url, '/api/bots', '198.51.100.2')).status], [400, 400]);
      const reg = await post(s.url, '/api/bots', '198.51.100.3');
      assert.equal(reg.status, 429, reg.message);
      assert.match(reg.message, /--registrations-per-minute 2/);
      // Event streams per address: a second one is refused whatever the header says.
      const first = await openStream(s.url, '203.0.113.1');
      assert.equal(first.status, 200);
      const second = await openStream(s.url, '203.0.113.2');
      assert.equal(second.status, 429);
      first.close();
    } finally {
      await s.stop();
    }
  });

  it('--trust-proxy 127.0.0.1: each forwarded client has its own bucket and its own streams; a header from another address is ignored', async () => {
    const s = await serve([
      '--database',
      join(dir, 'proxied.sqlite'),
      '--match-requests-per-minute',
      '3',
      '--max-streams-per-address',
      '1',
      '--trust-proxy',
      '127.0.0.1',
    ]);
    try {
      assert.deepEqual(await statuses(s.url, 3, '203.0.113.1'), [400, 400, 400]);
      const over = await post(s.url, '/api/matches', '203.0.113.1');
      assert.equal(over.status, 429, over.message);
      assert.match(over.message, /this client address \(203\.0\.113\.1\)/);
      // Another client behind the proxy, and the proxy's own address, are not held up by the first.
      assert.deepEqual(await statuses(s.url, 3, '203.0.113.2'), [400, 400, 400]);
      assert.deepEqual(await statuses(s.url, 3), [400, 400, 400]);
      // A client that forges the header itself gets the proxy's entry appended: the nearest untrusted address counts.
      assert.equal((await post(s.url, '/api/matches', '10.9.9.9, 203.0.113.1')).status, 429);
      // Event streams are counted per forwarded client too.
      const a = await openStream(s.url, '203.0.113.1');
      const b = await openStream(s.url, '203.0.113.2');
      assert.deepEqual([a.status, b.status], [200, 200]);
      const again = await openStream(s.url, '203.0.113.1');
      assert.equal(again.status, 429);
      a.close();
      b.close();
    } finally {
      await s.stop();
    }
    // Trusting another address than the connection's: the header is ignored.
    const other = await serve(['--database', join(dir, 'other.sqlite'), '--match-requests-per-minute', '2', '--trust-proxy', '10.0.0.0/8,::1']);
    try {
      assert.deepEqual(
        [(await post(other.url, '/api/matches', '203.0.113.1')).status, (await post(other.url, '/api/matches', '203.0.113.2')).status],
        [400, 400],
      );
      const over = await post(other.url, '/api/matches', '203.0.113.3');
      assert.equal(over.status, 429);
      assert.match(over.message, /\(127\.0\.0\.1\)/);
    } finally {
      await other.stop();
    }
  });
});

const redis = await testRedis();

describe('request limits shared through Redis', () => {
  if ('missing' in redis) {
    it('runs on a real Redis', (t) => redisMissing(redis.missing, t));
    return;
  }
  const rd = redis as TestRedis;
  after(() => rd.stop());

  it('two server processes on one Redis share one bucket; another prefix counts apart; while Redis is away each counts alone, and nothing waits', async () => {
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const db = join(dir, 'queue.sqlite');
    const args = ['--database', db, '--queue', rd.url, '--redis-prefix', prefix, '--match-requests-per-minute', '4'];
    const a = await serve(args);
    const b = await serve(args);
    const c = await serve([
      '--database',
      join(dir, 'queue-other.sqlite'),
      '--queue',
      rd.url,
      '--redis-prefix',
      `${prefix}x`,
      '--match-requests-per-minute',
      '4',
    ]);
    try {
      assert.deepEqual(
        [
          (await post(a.url, '/api/matches')).status,
          (await post(b.url, '/api/matches')).status,
          (await post(a.url, '/api/matches')).status,
          (await post(b.url, '/api/matches')).status,
        ],
        [400, 400, 400, 400],
      );
      const over = await post(b.url, '/api/matches');
      assert.equal(over.status, 429, over.message);
      assert.equal((await post(a.url, '/api/matches')).status, 429);
      // Another arena's prefix on the same Redis is another bucket.
      assert.deepEqual(await statuses(c.url, 4), [400, 400, 400, 400]);

      // Redis gone: every request is still answered at once, each process counting its own.
      rd.kill();
      const t0 = Date.now();
      assert.deepEqual(await statuses(a.url, 4), [400, 400, 400, 400]);
      assert.equal((await post(a.url, '/api/matches')).status, 429);
      assert.deepEqual(await statuses(b.url, 4), [400, 400, 400, 400]);
      assert.ok(Date.now() - t0 < 8000, `requests took ${Date.now() - t0} ms while Redis was away`);
      assert.match(a.log(), /request limits are counted in this process while Redis does not answer/);

      // Back (empty): shared again.
      await rd.restart();
      await until('server a counting in Redis again', async () => {
        await post(a.url, '/api/matches');
        return /request limits are counted in Redis again/.test(a.log());
      });
    } finally {
      await Promise.all([a.stop(), b.stop(), c.stop()]);
    }
  });
});
