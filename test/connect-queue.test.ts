import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CLUSTER_ADMIN, killAll, startQueueServer, startWorkerProcess } from './cluster.kit.js';
import { testRedis, type TestRedis } from './redis.kit.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// A linked bot in queue mode: `botarena serve --queue` with a `botarena worker` on a redis-server of the test's
// own (the store a SQLite file both use, on this machine). The linked bot's matches (ladder and test) are played
// by the server it is linked to, never by the worker, and the reconciler leaves them alone; other matches go to
// the worker as before.

const redis = await testRedis();

type Match = { id: string; kind: string; status: string; worker: string | null; abortReason: string | null; seats: { botId: string | null; fault: unknown }[] };

if ('missing' in redis) {
  describe('botarena connect in queue mode', () => {
    it('runs on a real Redis', (t) => {
      if (process.env.BOTARENA_CI) assert.fail(`CI must run the queue tests: ${redis.missing}`);
      t.skip(redis.missing);
    });
  });
} else {
  const rd = redis as TestRedis;
  const dir = mkdtempSync(join(tmpdir(), 'botarena-connect-queue-'));
  const children: ChildProcess[] = [];
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    killAll();
    rmSync(dir, { recursive: true, force: true });
    await rd.stop();
  });

  describe('botarena connect in queue mode', () => {
    it("plays a linked bot's ladder and test matches on the server it is linked to, not on a worker, and none is aborted by the reconciler", async () => {
      const at = { database: join(dir, 'queue.sqlite'), redis: rd.url, prefix: `t${randomBytes(4).toString('hex')}` };
      const server = await startQueueServer(at, ['--ladder-burst', '3']);
      const worker = await startWorkerProcess(at, 'w1');
      const api = apiClient(() => server.url);
      const reg = await api('POST', '/api/bots', { game: 'tictactoe', name: 'linked-q', endpoint: 'connect:', capacity: 2 });
      assert.equal(reg.status, 201, JSON.stringify(reg.body));
      const id = (reg.body!.bot as { id: string }).id;
      const cli = spawn(process.execPath, ['bin/botarena', 'connect', `${server.url}/bots/${id}`, 'stdio:python3 test/fixtures/connect/ttt.py 0.05'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, BOTARENA_TOKEN: reg.body!.token as string },
      });
      children.push(cli);
      let out = '';
      cli.stdout!.on('data', (d: Buffer) => (out += d));
      cli.stderr!.on('data', (d: Buffer) => (out += d));
      await until(`linked (${out})`, async () => /linked as linked-q/.test(out));
      const list = async () => ((await api('GET', `/api/matches?bot=${id}&limit=100`)).body as unknown as { items: Match[] }).items;
      const ladder = await until(
        'three ladder matches of the linked bot finished',
        async () => {
          const done = (await list()).filter((m) => m.kind === 'ladder' && m.status === 'finished');
          return done.length >= 3 ? done : null;
        },
        60_000,
      );
      for (const m of ladder) assert.match(m.worker ?? '', /^server/, `ladder match ${m.id} played by ${m.worker}, not the server`);
      const test = await until('a test match accepted', async () => {
        const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: [id, 'random'], test: true });
        return r.status === 201 ? (r.body as unknown as { id: string }) : null;
      });
      const played = await until('the test match finished', async () => {
        const m = (await api('GET', `/api/matches/${test.id}`)).body as unknown as Match;
        return m.status === 'finished' ? m : null;
      });
      assert.match(played.worker ?? '', /^server/);
      assert.equal(played.seats[0]!.fault, null);
      // The worker still plays the others.
      const other = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'minimax'], test: true });
      assert.equal(other.status, 201, JSON.stringify(other.body));
      const elsewhere = await until('the built-ins match finished', async () => {
        const m = (await api('GET', `/api/matches/${other.body!.id as string}`)).body as unknown as Match;
        return m.status === 'finished' ? m : null;
      });
      assert.equal(elsewhere.worker, 'w1');
      // Reconciled every second meanwhile: nothing of the linked bot was aborted.
      await new Promise((r) => setTimeout(r, 2500));
      const aborted = (await list()).filter((m) => m.status === 'aborted');
      assert.deepEqual(
        aborted.map((m) => m.abortReason),
        [],
      );
      assert.equal((worker.log().match(/"msg":"match started"/g) ?? []).length, 1, `the worker started the built-ins' match only:\n${worker.log()}`);
      assert.doesNotMatch(worker.log(), /linked-q/);

      // A contest's final with the linked bot: its matches are played here too, not aborted by a worker.
      const hour = 3_600_000;
      const created = await api(
        'POST',
        '/api/contests',
        {
          id: 'linked-cup',
          name: 'Linked cup',
          game: 'tictactoe',
          configs: [{ label: 'empty', config: {} }],
          format: 'round-robin',
          gamesPerPairing: 2,
          timeRules: {},
          seed: 5,
          opensAt: new Date(Date.now() - hour).toISOString(),
          closesAt: new Date(Date.now() + hour).toISOString(),
        },
        CLUSTER_ADMIN,
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal((await api('POST', '/api/contests/linked-cup/entries', { bot: id }, reg.body!.token as string)).status, 201);
      assert.equal((await api('POST', '/api/contests/linked-cup/entries', { bot: 'random' }, CLUSTER_ADMIN)).status, 201);
      assert.equal((await api('POST', '/api/contests/linked-cup/start', undefined, CLUSTER_ADMIN)).status, 200);
      let seen = '';
      await until(
        'the final over',
        async () => {
          const got = await api('GET', '/api/contests/linked-cup');
          seen = JSON.stringify(got.body).slice(0, 400);
          return (got.body as { status?: string }).status === 'done';
        },
        60_000,
      ).catch((err: Error) => assert.fail(`${err.message}: ${seen}`));
      const final = (await list()).filter((m) => m.kind === 'contest');
      assert.equal(final.length, 2);
      for (const m of final) {
        assert.equal(m.status, 'finished', `${m.id}: ${m.abortReason}`);
        assert.match(m.worker ?? '', /^server/, `contest match ${m.id} played by ${m.worker}, not the server the bot is linked to`);
      }
      cli.kill('SIGINT');
      await new Promise((r) => cli.on('close', r));
    });
  });
}
