import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { BullMatchQueue } from '../src/queue/bullmq.js';
import { testPostgres, type TestPostgres } from '../src/store/pg.kit.js';
import { CLUSTER_ADMIN, killAll, startQueueServer, startWorkerProcess, type ClusterPlace } from './cluster.kit.js';
import { testRedis, type TestRedis } from './redis.kit.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// Issue 35, fencing and one arena identity, with real parts: `botarena serve --queue` and `botarena worker`
// processes on a private Postgres and a redis-server of the test's own. Each start of a match is an attempt
// (its tries); a superseded attempt's result is refused, no second attempt starts while the first one's
// heartbeat lives (not even after Redis came back empty), and a worker on another arena's store takes no job.

const pg = await testPostgres();
const redis = await testRedis();
const missing = 'missing' in pg ? `Postgres: ${pg.missing}` : 'missing' in redis ? `Redis: ${redis.missing}` : null;

type Match = { id: string; status: string; worker: string | null; tries: number; abortReason: string | null; seats: { rank: number | null }[] };

const pace = (seconds: number) => `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} ${seconds}`;

if (missing) {
  describe('fencing and one arena (queue mode)', () => {
    it('runs on a real Postgres and Redis', (t) => {
      if (process.env.BOTARENA_CI) assert.fail(`CI must run the queue tests: ${missing}`);
      t.skip(missing);
    });
  });
} else {
  const db = pg as TestPostgres;
  const rd = redis as TestRedis;
  const dir = mkdtempSync(join(tmpdir(), 'botarena-fencing-'));
  after(async () => {
    killAll();
    rmSync(dir, { recursive: true, force: true });
    await rd.stop();
    await db.stop();
  });

  const place = async (): Promise<ClusterPlace> => ({ database: await db.newDatabase(), redis: rd.url, prefix: `t${randomBytes(4).toString('hex')}` });

  /** A server with two slow bots registered (active); its API as the admin. */
  const arena = async (at: ClusterPlace, seconds: number) => {
    const server = await startQueueServer(at, ['--no-ladder']);
    const api = apiClient(() => server.url);
    const ids: string[] = [];
    for (const name of ['slow-a', 'slow-b']) {
      const bot = await api('POST', '/api/bots', { game: 'tictactoe', name, endpoint: pace(seconds) });
      assert.equal(bot.status, 201, JSON.stringify(bot.body));
      const id = (bot.body!.bot as { id: string }).id;
      await until(`${name} to pass its check`, async () => (await api('GET', `/api/bots/${id}`)).body!.status === 'active', 30_000);
      ids.push(id);
    }
    const match = async (id: string) => (await api('GET', `/api/matches/${id}`)).body as unknown as Match;
    const create = async () => {
      const created = await api('POST', '/api/matches', { game: 'tictactoe', seats: ids, rated: true, seed: 3 }, CLUSTER_ADMIN);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body!.id as string;
    };
    const finished = (id: string, ms = 60_000) =>
      until(
        `match ${id} to finish`,
        async () => {
          const m = await match(id);
          return m.status === 'finished' ? m : m.status === 'aborted' ? assert.fail(`aborted: ${m.abortReason}`) : null;
        },
        ms,
      );
    const ratedFor = async (matchId: string) =>
      ((await api('GET', `/api/bots/${ids[0]}/ratings`)).body as unknown as { elo: { matchId: string }[] }).elo.filter((h) => h.matchId === matchId).length;
    return { server, api, ids, match, create, finished, ratedFor };
  };

  describe('fencing and one arena (queue mode)', () => {
    it('starts no second attempt while the first one plays, even after Redis came back empty (FLUSHALL)', async () => {
      const at = await place();
      const a = await arena(at, 0.6);
      const w1 = await startWorkerProcess(at, 'w1');
      const id = await a.create();
      await until('w1 to start it', async () => {
        const m = await a.match(id);
        return m.status === 'running' && m.worker === 'w1';
      });
      const w2 = await startWorkerProcess(at, 'w2'); // idle: it would take a job enqueued again
      // Redis comes back empty (what a Redis restart without its data does): the job of the match w1 plays is gone.
      const client = new Redis(rd.url);
      try {
        await client.flushall();
      } finally {
        client.disconnect();
      }
      const done = await a.finished(id);
      assert.equal(done.tries, 1, `one attempt (the server's reconciler, every second, found its job gone while w1 played it):\n${w2.log()}`);
      assert.equal(done.worker, 'w1');
      assert.doesNotMatch(w2.log(), new RegExp(`"match":"${id}"[^\\n]*match started`), 'w2 never started it');
      assert.equal(await a.ratedFor(id), 1, 'rated once');
      await a.server.stop();
      await w1.stop();
      await w2.stop();
    });

    it("refuses a superseded attempt's result: a worker frozen mid-match (SIGSTOP) comes back to find another attempt holds it", async () => {
      const at = await place();
      const a = await arena(at, 0.7);
      const w1 = await startWorkerProcess(at, 'w1');
      const id = await a.create();
      await until('w1 to start it', async () => {
        const m = await a.match(id);
        return m.status === 'running' && m.worker === 'w1';
      });
      await new Promise((r) => setTimeout(r, 800)); // a move or two
      w1.child.kill('SIGSTOP'); // a pause (GC, a cut network): its heartbeat and its lock in Redis run out (2 s)
      let resumed = false;
      try {
        const w2 = await startWorkerProcess(at, 'w2');
        await until('w2 to take it over (attempt 2)', async () => {
          const m = await a.match(id);
          return m.tries === 2 && m.worker === 'w2';
        });
        w1.child.kill('SIGCONT');
        resumed = true;
        const done = await a.finished(id);
        assert.equal(done.tries, 2);
        assert.equal(done.worker, 'w2');
        // w1 learns it lost the match: its heartbeat is refused (it stops), or its result is.
        await until(
          'w1 to be told attempt 2 holds it',
          async () => new RegExp(`match ${id}: attempt 1's (heartbeat|result) refused, attempt 2 (\\(w2\\) )?(holds|recorded) it`).test(w1.log()),
          30_000,
        ).catch(() => assert.fail(`w1 was not told:\n${w1.log()}`));
        assert.doesNotMatch(w1.log(), new RegExp(`"match":"${id}"[^\\n]*"stored":true`), "w1's result was not stored");
        assert.match(w2.log(), new RegExp(`"match":"${id}"[^\\n]*"stored":true`), "w2's result was stored");
        assert.equal(await a.ratedFor(id), 1, 'rated once, by the live attempt');
        await w2.stop();
      } finally {
        if (!resumed) w1.child.kill('SIGCONT');
      }
      await a.server.stop();
      await w1.stop();
    });

    it("a worker on another arena's store stops at start, saying so, and completes no job", async () => {
      const at = await place();
      const a = await arena(at, 0.05);
      const id = await a.create(); // waits in the queue: no worker yet
      const other = { ...at, database: join(dir, 'other.sqlite') }; // what a worker without DATABASE_URL opens
      const err = await startWorkerProcess(other, 'stray').then(
        (w) => (void w.kill(), null),
        (e: Error) => e,
      );
      assert.ok(err, 'the stray worker did not start');
      assert.match(err.message, /exited \(2\) before it was ready/);
      assert.match(
        err.message,
        new RegExp(
          `this worker's store \\(SQLite ${other.database.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\) is arena [0-9a-f-]{36}, the queue redis://127\\.0\\.0\\.1:\\d+ \\(prefix ${at.prefix}\\) belongs to arena [0-9a-f-]{36}: give the worker the server's DATABASE_URL`,
        ),
      );
      const m = await a.match(id);
      assert.deepEqual([m.status, m.tries], ['queued', 0], 'the match waits, untouched');
      const queue = new BullMatchQueue({ url: rd.url, prefix: at.prefix });
      try {
        assert.notEqual(await queue.state(id), 'completed');
      } finally {
        await queue.close();
      }
      // A server on another database refuses the queue too: one queue serves one arena.
      const stray = await startQueueServer({ ...at, database: join(dir, 'other-server.sqlite') }, ['--no-ladder']).then(
        (p) => (void p.kill(), null),
        (e: Error) => e,
      );
      assert.ok(stray, 'the stray server did not start');
      assert.match(stray.message, /exited \(2\) before it was ready/);
      assert.match(
        stray.message,
        /this server's store \(SQLite [^)]*other-server\.sqlite\) is arena [0-9a-f-]{36}, and the queue [^ ]+ belongs to arena [0-9a-f-]{36}: one queue serves one arena/,
      );
      const w = await startWorkerProcess(at, 'right');
      assert.equal((await a.finished(id)).worker, 'right', "a worker on the server's database plays it");
      await a.server.stop();
      await w.stop();
    });

    it('a worker never completes a job whose match its store does not have: it hands it back, saying why', async () => {
      const at = await place(); // no server: the queue is not marked with an arena
      const queue = new BullMatchQueue({ url: rd.url, prefix: at.prefix, retryDelayMs: 200 });
      try {
        await queue.enqueue('match-of-another-arena');
        const w = await startWorkerProcess({ ...at, database: join(dir, 'lone.sqlite') }, 'lone');
        const state = await until('the job to fail back', async () => {
          const s = await queue.state('match-of-another-arena');
          return s === 'failed' || s === 'completed' ? s : null;
        });
        assert.equal(state, 'failed', `the job is failed back, not completed:\n${w.log()}`);
        assert.match(w.log(), /is not marked with an arena yet/);
        assert.match(
          w.log(),
          /match match-of-another-arena is not in this process's store \(SQLite [^)]*lone\.sqlite\): the job is handed back, not completed/,
        );
        await w.stop();
      } finally {
        await queue.close();
      }
    });
  });
}
