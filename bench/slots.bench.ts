// Issue 35, "Capacity": how busy the queue's slots are with the ladder unpaced and the server's --concurrency
// equal to the workers' slots, where a slot's idle time goes between two matches, and how long a worker's
// matches take to be played again after `kill -9` of it. Run on its own (needs redis-server, PostgreSQL and
// the built CLI):  node --import tsx bench/slots.bench.ts
//   SLOTS_BENCH_WINDOW_S   seconds counted (default 60)
//   SLOTS_BENCH_LOCK_MS    the workers' --lock-ms (default 30000, the workers' own default)
//   SLOTS_BENCH_SERVER_CONCURRENCY  the server's --concurrency (default 2, the workers' slots)
//   SLOTS_BENCH_HTTP       1: the tic-tac-toe bot over HTTP keep-alive instead of stdio
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { FEED } from '../src/live/feed.js';
import { startServer } from '../src/server/serve.js';
import type { MatchRow, Store } from '../src/store/index.js';
import { testPostgres } from '../src/store/pg.kit.js';
import { testRedis } from '../test/redis.kit.js';
import { percentile } from './stats.js';

const WINDOW_S = Number(process.env.SLOTS_BENCH_WINDOW_S ?? 60);
const LOCK_MS = Number(process.env.SLOTS_BENCH_LOCK_MS ?? 30_000);
const HTTP = process.env.SLOTS_BENCH_HTTP === '1';
const WORKERS = 2;
/** the server's --concurrency: by default equal to the workers' slots (no backlog) */
const SERVER_CONCURRENCY = Number(process.env.SLOTS_BENCH_SERVER_CONCURRENCY ?? WORKERS);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const spawned = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of spawned) c.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(130));

function startWorker(redis: string, prefix: string, database: string, name: string): Promise<ChildProcess> {
  const args = ['bin/botarena', 'worker', '--queue', redis, '--redis-prefix', prefix, '--database', database, '--concurrency', '1'];
  args.push('--name', name, '--lock-ms', String(LOCK_MS), '--allow-commands', '--allow-private-bots');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  let head = '';
  return new Promise((resolve, reject) => {
    const look = (d: Buffer) => {
      if (head.length < 4000) head += d.toString();
      if (/takes matches from/.test(head)) resolve(child);
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`worker ${name} exited (${code}):\n${head}`)));
  });
}

async function allMatches(store: Store): Promise<MatchRow[]> {
  const out: MatchRow[] = [];
  let cursor: string | null = null;
  do {
    const page = await store.listMatches({ limit: 100, cursor });
    out.push(...page.items);
    cursor = page.next;
  } while (cursor);
  return out;
}

const ms = (s: string | null) => (s ? Date.parse(s) : NaN);
const p = (xs: number[], q: number) => (xs.length ? Math.round(percentile(xs, q)) : NaN);

/** Per worker, between a match's finish and the next match's start on it: (finish → created, created → started). */
function idleParts(ms0: number, ms1: number, matches: MatchRow[]) {
  const byWorker = new Map<string, MatchRow[]>();
  for (const m of matches) if (m.status === 'finished' && m.worker) byWorker.set(m.worker, [...(byWorker.get(m.worker) ?? []), m]);
  let busy = 0;
  const pick: number[] = [];
  const start: number[] = [];
  const gap: number[] = [];
  const play: number[] = [];
  for (const list of byWorker.values()) {
    list.sort((a, b) => ms(a.startedAt) - ms(b.startedAt));
    for (const [i, m] of list.entries()) {
      const s = ms(m.startedAt);
      const f = ms(m.finishedAt);
      busy += Math.max(0, Math.min(f, ms1) - Math.max(s, ms0));
      if (s >= ms0 && f <= ms1) play.push(f - s);
      const next = list[i + 1];
      if (!next || f < ms0 || ms(next.startedAt) > ms1) continue;
      gap.push(ms(next.startedAt) - f);
      pick.push(ms(next.createdAt) - f);
      start.push(ms(next.startedAt) - ms(next.createdAt));
    }
  }
  return { busy, pick, start, gap, play, byWorker };
}

