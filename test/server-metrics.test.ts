import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { LocalLiveEvents } from '../src/live/local.js';
import { matchHandler } from '../src/matches/handler.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { openStore } from '../src/store/index.js';
import { testPostgres } from '../src/store/pg.kit.js';
import { startWorker, type RunningWorker } from '../src/worker/start.js';
import { redisMissing, testRedis } from './redis.kit.js';
import { apiClient, until } from './server.kit.js';

// Seeing what happens (issue 35): readiness that says when the store or the queue is away (503 naming it, so a
// load balancer takes the node out), 200 again once it is back; Prometheus text at /metrics on the server and
// on a worker (--metrics-port), whose counters move when real matches are played: a tictactoe finished, a bot
// that crashes counted as a fault of kind "crash". Real Postgres (stopped and started again), real Redis,
// real bot processes.

const quiet = () => (process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() }));
const dir = mkdtempSync(join(tmpdir(), 'botarena-metrics-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A bot that dies as soon as it starts: its seat faults with a crash. */
const CRASHER = `stdio:${process.execPath} -e process.exit(3)`;

/** One sample of a Prometheus page: its name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses Prometheus's text format (0.0.4) strictly: every line a comment (`# HELP`/`# TYPE` of a known type)
 * or a sample `name{label="value",…} number`; fails on anything else.
 */
function parsePrometheus(text: string): Sample[] & { families: Set<string> } {
  const samples = Object.assign([] as Sample[], { families: new Set<string>() });
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
      assert.ok(m, `a comment line of the Prometheus text format: ${line}`);
      if (m[1] === 'TYPE') {
        assert.ok(['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(m[3]!), `a known metric type: ${line}`);
        types.set(m[2]!, m[3]!);
        samples.families.add(m[2]!);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/.exec(line);
    assert.ok(m, `a sample line of the Prometheus text format: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
    let at = 0;
    while (at < body.length) {
      re.lastIndex = at;
      const l = re.exec(body);
      assert.ok(l, `labels of a sample: ${line}`);
      labels[l[1]!] = l[2]!;
      at = re.lastIndex;
    }
    // Go's ParseFloat, as Prometheus reads a value: NaN and Inf in any case (prom-client writes an empty mean as "Nan").
    const value = /^[+-]?inf$/i.test(m[3]!) ? (m[3]!.startsWith('-') ? -Infinity : Infinity) : Number(m[3]);
    assert.ok(/^nan$/i.test(m[3]!) || !Number.isNaN(value), `a number: ${line}`);
    const family = m[1]!.replace(/_(bucket|sum|count|total)$/, '');
    assert.ok(types.has(m[1]!) || types.has(family), `a sample of a metric with a TYPE line: ${line}`);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

/** The page at `url`, parsed; its status must be 200 and its type Prometheus's text. */
async function scrape(url: string, token?: string): Promise<Sample[] & { families: Set<string> }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parsePrometheus(text);
}

/** The value of the sample `name` with these labels (0 when there is none yet: a counter not yet moved). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const s = samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return s?.value ?? 0;
}

/** Plays a match asked for on the API to its end; returns its status. */
async function playMatch(api: ReturnType<typeof apiClient>, seats: string[]): Promise<string> {
  const created = await api('POST', '/api/matches', { game: 'tictactoe', seats, seed: 7 });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body!.id as string;
  return until(
    `match ${id} over`,
    async () => {
      const s = (await api('GET', `/api/matches/${id}`)).body!.status as string;
      return s === 'finished' || s === 'aborted' ? s : null;
    },
    60_000,
  );
}

/** Registers the crashing bot (no doctor's check: it would fail it) and returns its id. */
async function registerCrasher(api: ReturnType<typeof apiClient>): Promise<string> {
  const r = await api('POST', '/api/bots', { game: 'tictactoe', name: 'crasher', endpoint: CRASHER });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return (r.body!.bot as { id: string }).id;
}

/** The families a server's and a worker's page both carry. */
const COMMON = [
  'botarena_matches_started_total',
  'botarena_matches_finished_total',
  'botarena_matches_aborted_total',
  'botarena_match_duration_seconds',
  'botarena_queue_wait_seconds',
  'botarena_bot_faults_total',
  'botarena_slots',
  'botarena_slots_busy',
  'nodejs_eventloop_lag_p99_seconds',
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
];

const pg = await testPostgres();
after(async () => {
  if (!('missing' in pg)) await pg.stop();
});

describe('readiness and metrics of a server on Postgres', () => {
  let server: RunningServer | null = null;
  after(() => server?.close(2000));

  it('/readyz says 503 naming the store while Postgres is stopped, 200 again once it is back; /healthz stays 200', async (t) => {
    if ('missing' in pg) {
      if (process.env.BOTARENA_CI) assert.fail(`Postgres is missing, and CI must run this test: ${pg.missing}`);
      return t.skip(`Postgres is missing: ${pg.missing}`);
    }
    if (!pg.outage) return t.skip(`${pg.source} is not this test's to stop`);
    const database = await pg.newDatabase();
    server = await startServer({ port: 0, host: '127.0.0.1', database, logStream: quiet(), gateway: false, ladder: false, readyTimeoutMs: 1500 });
    const get = async (path: string) => {
      const res = await fetch(server!.url + path);
      return { status: res.status, body: (await res.json()) as { ready?: boolean; reasons?: string[]; ok?: boolean } };
    };
    assert.deepEqual(await get('/readyz'), { status: 200, body: { ready: true } });
    await pg.outage.pause();
    try {
      const down = await get('/readyz');
      assert.equal(down.status, 503, JSON.stringify(down.body));
      assert.equal(down.body.ready, false);
      assert.equal(down.body.reasons!.length, 1, JSON.stringify(down.body));
      assert.match(down.body.reasons![0]!, /^the store \(Postgres postgres:\/\/postgres@127\.0\.0\.1:\d+\/botarena_test_\w+\): \S/);
      // Liveness is another question: the process answers, so nobody restarts it for its database's sake.
      assert.equal((await get('/healthz')).status, 200);
    } finally {
      await pg.outage.resume();
    }
    await until('/readyz 200 again', async () => (await get('/readyz')).status === 200, 20_000);
    assert.deepEqual((await get('/readyz')).body, { ready: true });
  });

  it('/metrics parses as Prometheus text, and a finished tictactoe and a crashing bot move its counters', async (t) => {
    if (!server) return t.skip('the server of the test before did not start');
    const api = apiClient(() => server!.url);
    const before = await scrape(server.url + '/metrics');
    for (const family of [...COMMON, 'botarena_queue_depth', 'botarena_matches_running', 'botarena_live_viewers'])
      assert.ok(before.families.has(family), `${family} on the server's page`);
    assert.equal(valueOf(before, 'botarena_slots'), 2, "the server's --concurrency");

    assert.equal(await playMatch(api, ['random', 'minimax']), 'finished');
    const once = await scrape(server.url + '/metrics');
    const finished = (s: Sample[]) => valueOf(s, 'botarena_matches_finished_total', { game: 'tictactoe' });
    assert.equal(finished(once) - finished(before), 1, 'one tictactoe finished');
    assert.equal(
      valueOf(once, 'botarena_matches_started_total', { game: 'tictactoe' }) - valueOf(before, 'botarena_matches_started_total', { game: 'tictactoe' }),
      1,
    );
    assert.equal(valueOf(once, 'botarena_match_duration_seconds_count', { game: 'tictactoe' }), finished(once), 'each finished match has its duration');
    assert.ok(valueOf(once, 'botarena_queue_wait_seconds_count') >= 1, 'its wait in the queue is measured');
    assert.equal(valueOf(once, 'botarena_slots_busy'), 0, 'no slot busy once it is over');
    assert.equal(valueOf(once, 'botarena_queue_depth'), 0);
  });
});

describe("a worker's match handler while its Postgres is stopped", () => {
  it('logs the first failure as an error, the next ones at debug, and says when matches are recorded again', async (t) => {
    if ('missing' in pg) return t.skip(`Postgres is missing: ${pg.missing}`);
    if (!pg.outage) return t.skip(`${pg.source} is not this test's to stop`);
    const lines: { level: number; msg: string }[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _e, cb) => (lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string }), cb()) });
    const log = pino({ level: 'debug', base: undefined }, sink);
    const store = await openStore(await pg.newDatabase(), { log });
    const live = new LocalLiveEvents();
    // As a worker builds it (src/worker/worker.ts): matches it cannot play go back to the queue.
    const handler = matchHandler({ store, live, log, node: 'worker-t', addressPolicy: 'public-only', maxTries: 3, cancelled: 'retry' });
    try {
      await pg.outage.pause();
      try {
        for (const id of ['m-1', 'm-2', 'm-3']) await assert.rejects(handler(id, new AbortController().signal), /ECONNREFUSED|connect|terminat/i);
      } finally {
        await pg.outage.resume();
      }
      // The queue hands a job over again once the store is back: this one is in no store, and is handed back saying so
      // (never completed: issue 35's one arena), which is the store answering again.
      await until('a match handled with the store back', async () => {
        try {
          await handler('m-4', new AbortController().signal);
          return false;
        } catch (err) {
          return /is not in this process's store/.test((err as Error).message);
        }
      });
    } finally {
      await live.close();
      await store.close();
    }
    const failures = lines.filter((l) => /could not be played or recorded/.test(l.msg));
    assert.ok(failures.length >= 3, JSON.stringify(lines));
    assert.deepEqual(
      failures.map((l) => l.level),
      [50, ...Array(failures.length - 1).fill(20)],
      'the first failure at error level, the others at debug',
    );
    const back = lines.filter((l) => /played and recorded again/.test(l.msg));
    assert.equal(back.length, 1, JSON.stringify(lines));
    assert.equal(back[0]!.level, 30);
    assert.match(back[0]!.msg, new RegExp(`\\(${failures.length} could not be, meanwhile\\)`));
  });
});

