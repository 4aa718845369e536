// The arena server (`botarena serve`): how many ladder matches a minute it plays, and how fast its API answers
// reads with 10 000 matches kept, on SQLite and on Postgres. `npm run bench -- server`.
//   SERVER_BENCH_WINDOW_S   seconds each ladder row is counted over (default 10)
//   SERVER_BENCH_API_S      seconds of load per API row (default 5)
//   SERVER_BENCH_MATCHES    matches stored before the API rows (default 10000)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { newJob } from '../src/arena/match-job.js';
import { runMatch } from '../src/arena/run-match.js';
import { resultLine, type ResultLine } from '../src/core/replay.js';
import { rateFinishedMatch } from '../src/ladder/rating-update.js';
import { startServer, type RunningServer, type ServeOptions } from '../src/server/serve.js';
import { openStore, type BotRow, type SeatResult, type Store } from '../src/store/index.js';
import { testPostgres } from '../src/store/pg.kit.js';

const WINDOW_S = Number(process.env.SERVER_BENCH_WINDOW_S ?? 10);
const API_S = Number(process.env.SERVER_BENCH_API_S ?? 5);
const MATCHES = Number(process.env.SERVER_BENCH_MATCHES ?? 10_000);

// autocannon ships no types; the little of its result read here.
interface CannonResult {
  latency: { p50: number; p99: number };
  requests: { average: number; total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: {
  url: string;
  connections: number;
  duration: number;
  workers?: number;
}) => Promise<CannonResult>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server's log lines, thrown away, but warnings and errors kept (a bench that fails quietly measures nothing). */
class LogSink extends Writable {
  lines = 0;
  readonly problems: string[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    const s = chunk.toString();
    this.lines++;
    if (/"level":[456]0/.test(s) && this.problems.length < 20) this.problems.push(s.slice(0, 400));
    done();
  }
}

/** Busy and total jiffies of all cores (Linux), to tell how full the machine was (other work included). */
function machineCpu(): { busy: number; total: number } | null {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - f[3]! - (f[4] ?? 0), total };
  } catch {
    return null;
  }
}

/**
 * CPU ticks (1/100 s) of the bot processes: the stdio bots this process started and reaped (its children's
 * times, /proc/self/stat) and a long-lived bot process by pid. Linux only (null elsewhere).
 */
function botTicks(pid?: number): number | null {
  const fields = (p: string) => {
    const s = readFileSync(`/proc/${p}/stat`, 'utf8');
    return s
      .slice(s.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number); // [0] is field 3 (state)
  };
  try {
    const self = fields('self');
    const other = pid ? fields(String(pid)) : null;
    return self[13]! + self[14]! + (other ? other[11]! + other[12]! : 0); // cutime + cstime; utime + stime
  } catch {
    return null;
  }
}

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

/** A child process that prints its port on its first line. */
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

interface LadderSetup {
  label: string;
  game: string;
  bots: { name: string; endpoint: string }[];
  concurrency: number;
  ladderConfig?: ServeOptions['ladderConfig'];
  /** a bot process that outlives the matches (the HTTP bot), whose CPU is counted with the bots' */
  botPid?: number;
}