async function main(): Promise<void> {
  const pg = await testPostgres();
  if ('missing' in pg) throw new Error(`no Postgres: ${pg.missing}`);
  const redis = await testRedis();
  if ('missing' in redis) throw new Error(`no Redis: ${redis.missing}`);
  const database = await pg.newDatabase();
  const prefix = `slots${randomBytes(4).toString('hex')}`;
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database,
    allowCommands: true,
    allowPrivateBots: true,
    checkBots: false,
    gateway: false,
    perBotPerHour: 1e9,
    ladderBurst: 1e9,
    limits: { registrations: 1000, matches: 1e6 },
    logLevel: 'warn',
    concurrency: SERVER_CONCURRENCY,
    queueUrl: redis.url,
    redisPrefix: prefix,
  });
  let httpBot: ChildProcess | null = null;
  try {
    const workers = new Map<string, ChildProcess>();
    for (let i = 1; i <= WORKERS; i++) workers.set(`w${i}`, await startWorker(redis.url, prefix, database, `w${i}`));
    let endpoint = 'stdio:node bench/ttt-bot.mjs';
    if (HTTP) {
      httpBot = spawn(process.execPath, ['bench/ttt-bot.mjs', '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
      spawned.add(httpBot);
      const port = await new Promise<number>((resolve) => httpBot!.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim().split('\n')[0]))));
      endpoint = `http://127.0.0.1:${port}/`;
    }
    const res = await fetch(`${server.url}/api/bots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'tictactoe', name: 'ttt', endpoint, capacity: 64 }),
    });
    if (!res.ok) throw new Error(`register: ${res.status} ${await res.text()}`);
    const store = server.arena.store;
    // Where the server's time goes: each store call the ladder makes, timed (the bench wraps the methods of
    // its own server's store; src/ is unchanged), and when each match's `ended` reaches the server on the feed.
    const calls = new Map<string, { n: number; ms: number }>();
    const timed = store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const name of [
      'countMatches',
      'listBots',
      'ratingsFor',
      'recentMatchCounts',
      'activeMatchCounts',
      'createMatch',
      'queueMatch',
      'getMatch',
      'getBot',
    ]) {
      const f = timed[name];
      if (typeof f !== 'function') continue;
      timed[name] = async (...a: unknown[]) => {
        const t = performance.now();
        try {
          return await f.apply(store, a);
        } finally {
          const c = calls.get(name) ?? { n: 0, ms: 0 };
          c.n++;
          c.ms += performance.now() - t;
          calls.set(name, c);
        }
      };
    }
    const endedSeen = new Map<string, number>();
    server.arena.live.subscribe(FEED, 'public', (e) => {
      if (e.type === 'ended') endedSeen.set(e.matchId, Date.now());
    });
    await sleep(5000); // warm-up
    calls.clear();
    const t0 = Date.now();
    await sleep(WINDOW_S * 1000);
    const t1 = Date.now();
    const steady = idleParts(t0, t1, await allMatches(store));
    const slots = WORKERS;
    console.log(`steady: ${HTTP ? 'HTTP' : 'stdio'} tic-tac-toe, ${WORKERS} workers × 1, server --concurrency ${SERVER_CONCURRENCY}, ${WINDOW_S} s`);
    console.log(`  matches played in window: ${steady.play.length}; by worker ${[...steady.byWorker].map(([w, l]) => `${w}:${l.length}`).join(' ')}`);
    console.log(`  slots busy: ${((100 * steady.busy) / (slots * (t1 - t0))).toFixed(1)} %`);
    const line = (name: string, xs: number[]) =>
      console.log(`  ${name}: p50 ${p(xs, 50)} p95 ${p(xs, 95)} mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)} ms (n ${xs.length})`);
    line('match played (startedAt → finishedAt)', steady.play);
    line('idle gap on a worker (finishedAt → next startedAt)', steady.gap);
    line('  of which finishedAt → next match created (the ladder wakes and picks)', steady.pick);
    // finishedAt → the end seen on the feed by the server → the next match created on that worker
    const toFeed: number[] = [];
    const feedToCreated: number[] = [];
    for (const list of steady.byWorker.values())
      for (const [i, m] of list.entries()) {
        const next = list[i + 1];
        const seen = endedSeen.get(m.id);
        if (!next || seen === undefined || ms(m.finishedAt) < t0 || ms(next.startedAt) > t1) continue;
        toFeed.push(seen - ms(m.finishedAt));
        feedToCreated.push(ms(next.createdAt) - seen);
      }
    line('    finishedAt → its `ended` reaches the server (finish transaction, publish, pub/sub)', toFeed);
    line('    `ended` at the server → next match created (the fill)', feedToCreated);
    for (const [name, c] of calls) console.log(`  server store ${name}: ${c.n} calls (${(c.n / WINDOW_S).toFixed(1)}/s), mean ${(c.ms / c.n).toFixed(1)} ms`);
    line('  of which created → startedAt (enqueue, BullMQ hands it over, worker reads and claims)', steady.start);

    // kill -9 a worker that is playing a match
    let victim: MatchRow | undefined;
    for (let i = 0; i < 2000 && !victim; i++) {
      victim = (await store.listMatches({ status: 'running', limit: 10 })).items.find((m) => m.worker === 'w1');
      if (!victim) await sleep(1);
    }
    const killedAt = Date.now();
    workers.get('w1')!.kill('SIGKILL');
    console.log(`kill -9 w1 while it played ${victim?.id ?? '(none found)'} (tries ${victim?.tries}), --lock-ms ${LOCK_MS}`);
    let replayedAt = NaN;
    let doneAt = NaN;
    const deadline = killedAt + LOCK_MS * 3 + 30_000;
    while (victim && Date.now() < deadline) {
      const m = await store.getMatch(victim.id);
      if (m && Number.isNaN(replayedAt) && m.tries > victim.tries) replayedAt = Date.now();
      if (m && (m.status === 'finished' || m.status === 'aborted')) {
        doneAt = ms(m.finishedAt) || Date.now();
        console.log(`  its match: ${m.status} by ${m.worker}, tries ${m.tries}, startedAt − kill ${ms(m.startedAt) - killedAt} ms`);
        break;
      }
      await sleep(50);
    }
    console.log(`  kill → started again (seen by polling): ${replayedAt - killedAt} ms; kill → finished: ${doneAt - killedAt} ms`);
    const after = idleParts(killedAt, Date.now(), await allMatches(store));
    console.log(
      `  from the kill until then: ${after.play.length} matches by w2, slots busy (of 1 live worker) ${((100 * after.busy) / (Date.now() - killedAt)).toFixed(1)} %`,
    );
  } finally {
    httpBot?.kill();
    for (const c of spawned) c.kill('SIGTERM');
    await server.close(5000);
    await redis.stop();
    await pg.stop();
  }
}

await main();
process.exit(0);
