import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore, type MatchRow, type Store } from '../src/store/index.js';
import { testPostgres, type TestPostgres } from '../src/store/pg.kit.js';
import { CLUSTER_ADMIN, killAll, startQueueServer, startWorkerProcess, type ClusterPlace, type ClusterProcess } from './cluster.kit.js';
import { testRedis, type TestRedis } from './redis.kit.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// A rolling deploy of the workers under a running ladder (issue 35): a server with the ladder unpaced, two
// workers, and each worker restarted in turn (SIGTERM, wait for it to exit, start its successor) eight times
// while the ladder plays, as an operator deploys a new version. The bots are real Python programs
// (test/fixtures/tournament/ttt-pace.py; built-in bots are their opponents now and then): two that take 2 s a
// move, whose match against each other (asked for at the start) lasts ~14 s, longer than a worker lives here,
// so it is handed back at each restart until the deploy is over; one that takes 0.3 s a move; two that answer
// at once.
// Asserted: no match aborted; each finished match was started once plus once per hand-back (its tries and the
// workers' logs agree) and never after it finished; one ELO change per bot and finished rated match; a
// draining worker starts no match; every worker exits 0 within its grace (and the few seconds a hand-back takes).
// Before the fix a handed-back match used up one of its tries each time (and one of BullMQ's attempts): the
// long match and others were aborted ("it was started 2 times and no worker finished it"; with the default
// --max-tries 3 too, three of them in a run of six restarts).

const pg = await testPostgres();
const redis = await testRedis();
const missing = 'missing' in pg ? `Postgres: ${pg.missing}` : 'missing' in redis ? `Redis: ${redis.missing}` : null;

const pace = (seconds: number) => `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} ${seconds}`;
/** How long the matches under way get when a worker stops (its --grace-ms). */
const GRACE_MS = 1500;
/** What a stop may take beyond the grace: cancelling the matches left, handing them back, closing (5 s at most). */
const HAND_BACK_MS = 5000;
const RESTARTS = 8;
/** A match started this often without finishing is aborted (server and workers); hand-backs do not count. */
const MAX_TRIES = 2;

/** One line of a worker's log (pino, JSON on stdout). */
interface LogLine {
  time: number;
  msg: string;
  match?: string;
  [key: string]: unknown;
}

/** The JSON lines of a worker's output. */
function logLines(out: string): LogLine[] {
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as LogLine];
      } catch {
        return [];
      }
    });
}