/** One ladder row: a fresh SQLite server, the bots registered over the API, finished matches counted over the window. */
async function ladderRow(s: LadderSetup): Promise<(string | number)[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-server-'));
  const log = new LogSink();
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: join(dir, 'arena.sqlite'),
    allowCommands: true,
    allowPrivateBots: true, // the HTTP bot row's bot listens on 127.0.0.1
    checkBots: false,
    perBotPerHour: 1e9,
    concurrency: s.concurrency,
    ladderConfig: s.ladderConfig,
    logLevel: 'info',
    logStream: log,
  });
  try {
    const store = server.arena.store;
    const ids = new Set<string>();
    for (const b of s.bots) ids.add(((await api(server, 'POST', '/api/bots', { game: s.game, ...b })).bot as { id: string }).id);
    const finished = () => store.countMatches({ game: s.game, status: 'finished' });
    // Warm-up: the ladder's first look is up to 2 s after the registration; then a few matches (JIT, disk cache).
    const until = Date.now() + 20_000;
    while ((await finished()) < 3 * s.concurrency && Date.now() < until) await sleep(50);
    const n0 = await finished();
    const cpu0 = process.cpuUsage();
    const m0 = machineCpu();
    const b0 = botTicks(s.botPid);
    const t0 = performance.now();
    await sleep(WINDOW_S * 1000);
    const n1 = await finished();
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const m1 = machineCpu();
    const b1 = botTicks(s.botPid);
    const aborted = await store.countMatches({ game: s.game, status: 'aborted' });
    // Who sat in the matches: the registered bots and the built-ins the ladder gave them as opponents.
    const { registered, builtin, faults, seen } = await finishedSeats(store, s.game, ids);
    const paused = (await store.listBots({ game: s.game, status: 'paused' })).length;
    if (log.problems.length || paused || faults)
      console.error(
        `[server bench] ${s.label}: ${faults} faults of the registered bots, ${paused} paused; warnings/errors logged:\n${log.problems.join('\n')}`,
      );
    const perMin = (60_000 * (n1 - n0)) / ms;
    return [
      s.label,
      s.concurrency,
      n1 - n0,
      Math.round(perMin),
      ((60_000 / perMin) * s.concurrency).toFixed(1),
      `${(registered / seen).toFixed(1)} + ${(builtin / seen).toFixed(1)}`,
      Math.round((100 * (cpu.user + cpu.system)) / 1000 / ms),
      b0 !== null && b1 !== null ? Math.round((100 * (b1 - b0) * 10) / ms) : '-',
      m0 && m1 ? Math.round((100 * (m1.busy - m0.busy)) / (m1.total - m0.total)) : '-',
      aborted,
    ];
  } finally {
    await server.close(5000);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchServerLadder(): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [
    [
      'ladder (one registered bot unless said; the built-ins fill the other seats)',
      'concurrency',
      'matches',
      'matches/min',
      'ms per match per slot',
      'seats: registered + built-in',
      'arena process CPU % (of a core)',
      'bot processes CPU % (of a core)',
      'machine busy % (all cores, anything running)',
      'aborted',
    ],
  ];
  const stdio = { name: 'ttt-stdio', endpoint: 'stdio:node bench/ttt-bot.mjs' };
  for (const c of [1, 2])
    rows.push(await ladderRow({ label: 'tic-tac-toe, stdio Node bot (`bench/ttt-bot.mjs`)', game: 'tictactoe', bots: [stdio], concurrency: c }));
  const httpBot = spawn(process.execPath, ['bench/ttt-bot.mjs', '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await portOf(httpBot);
    const http = { name: 'ttt-http', endpoint: `http://127.0.0.1:${port}/` };
    for (const c of [1, 2])
      rows.push(
        await ladderRow({
          label: 'tic-tac-toe, HTTP keep-alive Node bot (same bot, `--http`)',
          game: 'tictactoe',
          bots: [http],
          concurrency: c,
          botPid: httpBot.pid,
        }),
      );
  } finally {
    httpBot.kill();
  }
  const tron = [0, 1, 2, 3].map((i) => ({ name: `tron${i}`, endpoint: 'stdio:node bench/tron-bot.mjs 30 30' }));
  for (const c of [1, 2])
    rows.push(
      await ladderRow({
        label: 'Tron 30×30, 4 registered stdio Node bots (`bench/tron-bot.mjs`), 4 seats a match',
        game: 'tron',
        bots: tron,
        concurrency: c,
        ladderConfig: { tron: { width: 30, height: 30 } },
      }),
    );
  return rows;
}

// ——— the API under load ———

/** Real tic-tac-toe replays (random vs random), gzipped once, and their result lines: what a finished match stores. */
async function templates(n: number): Promise<{ result: ResultLine; gz: Buffer }[]> {
  const out: { result: ResultLine; gz: Buffer }[] = [];
  for (let seed = 0; seed < n; seed++) {
    const { replay } = await runMatch({ game: 'tictactoe', seed, seats: [{ bot: 'random' }, { bot: 'random' }] });
    out.push({ result: resultLine(replay), gz: gzipSync(JSON.stringify(replay)) });
  }
  return out;
}

/**
 * Fills a new database with `n` finished, rated tic-tac-toe ladder matches between 20 registered bots through the
 * Store API, as the arena records them (createMatch, startMatch, finishMatch rated by rateFinishedMatch in its
 * transaction), `workers` at once. Returns a registered bot's id and the seconds it took.
 */
async function fill(url: string, n: number, workers: number): Promise<{ botId: string; seconds: number }> {
  let clockMs = Date.now() - 86_400_000; // a second per clock read: the matches spread over the last half day
  const store: Store = await openStore(url, { clock: () => new Date((clockMs += 1000)) });
  try {
    const t0 = performance.now();
    const bots: BotRow[] = [];
    for (let i = 0; i < 20; i++)
      bots.push(
        await store.createBot({
          game: 'tictactoe',
          name: `bench${i}`,
          endpoint: `http://127.0.0.1:9/bench${i}`,
          status: 'active',
          tokenHash: 'scrypt$salt$hash',
          capacity: 2,
        }),
      );
    const tpl = await templates(32);
    let next = 0;
    const one = async (i: number) => {
      const a = bots[i % bots.length]!;
      const b = bots[(i * 7 + 1 + Math.floor(i / bots.length)) % bots.length]!;
      const pair = a.id === b.id ? [a, bots[(i + 1) % bots.length]!] : [a, b];
      const { result: r, gz } = tpl[i % tpl.length]!;
      const seed = (i * 2654435761) >>> 0;
      const job = newJob({
        matchId: crypto.randomUUID(),
        game: 'tictactoe',
        seed,
        config: {},
        seats: pair.map((p) => ({ bot: p.endpoint, name: p.name })),
        timeouts: {},
        transcripts: true,
      });
      const m = await store.createMatch({
        id: job.matchId,
        game: 'tictactoe',
        kind: 'ladder',
        rated: true,
        seed,
        config: {},
        job,
        seats: pair.map((p) => p.id),
      });
      await store.startMatch(m.id);
      const result: ResultLine = { ...r, seed, players: r.players.map((p, slot) => ({ ...p, name: pair[slot]!.name, bot: pair[slot]!.endpoint })) };
      const seats: SeatResult[] = result.players.map((p, slot) => ({
        slot,
        botId: pair[slot]!.id,
        name: p.name,
        rank: p.rank,
        score: p.score,
        fault: p.fault,
      }));
      const ok = await store.finishMatch(m.id, {
        result,
        seats,
        replayGz: gz,
        rate: (kept) =>
          rateFinishedMatch(
            'tictactoe',
            seats.map((s) => ({ botId: s.botId!, rank: s.rank })),
            kept,
          ),
      });
      if (!ok) throw new Error(`match ${m.id} was not recorded`);
    };
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < n) await one(next++);
      }),
    );
    return { botId: bots[3]!.id, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await store.close();
  }
}

