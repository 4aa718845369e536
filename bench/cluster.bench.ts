// Queue mode (issue 19): `botarena worker` processes playing the ladder from BullMQ, against the same ladder
// played in the server's own process, and what the queue adds to one match. `npm run bench -- cluster`.
// Needs redis-server and PostgreSQL on the machine (or BOTARENA_TEST_REDIS_URL / BOTARENA_TEST_DATABASE_URL),
// and the built CLI (`npm run build`): the workers are real `node bin/botarena worker` processes. The ladder
// rows run the server in this process (`startServer`): `botarena serve` has no flag for the ladder's per-game
// config (Tron 30×30), so every row starts it the same way, with a queue or without. The overhead table runs
// it in a child process (dist/'s startServer), so that the client timing it has an event loop of its own.
//   CLUSTER_BENCH_WINDOW_S    seconds each ladder row is counted over (default 20)
//   CLUSTER_BENCH_WARMUP_S    seconds of ladder before the window, at least (default 5)
//   CLUSTER_BENCH_MATCHES     on-demand matches timed per mode in the overhead table (default 100)
//   CLUSTER_BENCH_BACKLOG     with the queue, the server's --concurrency per worker (default 10; see QUEUED_PER_WORKER)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { QUEUE_NAME } from '../src/queue/bullmq.js';
import { startServer, type RunningServer, type ServeOptions } from '../src/server/serve.js';
import { testPostgres, type TestPostgres } from '../src/store/pg.kit.js';
import { testRedis, type TestRedis } from '../test/redis.kit.js';
import { readSse } from '../test/sse.kit.js';
import { finishedSeats } from './server.bench.js';
import { percentile } from './stats.js';

const WINDOW_S = Number(process.env.CLUSTER_BENCH_WINDOW_S ?? 20);
const WARMUP_S = Number(process.env.CLUSTER_BENCH_WARMUP_S ?? 5);
const OVERHEAD_N = Number(process.env.CLUSTER_BENCH_MATCHES ?? 100);
/**
 * With the queue, the ladder keeps `concurrency` matches queued or running across the workers, and looks again
 * every 250 ms (no match ends in the server to wake it): a worker that plays its share faster than that idles
 * until the next look, so the ladder plays at most `concurrency` matches per 250 ms (plus the time the look
 * takes) whatever the workers could do. 2 a worker caps a fast match (HTTP tic-tac-toe, ≈ 15–30 ms) at ≈ 6
 * a second per worker; 10 a worker lets every row here run at what the workers can play (one row shows 2).
 */
const QUEUED_PER_WORKER = Number(process.env.CLUSTER_BENCH_BACKLOG ?? 10);
/** Linux's USER_HZ: /proc CPU times are in 1/100 s. */
const TICK_MS = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ——— processes ———

/** Every process this bench spawned and has not seen exit: killed if the bench dies without its `finally`. */
const spawned = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of spawned) c.kill('SIGKILL');
});
let onSignal = false;
/**
 * Ctrl-C or a kill of the bench: exit through process.exit, so that the 'exit' handlers (these, and the
 * kits' for redis-server and Postgres) stop every process started. Only once the section runs.
 */
function exitOnSignals(): void {
  if (onSignal) return;
  onSignal = true;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => process.exit(130));
}

/** A log line of pino's JSON (a worker's stdout, the server's sink): what this bench reads of it. */
interface LogLine {
  level?: number;
  time?: number;
  msg?: string;
  match?: string;
}

/** Splits a stream of pino lines; keeps warnings and errors (a bench that fails quietly measures nothing). */
class LogReader {
  private rest = '';
  readonly problems: string[] = [];
  /** by match id: when its "match ended" line was logged (after its finish transaction committed), epoch ms */
  readonly ended = new Map<string, number>();
  constructor(private readonly keepEnded: boolean) {}
  feed(chunk: Buffer | string): void {
    const lines = (this.rest + chunk.toString()).split('\n');
    this.rest = lines.pop()!;
    for (const text of lines) {
      if (!text.startsWith('{')) {
        if (text.trim() && this.problems.length < 20) this.problems.push(text.slice(0, 400));
        continue;
      }
      if (/"level":[456]0/.test(text) && this.problems.length < 20) this.problems.push(text.slice(0, 400));
      if (this.keepEnded && text.includes('"match ended"')) {
        const l = JSON.parse(text) as LogLine;
        if (l.match && l.time) this.ended.set(l.match, l.time);
      }
    }
  }
}

