import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from '../src/store/index.js';
import { testPostgres, type TestPostgres } from '../src/store/pg.kit.js';
import { CLUSTER_ADMIN, killAll, startQueueServer, startWorkerProcess, type ClusterPlace } from './cluster.kit.js';
import { testRedis, type TestRedis } from './redis.kit.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// A match job that a worker cannot play goes to one that can (issue 35): a worker without --allow-commands
// is handed a match of a Python bot; it passes it on (no try counted) to a worker with --allow-commands, or,
// while no worker alive can play it, the match waits for one; past the workers' --unplayable-ms it is
// aborted with what each worker lacked. Before, the first worker to take the job aborted it at once
// ("seat 0 is a command and this worker runs no commands"), whatever the other workers could do.

const pg = await testPostgres();
const redis = await testRedis();
const missing = 'missing' in pg ? `Postgres: ${pg.missing}` : 'missing' in redis ? `Redis: ${redis.missing}` : null;

const PY = `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} 0.01`;

/** A fresh database and Redis prefix, with bots registered straight in the store (no doctor: one of them cannot run anywhere). */
async function place(db: TestPostgres, rd: TestRedis, bots: Record<string, string>): Promise<ClusterPlace> {
  const at: ClusterPlace = { database: await db.newDatabase(), redis: rd.url, prefix: `t${randomBytes(4).toString('hex')}` };
  const store = await openStore(at.database);
  try {
    for (const [name, endpoint] of Object.entries(bots)) await store.createBot({ game: 'tictactoe', name, endpoint, status: 'active', capacity: 4 });
  } finally {
    await store.close();
  }
  return at;
}

describe('a match a worker cannot play goes to one that can', () => {
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

  it('a worker without --allow-commands passes a Python bot’s matches on; they wait for a worker that can, and it plays them, each started once', async () => {
    const at = await place(db, rd, { py: PY });
    const server = await startQueueServer(at, ['--no-ladder']);
    const api = apiClient(() => server.url);
    const plain = await startWorkerProcess(at, 'plain', ['--unplayable-ms', '120000'], { commands: false });
    try {
      const first = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['py', 'random'], rated: true }, CLUSTER_ADMIN);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const id = first.body!.id as string;
      // The only worker cannot play it: it says so, and the match waits, queued, no try counted.
      await until('the plain worker to say nobody can play it', async () => plain.log().includes(`no worker running can play match ${id}`), 20_000);
      assert.match(plain.log(), /seat 0 is a command \(stdio:\/exec:\) and this worker runs no commands/);
      await new Promise((r) => setTimeout(r, 1500));
      const m = (await api('GET', `/api/matches/${id}`)).body!;
      assert.equal(m.status, 'queued', `it waits for a worker that can play it: ${JSON.stringify(m).slice(0, 300)}`);

      // A worker that runs commands comes: it plays the match (within the waiting job's next look, 5 s).
      const able = await startWorkerProcess(at, 'able', ['--concurrency', '2']);
      await until('the match to finish', async () => (await api('GET', `/api/matches/${id}`)).body!.status === 'finished', 30_000);

      // Both alive: every Python match goes to the able worker, whoever took its job first; the built-ins' anywhere.
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await api(
          'POST',
          '/api/matches',
          { game: 'tictactoe', seats: i % 4 === 3 ? ['random', 'minimax'] : ['py', 'random'], rated: true },
          CLUSTER_ADMIN,
        );
        assert.equal(r.status, 201, JSON.stringify(r.body));
        ids.push(r.body!.id as string);
      }
      await until(
        'the eight matches to finish',
        async () => {
          for (const x of ids) if ((await api('GET', `/api/matches/${x}`)).body!.status !== 'finished') return false;
          return true;
        },
        60_000,
      );
      const store = await openStore(at.database);
      try {
        for (const x of [id, ...ids]) {
          const row = (await store.getMatch(x))!;
          assert.equal(row.status, 'finished');
          assert.equal(row.tries, 1, `match ${x} was started once (passing it on counts no try)`);
          if ((row.job as { seats: { bot: string }[] }).seats.some((s) => s.bot.startsWith('stdio:')))
            assert.equal(row.worker, 'able', `match ${x}: played by the worker that runs commands`);
        }
        assert.equal(await store.countMatches({ status: 'aborted' }), 0, 'nothing aborted');
      } finally {
        await store.close();
      }
      assert.ok(plain.log().includes('match passed on to another worker'), `the plain worker passed a match on:\n${plain.log().slice(-3000)}`);
      await able.stop();
    } finally {
      await plain.stop();
      await server.stop();
    }
  });

  it("a worker runs bots within the arena's sandbox limits (the server's --sandbox-tmp 8), not its own (64 MiB)", async () => {
    const at = await place(db, rd, { filler: `stdio:python3 ${join(ROOT, 'test/fixtures/sandbox/tmpfill.py')}` });
    const server = await startQueueServer(at, ['--no-ladder', '--sandbox-tmp', '8']);
    const api = apiClient(() => server.url);
    const w = await startWorkerProcess(at, 'w');
    try {
      assert.match(w.log(), /follows the arena's sandbox limits, not its own --sandbox-\* options: tmpMb 8 \(its own: 64\)/);
      const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['filler', 'random'] }, CLUSTER_ADMIN);
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const id = r.body!.id as string;
      await until('the match to finish', async () => (await api('GET', `/api/matches/${id}`)).body!.status === 'finished', 30_000);
      const log = await api('GET', `/api/matches/${id}/logs/0`, undefined, CLUSTER_ADMIN);
      assert.equal(log.status, 200, JSON.stringify(log.body));
      const m = /tmp: wrote (\d+) MiB, stopped by (\w+)/.exec(JSON.stringify(log.body));
      assert.ok(m, JSON.stringify(log.body).slice(0, 2000));
      assert.equal(m[2], 'ENOSPC');
      assert.ok(Number(m[1]) <= 8, `the bot's /tmp held ${m[1]} MiB: the arena's cap is 8`);
    } finally {
      await w.stop();
      await server.stop();
    }
  });

  it('a match no worker alive can play waits --unplayable-ms, then is aborted saying what each worker lacked', async () => {
    const at = await place(db, rd, { ghost: 'stdio:botarena-no-such-runtime ghost.py' });
    const server = await startQueueServer(at, ['--no-ladder']);
    const api = apiClient(() => server.url);
    const w = await startWorkerProcess(at, 'w', ['--unplayable-ms', '2000']);
    try {
      const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['ghost', 'random'] }, CLUSTER_ADMIN);
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const id = r.body!.id as string;
      await until('the match to be aborted', async () => (await api('GET', `/api/matches/${id}`)).body!.status === 'aborted', 30_000);
      const m = (await api('GET', `/api/matches/${id}`)).body!;
      const reason = String(m.abortReason ?? m.reason ?? JSON.stringify(m));
      assert.match(reason, /no worker could play it for 2 s/);
      assert.match(
        reason,
        /worker w: seat 0's command \(stdio:botarena-no-such-runtime ghost\.py\): its program botarena-no-such-runtime is not on this machine's PATH/,
      );
      const store = await openStore(at.database);
      try {
        assert.equal((await store.getMatch(id))!.tries, 0, 'never started');
      } finally {
        await store.close();
      }
    } finally {
      await w.stop();
      await server.stop();
    }
  });
});