const ENDPOINTS = (botId: string, its: number | string): [string, string][] => [
  ['GET /api/leaderboards/tictactoe', '/api/leaderboards/tictactoe'],
  ['GET /api/matches?limit=20', '/api/matches?limit=20'],
  [`GET /api/matches?bot=ID&status=finished (a bot of ${its} matches)`, `/api/matches?bot=${botId}&status=finished`],
  ['GET /api/matches?bot=ID (the same bot, no status)', `/api/matches?bot=${botId}`],
];

/** A server with no ladder on a filled database; each endpoint warmed up (1 s), then under autocannon. */
async function measure(label: string, url: string, botId: string, only?: number): Promise<(string | number)[][]> {
  const log = new LogSink();
  const server = await startServer({ port: 0, host: '127.0.0.1', database: url, ladder: false, logLevel: 'info', logStream: log });
  const rows: (string | number)[][] = [];
  try {
    const endpoints = ENDPOINTS(botId, await server.arena.store.countMatches({ botId }));
    for (const [name, path] of only === undefined ? endpoints : [endpoints[only]!]) {
      const sample = await fetch(server.url + path);
      const bytes = (await sample.arrayBuffer()).byteLength;
      if (sample.status !== 200) throw new Error(`${path}: ${sample.status}`);
      await autocannon({ url: server.url + path, connections: 10, duration: 1, workers: 1 });
      const r = await autocannon({ url: server.url + path, connections: 10, duration: API_S, workers: 1 });
      rows.push([label, name, bytes, Math.round(r.requests.average), r.latency.p50, r.latency.p99, r.errors + r.timeouts + r.non2xx]);
    }
    if (log.problems.length) console.error(`[server bench] ${label}: warnings/errors logged:\n${log.problems.join('\n')}`);
    return rows;
  } finally {
    await server.close(2000);
  }
}