/** The in-process server's log stream, read by a LogReader. */
class LogSink extends Writable {
  constructor(readonly reader: LogReader) {
    super();
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.reader.feed(chunk);
    done();
  }
}

/** Where a cluster keeps its state. */
interface Place {
  redis: string;
  prefix: string;
  database: string;
}

/** A `botarena worker` process. */
interface WorkerProcess {
  name: string;
  child: ChildProcess;
  log: LogReader;
  /** SIGTERM (it finishes the match under way), SIGKILL after 15 s; resolves once it has exited */
  stop(): Promise<void>;
}

/**
 * Keeps `child` among the processes the bench kills on its way out while it runs; returns its stop: SIGTERM (a
 * worker finishes its match, a server closes), SIGKILL after 15 s, resolved once it has exited.
 */
function tracked(child: ChildProcess): () => Promise<void> {
  spawned.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => (spawned.delete(child), resolve())));
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
}

/** Starts `node bin/botarena worker` (from the repository root, as `npm run bench` runs); resolves once it takes matches. */
function startWorker(at: Place, name: string, concurrency: number, keepEnded = false): Promise<WorkerProcess> {
  const args = [
    'bin/botarena',
    'worker',
    '--queue',
    at.redis,
    '--redis-prefix',
    at.prefix,
    '--database',
    at.database,
    '--concurrency',
    String(concurrency),
    '--name',
    name,
    '--allow-commands',
    '--allow-private-bots',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = tracked(child);
  const log = new LogReader(keepEnded);
  let head = '';
  const worker: WorkerProcess = {
    name,
    child,
    log,
    stop,
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker ${name} did not start within 20 s:\n${head}`)), 20_000);
    const look = (d: Buffer) => {
      log.feed(d);
      if (head.length < 4000) head += d.toString();
      if (/takes matches from/.test(head)) {
        clearTimeout(timer);
        resolve(worker);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker ${name} exited (${code}) before it took matches:\n${head}`));
    });
  });
}

/** A server in a process of its own (the overhead table: the client timing it must not share its event loop). */
interface ServerProcess {
  url: string;
  log: LogReader;
  stop(): Promise<void>;
}

/**
 * `startServer` of the built code (dist/server/serve.js, what `botarena serve` runs) in a child process:
 * `botarena serve` itself would do, but its POST /api/matches allows 60 a minute and has no flag to change it.
 */
function startServerProcess(o: ServeOptions): Promise<ServerProcess> {
  const code =
    "import { startServer } from './dist/server/serve.js'; const s = await startServer(JSON.parse(process.env.BENCH_SERVE)); process.once('SIGTERM', () => void s.close(5000).then(() => process.exit(0)));";
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BENCH_SERVE: JSON.stringify(o) },
  });
  const stop = tracked(child);
  const log = new LogReader(true);
  let head = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 20 s:\n${head}`)), 20_000);
    const look = (d: Buffer) => {
      log.feed(d);
      if (head.length < 8000) head += d.toString();
      const m = /botarena server at (http:\/\/[\d.:]+)/.exec(head);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          log,
          stop,
        });
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it listened:\n${head}`));
    });
  });
}

/** A child process that prints its port on its first line (the HTTP bot). */
async function portOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(Number(out.trim().split('\n')[0]));
    });
    child.once('exit', (code) => reject(new Error(`the bot exited (${code}) before listening`)));
  });
}

// ——— CPU from /proc (Linux; '-' elsewhere) ———

/** A process's stat fields from field 3 (state) on, and its command name; null once it is gone. */
function procStat(pid: number | string): { comm: string; f: number[] } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return {
      comm: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')),
      f: s
        .slice(s.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number),
    };
  } catch {
    return null;
  }
}

/** The pids whose parent is `ppid` (optionally of one command name). */
function childrenOf(ppid: number, comm?: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  return pids.flatMap((p) => {
    const s = procStat(p);
    return s && s.f[1] === ppid && (!comm || s.comm === comm) ? [Number(p)] : [];
  });
}