// The crashing bot needs commands (stdio:) and no doctor's check; both processes share one SQLite file and a real Redis.
describe('metrics of a worker (--metrics-port) and readiness of a server with a queue', () => {
  let server: RunningServer | null = null;
  let worker: RunningWorker | null = null;
  let redis: Awaited<ReturnType<typeof testRedis>> | null = null;
  after(async () => {
    await worker?.close(2000);
    await server?.close(2000);
    if (redis && !('missing' in redis)) await redis.stop();
  });

  it("counts a worker's matches on its own /metrics (behind its token), and the server's /readyz names the queue's Redis while it is away", async (t) => {
    redis = await testRedis();
    if ('missing' in redis) return redisMissing(redis.missing, t);
    const r = redis;
    const database = join(dir, 'queue.sqlite');
    const prefix = `metrics-${process.pid}`;
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database,
      logStream: quiet(),
      gateway: false,
      ladder: false,
      allowCommands: true,
      checkBots: false,
      queueUrl: r.url,
      redisPrefix: prefix,
      reconcileMs: 1000,
      metrics: { token: 'scrape-secret-123' },
    });
    worker = await startWorker({
      url: r.url,
      prefix,
      database,
      logStream: quiet(),
      allowCommands: true,
      concurrency: 2,
      name: 'metrics-worker',
      metrics: { port: 0, token: 'scrape-secret-123' },
    });
    assert.ok(worker.metricsPort, 'the worker serves its metrics');
    const workerPage = `http://127.0.0.1:${worker.metricsPort}/metrics`;
    const api = apiClient(() => server!.url);

    // The token closes both pages.
    assert.equal((await fetch(server.url + '/metrics')).status, 401);
    assert.equal((await fetch(server.url + '/metrics', { headers: { authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await fetch(workerPage)).status, 401);
    const token = 'scrape-secret-123';

    const before = await scrape(workerPage, token);
    for (const family of COMMON) assert.ok(before.families.has(family), `${family} on the worker's page`);
    assert.equal(valueOf(before, 'botarena_slots'), 2, "the worker's --concurrency");

    assert.equal(await playMatch(api, ['random', 'minimax']), 'finished');
    const crasher = await registerCrasher(api);
    await playMatch(api, [crasher, 'random']);
    const now = await scrape(workerPage, token);
    const delta = (name: string, labels: Record<string, string>) => valueOf(now, name, labels) - valueOf(before, name, labels);
    assert.equal(delta('botarena_matches_finished_total', { game: 'tictactoe' }), 2, 'both matches finished, on the worker');
    assert.equal(delta('botarena_bot_faults_total', { game: 'tictactoe', kind: 'crash' }), 1, 'the crashing bot counted as a crash');
    assert.equal(valueOf(now, 'botarena_slots_busy'), 0);
    // The server played none of them itself: its own counters stay where they were.
    const serverNow = await scrape(server.url + '/metrics', token);
    assert.equal(valueOf(serverNow, 'botarena_matches_finished_total', { game: 'tictactoe' }), 0);
    assert.equal(valueOf(serverNow, 'botarena_queue_depth'), 0);

    // The worker stops before Redis is killed: a BullMQ worker stopped after its Redis came back empty may keep
    // its lock timers (a stalled check, a lock extender) and the test process alive.
    await worker.close(2000);
    worker = null;
    if (!r.canRestart) return;
    const ready = async () => {
      const res = await fetch(server!.url + '/readyz');
      return { status: res.status, body: (await res.json()) as { ready: boolean; reasons?: string[] } };
    };
    assert.equal((await ready()).status, 200);
    r.kill();
    try {
      const down = await until('/readyz 503 with Redis away', async () => {
        const a = await ready();
        return a.status === 503 ? a : null;
      });
      assert.deepEqual(down.body.ready, false);
      assert.equal(down.body.reasons!.length, 1, JSON.stringify(down.body));
      assert.match(down.body.reasons![0]!, new RegExp(`^the queue's Redis \\(redis://127\\.0\\.0\\.1:${r.port}\\): \\S`));
    } finally {
      await r.restart();
    }
    await until('/readyz 200 with Redis back', async () => (await ready()).status === 200, 20_000);
  });
});