/**
 * The API rows. SQLite as the store leaves it (nothing ever runs ANALYZE there), then the filtered list again
 * after an ANALYZE; Postgres after a VACUUM ANALYZE, the state autovacuum brings the tables to within a minute or
 * so of a burst of writes (right after the fill, without it, the planner has no statistics, and the 40 rating
 * rows have been rewritten 40 000 times, leaving dead versions that index scans wade through).
 */
export async function benchServerApi(): Promise<{ fill: (string | number)[][]; api: (string | number)[][] }> {
  const fillRows: (string | number)[][] = [['database', 'matches stored', 'at once', 'seconds', 'matches/s']];
  const api: (string | number)[][] = [['database', 'request (10 connections, autocannon)', 'response bytes', 'req/s', 'p50 ms', 'p99 ms', 'errors + non-2xx']];
  const dir = mkdtempSync(join(tmpdir(), 'bench-server-api-'));
  try {
    const file = join(dir, 'arena.sqlite');
    const { botId, seconds } = await fill(file, MATCHES, 1);
    fillRows.push(['SQLite', MATCHES, 1, seconds.toFixed(1), Math.round(MATCHES / seconds)]);
    api.push(...(await measure('SQLite', file, botId)));
    const db = new BetterSqlite3(file);
    db.exec('ANALYZE');
    db.close();
    api.push(...(await measure('SQLite after ANALYZE', file, botId, 2)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const tp = await testPostgres();
  if ('missing' in tp) {
    fillRows.push(['Postgres', `no Postgres: ${tp.missing}`, '-', '-', '-']);
    for (const [name] of ENDPOINTS('ID', '≈ 1 000')) api.push(['Postgres', name, `no Postgres: ${tp.missing}`, '-', '-', '-', '-']);
    return { fill: fillRows, api };
  }
  try {
    const url = await tp.newDatabase();
    const { botId, seconds } = await fill(url, MATCHES, 8);
    fillRows.push(['Postgres', MATCHES, 8, seconds.toFixed(1), Math.round(MATCHES / seconds)]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('VACUUM (ANALYZE)');
    await client.end();
    api.push(...(await measure('Postgres, after VACUUM ANALYZE', url, botId)));
  } finally {
    await tp.stop();
  }
  return { fill: fillRows, api };
}

/**
 * Who sat in a game's finished matches: seats of the registered bots (`ids`) and of the built-ins the ladder gave
 * them as opponents, the registered bots' faults, the matches, and the matches by the worker that played them.
 */
export async function finishedSeats(store: Store, game: string, ids: ReadonlySet<string>) {
  let registered = 0;
  let builtin = 0;
  let faults = 0;
  let seen = 0;
  const byWorker = new Map<string, number>();
  let cursor: string | null = null;
  do {
    const page = await store.listMatches({ game, status: 'finished', limit: 100, cursor });
    for (const m of page.items) {
      seen++;
      byWorker.set(m.worker ?? '-', (byWorker.get(m.worker ?? '-') ?? 0) + 1);
      for (const seat of m.seats) {
        if (seat.botId && ids.has(seat.botId)) registered++;
        else builtin++;
        if (seat.fault && seat.botId && ids.has(seat.botId)) faults++;
      }
    }
    cursor = page.next;
  } while (cursor);
  return { registered, builtin, faults, seen, byWorker };
}