/** CPU ticks of a process itself (utime + stime) and of its children it reaped (cutime + cstime). */
function ticksOf(pid: number): { own: number; reaped: number } {
  const s = procStat(pid);
  return s ? { own: s.f[11]! + s.f[12]!, reaped: s.f[13]! + s.f[14]! } : { own: 0, reaped: 0 };
}

/** Busy and total jiffies of all cores, to tell how full the machine was (anything running on it). */
function machineCpu(): { busy: number; total: number } | null {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - f[3]! - (f[4] ?? 0), total };
  } catch {
    return null;
  }
}

/** Where the CPU went at one moment: ticks of each part (the server is this process). */
interface CpuSnapshot {
  server: number;
  workers: number;
  bots: number;
  postgres: number;
  redis: number;
  machine: { busy: number; total: number } | null;
}

/**
 * The parts' CPU so far. Postgres is the private cluster's postmaster (this process's `postgres` child) and
 * its backends alive now; stdio bots are counted when reaped (by this process in-process, by a worker in
 * queue mode); a long-lived bot (the HTTP one) by its pid.
 */
function cpuSnapshot(workers: number[], botPid?: number): CpuSnapshot {
  const self = ticksOf(process.pid);
  const cpu = process.cpuUsage();
  const ws = workers.map(ticksOf);
  const postmasters = childrenOf(process.pid, 'postgres');
  const pgPids = [...postmasters, ...postmasters.flatMap((p) => childrenOf(p))];
  const redis = childrenOf(process.pid, 'redis-server');
  return {
    server: (cpu.user + cpu.system) / 1000 / TICK_MS,
    workers: ws.reduce((a, w) => a + w.own, 0),
    bots: self.reaped + ws.reduce((a, w) => a + w.reaped, 0) + (botPid ? ticksOf(botPid).own : 0),
    postgres: pgPids.reduce((a, p) => a + ticksOf(p).own, 0),
    redis: redis.reduce((a, p) => a + ticksOf(p).own, 0),
    machine: machineCpu(),
  };
}

// ——— the shared parts ———

/** Commands Redis has run and bytes it has read so far (INFO stats). */
async function redisCounters(url: string): Promise<{ commands: number; bytesIn: number }> {
  const r = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await r.connect();
    const info = await r.info('stats');
    const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? NaN);
    return { commands: field('total_commands_processed'), bytesIn: field('total_net_input_bytes') };
  } finally {
    r.disconnect();
  }
}

/**
 * Transactions committed or rolled back in a database so far (pg_stat_database; each statement outside a
 * transaction is one). Approximate: a backend reports its counts within a second while busy, within 10 s idle.
 */
async function pgXacts(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()');
    return Number(r.rows[0]?.n ?? NaN);
  } finally {
    await c.end();
  }
}

/** A private Redis and Postgres for a table, or why there are none. */
async function places(): Promise<{ redis: TestRedis; pg: TestPostgres } | { missing: string }> {
  exitOnSignals();
  const pg = await testPostgres();
  if ('missing' in pg) return { missing: `no Postgres: ${pg.missing}` };
  let redis;
  try {
    redis = await testRedis();
  } catch (err) {
    await pg.stop();
    throw err;
  }
  if ('missing' in redis) {
    await pg.stop();
    return { missing: `no Redis: ${redis.missing}` };
  }
  return { redis, pg };
}

const serverBase = (database: string, sink?: LogSink): ServeOptions => ({
  port: 0,
  host: '127.0.0.1',
  database,
  allowCommands: true,
  allowPrivateBots: true, // the HTTP bots of the rows listen on 127.0.0.1 (the workers get --allow-private-bots too)
  checkBots: false,
  gateway: false,
  perBotPerHour: 1e9,
  ladderBurst: 1e9,
  limits: { registrations: 1000, matches: 1e6 },
  logLevel: 'info',
  logStream: sink,
});