/** SIGTERM, then its exit code and signal and how long it took (60 s at most). */
async function terminate(p: ClusterProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const t0 = performance.now();
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) resolve([p.child.exitCode, p.child.signalCode]);
    else p.child.once('exit', (code, signal) => resolve([code, signal]));
  });
  p.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still running 60 s after SIGTERM:\n${p.log()}`)), 60_000)));
  try {
    const [code, signal] = await Promise.race([exited, limit]);
    return { code, signal, ms: performance.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
}

/** Every match of the database in this status (all pages). */
async function allMatches(store: Store, status: MatchRow['status']): Promise<MatchRow[]> {
  const out: MatchRow[] = [];
  let cursor: string | null = null;
  do {
    const page = await store.listMatches({ status, limit: 100, cursor });
    out.push(...page.items);
    cursor = page.next;
  } while (cursor);
  return out;
}

describe('a rolling deploy of the workers under a running ladder', () => {
  if (missing) {
    it('runs on a real Postgres and Redis', (t) => {
      if (process.env.BOTARENA_CI) assert.fail(`CI must run the queue tests: ${missing}`);
      t.skip(missing);
    });
    return;
  }
  const db = pg as TestPostgres;
  const rd = redis as TestRedis;
  after(async () => {
    killAll();
    await rd.stop();
    await db.stop();
  });

  it('restarting two workers one at a time, eight times: nothing aborted, nothing replayed after it finished, rated once, every worker exits 0 within its grace', async () => {
    const at: ClusterPlace = { database: await db.newDatabase(), redis: rd.url, prefix: `t${randomBytes(4).toString('hex')}` };
    const store = await openStore(at.database);
    try {
      for (const [name, seconds] of [
        ['slow-a', 2],
        ['slow-b', 2],
        ['steady', 0.3],
        ['quick-a', 0.01],
        ['quick-b', 0.01],
      ] as const)
        await store.createBot({ game: 'tictactoe', name, endpoint: pace(seconds), status: 'active', capacity: 2 });
    } finally {
      await store.close();
    }
    const server = await startQueueServer(at, [
      '--concurrency',
      '4',
      '--ladder-burst',
      '1000',
      '--per-bot-per-hour',
      '100000',
      '--max-tries',
      String(MAX_TRIES),
    ]);
    const flags = ['--concurrency', '2', '--grace-ms', String(GRACE_MS), '--max-tries', String(MAX_TRIES)];
    const workers = [await startWorkerProcess(at, 'w1.0', flags), await startWorkerProcess(at, 'w2.0', flags)];
    const all: ClusterProcess[] = [...workers];
    // The long match, asked for at once (the ladder pairs the slow bots too, at its own pace).
    const asked = await apiClient(() => server.url)('POST', '/api/matches', { game: 'tictactoe', seats: ['slow-a', 'slow-b'], rated: true }, CLUSTER_ADMIN);
    assert.equal(asked.status, 201, JSON.stringify(asked.body));
    const long = asked.body!.id as string;
    const stops: { name: string; code: number | null; signal: NodeJS.Signals | null; ms: number }[] = [];
    try {
      for (let round = 1; round <= RESTARTS; round++) {
        await new Promise((r) => setTimeout(r, 2500));
        const slot = round % 2;
        const leaving = workers[slot]!;
        stops.push({ name: `w${slot + 1}.${round - 1}`, ...(await terminate(leaving)) });
        workers[slot] = await startWorkerProcess(at, `w${slot + 1}.${round}`, flags);
        all.push(workers[slot]!);
      }
      await new Promise((r) => setTimeout(r, 1000));
      // The ladder stops (the server with it); the workers finish what is left, then stop too.
      await server.stop();
      const quiet = await openStore(at.database);
      try {
        await until(
          'every match to end',
          async () => (await quiet.countMatches({ status: 'queued' })) + (await quiet.countMatches({ status: 'running' })) === 0,
          60_000,
        ).catch(async (err: Error) => {
          const left = [...(await allMatches(quiet, 'running')), ...(await allMatches(quiet, 'queued'))];
          throw new Error(`${err.message}; under way: ${left.map((m) => `${m.id} ${m.status} ${m.worker} tries ${m.tries}`).join('; ')}`);
        });
      } finally {
        await quiet.close();
      }
      for (const [slot, w] of workers.entries()) stops.push({ name: `w${slot + 1}.last`, ...(await terminate(w)) });
    } finally {
      killAll();
    }

    const logs = all.map((w) => logLines(w.log()));
    const lines = logs.flat();
    const store2 = await openStore(at.database);
    try {
      const aborted = await allMatches(store2, 'aborted');
      assert.deepEqual(
        aborted.map((m) => `${m.id}: ${m.abortReason}`),
        [],
        'no match aborted',
      );
      const finished = await allMatches(store2, 'finished');
      const handedBack = lines.filter((l) => l.msg.startsWith('match handed back to the queue:'));
      assert.ok(handedBack.length >= 2, `matches were handed back (${handedBack.length}): the test stops workers mid-match`);
      assert.ok(finished.length >= 10, `the ladder played (${finished.length} matches finished)`);

      // Each finished match: started once plus once per hand-back (its tries in the store and the workers' logs
      // agree), never started after it finished.
      const starts = new Map<string, LogLine[]>();
      for (const l of lines) if (l.match && l.msg.startsWith('match started')) starts.set(l.match, [...(starts.get(l.match) ?? []), l]);
      const backs = new Map<string, number>();
      for (const l of handedBack) backs.set(l.match!, (backs.get(l.match!) ?? 0) + 1);
      for (const m of finished) {
        const s = starts.get(m.id) ?? [];
        assert.equal(m.tries, s.length, `match ${m.id}: its tries are the starts the workers logged`);
        assert.equal(s.length, 1 + (backs.get(m.id) ?? 0), `match ${m.id}: started once, then once per hand-back (${backs.get(m.id) ?? 0})`);
        const late = s.filter((l) => l.time > Date.parse(m.finishedAt!));
        assert.deepEqual(late, [], `match ${m.id} was started again after it finished at ${m.finishedAt}`);
      }
      for (const id of backs.keys())
        assert.ok(
          finished.some((m) => m.id === id),
          `the handed-back match ${id} finished`,
        );
      assert.ok(
        (backs.get(long) ?? 0) >= MAX_TRIES,
        `the long match was handed back ${backs.get(long) ?? 0} times: at least as often as its ${MAX_TRIES} tries`,
      );

      // Rated once: one ELO change per bot and finished rated match it played.
      const bots = await store2.listBots({ game: 'tictactoe', limit: 100 });
      for (const bot of bots) {
        const rated = finished.filter((m) => m.rated && m.seats.some((s) => s.botId === bot.id)).map((m) => m.id);
        const history = (await store2.ratingHistory(bot.id, 'elo', 10_000)).map((h) => h.matchId);
        assert.deepEqual(history.sort(), rated.sort(), `${bot.name}: one ELO change per finished rated match`);
      }
    } finally {
      await store2.close();
    }

    // A draining worker starts no match after its stop began.
    for (const [i, log] of logs.entries()) {
      const stopping = log.findIndex((l) => l.msg.startsWith('stopping: no new match is taken'));
      if (stopping < 0) continue;
      const late = log.slice(stopping).filter((l) => l.msg.startsWith('match started'));
      assert.deepEqual(late, [], `worker ${i} started a match while it drained`);
    }
    for (const s of stops) {
      assert.deepEqual([s.code, s.signal], [0, null], `${s.name} exits 0 after its grace, not killed by the signal`);
      assert.ok(s.ms < GRACE_MS + HAND_BACK_MS, `${s.name} took ${s.ms.toFixed(0)} ms to stop (grace ${GRACE_MS} ms)`);
    }
  });
});