async function api(server: RunningServer, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(server.url + path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// ——— ladder throughput ———

interface LadderSetup {
  label: string;
  game: string;
  bots: { name: string; endpoint: string; capacity: number }[];
  ladderConfig?: ServeOptions['ladderConfig'];
  /** worker processes (each --concurrency 1); 0: the server plays the ladder itself, `slots` at once */
  workers: number;
  slots: number;
  /** with the queue: the server's --concurrency (default QUEUED_PER_WORKER × workers) */
  serverConcurrency?: number;
  /** a bot process that outlives the matches (the HTTP bot), whose CPU is counted with the bots' */
  botPid?: number;
}

const pct = (ticks: number, ms: number) => Math.round((100 * ticks * TICK_MS) / ms);

/**
 * One ladder row on a fresh Postgres database: the server (this process) with the queue and
 * QUEUED_PER_WORKER × workers matches queued or running, or without a queue and `slots` at once; the bots registered over the API;
 * finished matches counted over the window after the warm-up.
 */
async function ladderRow(env: { redis: TestRedis; pg: TestPostgres }, s: LadderSetup): Promise<{ row: (string | number)[]; perMin: number }> {
  const at: Place = { redis: env.redis.url, prefix: `bench${randomBytes(4).toString('hex')}`, database: await env.pg.newDatabase() };
  const reader = new LogReader(false);
  const queued = s.workers > 0;
  const concurrency = queued ? (s.serverConcurrency ?? QUEUED_PER_WORKER * s.workers) : s.slots;
  const server = await startServer({
    ...serverBase(at.database, new LogSink(reader)),
    concurrency,
    ladderConfig: s.ladderConfig,
    ...(queued ? { queueUrl: at.redis, redisPrefix: at.prefix } : {}),
  });
  const workers: WorkerProcess[] = [];
  try {
    // The server migrated the database; the workers open it after.
    workers.push(...(await Promise.all(Array.from({ length: s.workers }, (_, i) => startWorker(at, `w${i + 1}`, 1)))));
    const store = server.arena.store;
    const ids = new Set<string>();
    for (const b of s.bots) ids.add(((await api(server, 'POST', '/api/bots', { game: s.game, ...b })).bot as { id: string }).id);
    const finished = () => store.countMatches({ game: s.game, status: 'finished' });
    // Warm-up: the ladder's first look (up to 2 s in-process, 250 ms with a queue), then a few matches a slot.
    const registered = Date.now();
    while (((await finished()) < 2 * s.slots || Date.now() - registered < WARMUP_S * 1000) && Date.now() - registered < 60_000) await sleep(100);
    const pids = workers.map((w) => w.child.pid!);
    const x0 = await pgXacts(at.database);
    const r0 = await redisCounters(at.redis);
    const n0 = await finished();
    const c0 = cpuSnapshot(pids, s.botPid);
    const t0 = performance.now();
    await sleep(WINDOW_S * 1000);
    const n1 = await finished();
    const c1 = cpuSnapshot(pids, s.botPid);
    const ms = performance.now() - t0;
    const r1 = await redisCounters(at.redis);
    const x1 = await pgXacts(at.database);
    const aborted = await store.countMatches({ game: s.game, status: 'aborted' });
    // Who sat in the matches, and which worker played them (all finished matches, warm-up included).
    const { registered: reg, builtin, faults, seen, byWorker } = await finishedSeats(store, s.game, ids);
    const paused = (await store.listBots({ game: s.game, status: 'paused' })).length;
    const problems = [...reader.problems, ...workers.flatMap((w) => w.log.problems.map((p) => `${w.name}: ${p}`))];
    if (problems.length || paused || faults || aborted)
      console.error(
        `[cluster bench] ${s.label}, ${queued ? `${s.workers} workers` : 'in-process'}: ${aborted} aborted, ${faults} faults of the registered bots, ${paused} paused; warnings/errors logged:\n${problems.join('\n')}`,
      );
    const perMin = (60_000 * (n1 - n0)) / ms;
    const machine = c0.machine && c1.machine ? Math.round((100 * (c1.machine.busy - c0.machine.busy)) / (c1.machine.total - c0.machine.total)) : '-';
    // What the machine did besides this bench's processes (another session's build or tests): the row is disturbed when it is high.
    const ours = c1.server - c0.server + (c1.workers - c0.workers) + (c1.bots - c0.bots) + (c1.postgres - c0.postgres) + (c1.redis - c0.redis);
    const others = c0.machine && c1.machine ? Math.max(0, pct(c1.machine.busy - c0.machine.busy - ours, ms)) : '-';
    return {
      perMin,
      row: [
        s.label,
        queued ? `queue: ${s.workers} worker${s.workers > 1 ? 's' : ''} × 1` : `in-process, ${s.slots} at once`,
        concurrency,
        n1 - n0,
        Math.round(perMin),
        '', // queue ÷ in-process, filled by the caller
        ((60_000 / perMin) * s.slots).toFixed(0),
        `${(reg / seen).toFixed(1)} + ${(builtin / seen).toFixed(1)}`,
        pct(c1.server - c0.server, ms),
        queued ? pct(c1.workers - c0.workers, ms) : '-',
        pct(c1.bots - c0.bots, ms),
        pct(c1.postgres - c0.postgres, ms),
        Math.round((x1 - x0) / (n1 - n0)),
        queued ? pct(c1.redis - c0.redis, ms) : '-',
        queued ? Math.round((r1.commands - r0.commands) / (n1 - n0)) : '-',
        queued ? ((r1.bytesIn - r0.bytesIn) / 1024 / (n1 - n0)).toFixed(1) : '-',
        machine,
        others,
        aborted,
        queued
          ? [...byWorker.entries()]
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([, n]) => n)
              .join('/')
          : '-',
      ],
    };
  } finally {
    // The workers finish the match each holds (SIGTERM); the server stops its ladder. Left-over jobs stay
    // under this row's Redis prefix, which nothing reads again.
    await Promise.all([...workers.map((w) => w.stop()), server.close(5000)]);
  }
}

/**
 * Ladder matches per minute with 1, 2 and 4 worker processes (each `--concurrency 1`, the server keeping
 * QUEUED_PER_WORKER × workers matches queued or running), each row beside the same ladder played in the server's own
 * process with as many matches at once as there are workers. Postgres, a fresh database per row.
 */
export async function benchClusterLadder(): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [
    [
      'ladder (Postgres, fresh database per row)',
      'mode',
      'server concurrency',
      'matches',
      'matches/min',
      'queue ÷ in-process',
      'ms a match per slot',
      'seats: registered + built-in',
      'server process CPU %',
      'worker processes CPU %',
      'bot processes CPU %',
      'Postgres CPU %',
      'Postgres transactions a match (≈)',
      'Redis CPU %',
      'Redis commands a match',
      'KiB into Redis a match',
      'machine busy % (2 cores = 100)',
      "other processes CPU % (not this bench's)",
      'aborted',
      'matches by worker',
    ],
  ];
  const env = await places();
  if ('missing' in env) return [...rows, ['(not run)', env.missing, ...rows[0]!.slice(2).map(() => '-')]];
  const pairs = async (base: Omit<LadderSetup, 'workers' | 'slots'>, counts: number[], extra?: (local: number) => Promise<void>) => {
    for (const n of counts) {
      // The same slot count without and with the queue, one after the other: a slow spell of the shared machine hits both.
      const local = await ladderRow(env, { ...base, workers: 0, slots: n });
      const queued = await ladderRow(env, { ...base, workers: n, slots: n });
      queued.row[5] = (queued.perMin / local.perMin).toFixed(2);
      rows.push(local.row, queued.row);
      if (n === 1) await extra?.(local.perMin);
    }
  };
  try {
    await pairs(
      {
        label: 'tic-tac-toe, stdio Node bot (`bench/ttt-bot.mjs`, capacity 64) vs built-ins',
        game: 'tictactoe',
        bots: [{ name: 'ttt-stdio', endpoint: 'stdio:node bench/ttt-bot.mjs', capacity: 64 }],
      },
      [1, 2, 4],
    );
    const httpBot = spawn(process.execPath, ['bench/ttt-bot.mjs', '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    spawned.add(httpBot);
    httpBot.once('exit', () => spawned.delete(httpBot));
    try {
      const port = await portOf(httpBot);
      const http = {
        label: 'tic-tac-toe, the same bot over HTTP keep-alive (`--http`)',
        game: 'tictactoe',
        bots: [{ name: 'ttt-http', endpoint: `http://127.0.0.1:${port}/`, capacity: 64 }],
        botPid: httpBot.pid,
      };
      await pairs(http, [1, 2], async (local) => {
        // The server's --concurrency at 2 × workers: the ladder's 250 ms look is then the limit, not the worker.
        const capped = await ladderRow(env, { ...http, workers: 1, slots: 1, serverConcurrency: 2 });
        capped.row[5] = (capped.perMin / local).toFixed(2);
        rows.push(capped.row);
      });
    } finally {
      httpBot.kill();
    }
    const tron = [0, 1, 2, 3].map((i) => ({ name: `tron${i}`, endpoint: 'stdio:node bench/tron-bot.mjs 30 30', capacity: 64 }));
    await pairs(
      {
        label: 'Tron 30×30, 4 registered stdio Node bots (`bench/tron-bot.mjs 30 30`)',
        game: 'tron',
        bots: tron,
        ladderConfig: { tron: { width: 30, height: 30 } },
      },
      [1, 2, 4],
    );
  } finally {
    await env.redis.stop();
    await env.pg.stop();
  }
  return rows;
}

// ——— per-match overhead ———

/** Follows the global feed (`GET /api/events`): when each match's `ended` arrived here (performance.now()). */
function followFeed(url: string): { ended: Map<string, number>; wait(id: string, ms: number): Promise<number>; ready: Promise<void>; close(): void } {
  const ended = new Map<string, number>();
  const waiters = new Map<string, (t: number) => void>();
  const stream = readSse(url, (data, at) => {
    const e = data as { type: string; matchId: string };
    if (e.type !== 'ended') return;
    ended.set(e.matchId, at);
    waiters.get(e.matchId)?.(at);
  });
  stream.done.catch((err: unknown) => console.error(`[cluster bench] the feed failed: ${(err as Error).message}`));
  return {
    ended,
    ready: stream.connected,
    wait: (id, ms) =>
      new Promise((resolve, reject) => {
        const got = ended.get(id);
        if (got !== undefined) return resolve(got);
        const timer = setTimeout(() => reject(new Error(`no \`ended\` of match ${id} on the feed within ${ms} ms`)), ms);
        waiters.set(id, (t) => (clearTimeout(timer), waiters.delete(id), resolve(t)));
      }),
    close: stream.close,
  };
}

/** What one mode's matches took, in ms, by measure. */
type Samples = Record<string, number[]>;

const MEASURES: [key: string, label: string][] = [
  ['post', 'POST /api/matches answered (client: the row inserted; with the queue, the BullMQ job added)'],
  ['queued', 'createdAt → startedAt (stored: the wait before the match starts)'],
  ['add', '  of which createdAt → job added (BullMQ `timestamp`: the insert committing, then `Queue.add`)'],
  ['pickup', '  of which job added → active (`processedOn`: BullMQ waking the idle worker, moving the job)'],
  ['claim', '  of which active → startedAt (the worker reading the match and its bots, the claim)'],
  ['played', 'startedAt → finishedAt (stored: the match played, its live events published, result and replay gzipped)'],
  ['commit', 'finishedAt → "match ended" logged (the finish transaction on Postgres, from the player\'s log)'],
  ['complete', '"match ended" logged → job completed (BullMQ `finishedOn`)'],
  ['ended', 'request → `ended` on /api/events (client, SSE; with the queue through Redis pub/sub)'],
  ['seen', '`ended` → the row seen finished (client polling GET /api/matches/ID every ≈ 5 ms)'],
  ['total', 'request → the row seen finished (client)'],
];

/**
 * On-demand matches (`random` vs `random`, unrated) one at a time on a fresh database: with the queue (one
 * idle worker process, --concurrency 1) or played by the server. The server is a process of its own (the
 * built code); this process is only the client. Each match is timed from the client (the request, the
 * feed's `ended`, polling the row), by its stored times, its player's log and its BullMQ job's times.
 */
async function overheadMode(env: { redis: TestRedis; pg: TestPostgres }, queued: boolean): Promise<{ samples: Samples; notFinished: number }> {
  const at: Place = { redis: env.redis.url, prefix: `bench${randomBytes(4).toString('hex')}`, database: await env.pg.newDatabase() };
  // No logStream: the child logs to its stdout, read by startServerProcess.
  const server = await startServerProcess({
    ...serverBase(at.database),
    ladder: false,
    concurrency: 2,
    ...(queued ? { queueUrl: at.redis, redisPrefix: at.prefix } : {}),
  });
  const reader = server.log;
  let worker: WorkerProcess | null = null;
  // The jobs' own times (added, active, completed), read back from BullMQ (completed jobs are kept an hour).
  const bullRedis = queued ? new Redis(at.redis, { maxRetriesPerRequest: null }) : null;
  const jobs = bullRedis ? new Queue(QUEUE_NAME, { connection: bullRedis, prefix: at.prefix }) : null;
  const feed = followFeed(`${server.url}/api/events`);
  const samples: Samples = Object.fromEntries(MEASURES.map(([k]) => [k, []]));
  let notFinished = 0;
  try {
    if (queued) worker = await startWorker(at, 'w1', 1, true);
    const endedLog = (queued ? worker!.log : reader).ended;
    await feed.ready;
    const warm = 10;
    for (let i = 0; i < warm + OVERHEAD_N; i++) {
      await sleep(50); // the worker back in its blocking wait for a job
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game: 'tictactoe', seats: ['random', 'random'] }),
      });
      const t1 = performance.now();
      const id = ((await res.json()) as { id: string }).id;
      if (res.status !== 201) throw new Error(`POST /api/matches: ${res.status}`);
      const t2 = await feed.wait(id, 10_000);
      let row: { status: string; createdAt: string; startedAt: string | null; finishedAt: string | null };
      for (;;) {
        row = (await (await fetch(`${server.url}/api/matches/${id}`)).json()) as typeof row;
        if (row.status !== 'queued' && row.status !== 'running') break;
        await sleep(5); // polling harder would slow the server's finish it waits for
      }
      const t3 = performance.now();
      if (row.status !== 'finished') {
        notFinished++;
        continue;
      }
      let logged = endedLog.get(id);
      for (let w = 0; logged === undefined && w < 100; w++) {
        await sleep(10);
        logged = endedLog.get(id);
      }
      let job = jobs ? await jobs.getJob(id) : undefined;
      for (let w = 0; jobs && !job?.finishedOn && w < 100; w++) {
        await sleep(10);
        job = await jobs.getJob(id);
      }
      if (i < warm) continue;
      const created = Date.parse(row.createdAt);
      const started = Date.parse(row.startedAt!);
      const finished = Date.parse(row.finishedAt!);
      if (job?.processedOn && job.finishedOn) {
        samples.add!.push(job.timestamp - created);
        samples.pickup!.push(job.processedOn - job.timestamp);
        samples.claim!.push(started - job.processedOn);
        if (logged !== undefined) samples.complete!.push(job.finishedOn - logged);
      }
      samples.post!.push(t1 - t0);
      samples.queued!.push(started - created);
      samples.played!.push(finished - started);
      if (logged !== undefined) samples.commit!.push(logged - finished);
      samples.ended!.push(t2 - t0);
      samples.seen!.push(t3 - t2);
      samples.total!.push(t3 - t0);
    }
    const problems = [...reader.problems, ...(worker?.log.problems ?? [])];
    if (problems.length || notFinished)
      console.error(
        `[cluster bench] overhead ${queued ? 'with the queue' : 'in-process'}: ${notFinished} not finished; warnings/errors logged:\n${problems.join('\n')}`,
      );
    return { samples, notFinished };
  } finally {
    feed.close();
    await jobs?.close();
    await bullRedis?.quit();
    await Promise.all([worker?.stop(), server.stop()]);
  }
}

/** Per-match overhead of the queue against the server playing the match itself: p50 and p95 of each step. */
export async function benchQueueOverhead(): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [
    [
      'tic-tac-toe `random` vs `random`, on demand, one at a time (ms)',
      'in-process p50',
      'in-process p95',
      'queue p50',
      'queue p95',
      'queue − in-process (p50)',
    ],
  ];
  const env = await places();
  if ('missing' in env) return [...rows, [env.missing, '-', '-', '-', '-', '-']];
  try {
    const local = await overheadMode(env, false);
    const queued = await overheadMode(env, true);
    const f = (v: number) => (v >= 10 ? v.toFixed(0) : v.toFixed(1));
    for (const [key, label] of MEASURES) {
      const a = local.samples[key]!;
      const b = queued.samples[key]!;
      const p = (v: number[], q: number) => (v.length ? f(percentile(v, q)) : '-');
      rows.push([label, p(a, 50), p(a, 95), p(b, 50), p(b, 95), a.length && b.length ? f(percentile(b, 50) - percentile(a, 50)) : '-']);
    }
    rows.push([
      `matches timed (after 10 of warm-up); not finished`,
      `${local.samples.total!.length}; ${local.notFinished}`,
      '',
      `${queued.samples.total!.length}; ${queued.notFinished}`,
      '',
      '',
    ]);
  } finally {
    await env.redis.stop();
    await env.pg.stop();
  }
  return rows;
}
