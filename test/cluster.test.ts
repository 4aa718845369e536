// One file on purpose (about 520 lines): the queue-mode scenarios share one private Postgres cluster and one
// redis-server, each started once for the file (seconds each); split, every file would start its own.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import type { Job } from 'bullmq';
import { pino } from 'pino';
import { newJob } from '../src/arena/match-job.js';
import { LocalLiveEvents } from '../src/live/local.js';
import { BullMatchQueue, type MatchJobData } from '../src/queue/bullmq.js';
import { MatchWorker } from '../src/worker/worker.js';
import { Arena } from '../src/server/arena.js';
import { openStore, type Store } from '../src/store/index.js';
import { testPostgres, type TestPostgres } from '../src/store/pg.kit.js';
import { CLUSTER_ADMIN, killAll, startQueueServer, startWorkerProcess, type ClusterPlace, type ClusterProcess } from './cluster.kit.js';
import { testRedis, type TestRedis } from './redis.kit.js';
import { ROOT, runCli } from './run-cli.js';
import { apiClient, until } from './server.kit.js';
import { readSse } from './sse.kit.js';

// Queue mode with real parts: `botarena serve --queue` and `botarena worker` processes on a private Postgres
// cluster and a redis-server of the test's own (no persistence: a restart loses everything it held). Under
// CI (BOTARENA_CI) a missing Postgres or Redis fails these tests; elsewhere they skip, saying why.

const pg = await testPostgres();
const redis = await testRedis();
const missing = 'missing' in pg ? `Postgres: ${pg.missing}` : 'missing' in redis ? `Redis: ${redis.missing}` : null;

type Seat = { botId: string | null; name: string; rank: number | null };
type Match = {
  id: string;
  status: string;
  worker: string | null;
  tries: number;
  rated: boolean;
  startedAt: string | null;
  finishedAt: string | null;
  abortReason: string | null;
  result: { players: { rank: number }[] } | null;
  seats: Seat[];
};

const pace = (seconds: number) => `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} ${seconds}`;

if (missing) {
  describe('queue mode (BullMQ workers, Redis live events, Postgres)', () => {
    it('runs on a real Postgres and Redis', (t) => {
      if (process.env.BOTARENA_CI) assert.fail(`CI must run the queue tests: ${missing}`);
      t.skip(missing);
    });
  });
} else {
  const db = pg as TestPostgres;
  const rd = redis as TestRedis;
  after(async () => {
    killAll();
    await rd.stop();
    await db.stop();
  });

  /** A fresh place: its own database and Redis key prefix. */
  const place = async (): Promise<ClusterPlace> => ({ database: await db.newDatabase(), redis: rd.url, prefix: `t${randomBytes(4).toString('hex')}` });

  describe('queue mode (BullMQ workers, Redis live events, Postgres)', () => {
    it("plays a rated ladder on two worker processes, keeps a bot within its capacity across them, and streams a worker's match from the server", async () => {
      const at = await place();
      const server = await startQueueServer(at, ['--concurrency', '6', '--ladder-burst', '1000', '--per-bot-per-hour', '100000']);
      const workers = [await startWorkerProcess(at, 'w1', ['--concurrency', '3']), await startWorkerProcess(at, 'w2', ['--concurrency', '3'])];
      const api = apiClient(() => server.url);
      const one = await api('POST', '/api/bots', { game: 'tictactoe', name: 'single', endpoint: pace(0.02), capacity: 1 });
      const two = await api('POST', '/api/bots', { game: 'tictactoe', name: 'double', endpoint: pace(0.02), capacity: 2 });
      assert.equal(one.status, 201, JSON.stringify(one.body));
      assert.equal(two.status, 201, JSON.stringify(two.body));
      const single = (one.body!.bot as { id: string }).id;
      const double = (two.body!.bot as { id: string }).id;
      const finished = async (botId: string) => (await api('GET', `/api/matches?bot=${botId}&status=finished&limit=100`)).body!.items as Match[];
      await until('8 finished ladder matches of each bot', async () => (await finished(single)).length >= 8 && (await finished(double)).length >= 8, 90_000);

      // The server played none of them: every one was a worker's, and both workers played.
      const all = [...(await finished(single)), ...(await finished(double))];
      const byWorker = new Set(all.map((m) => m.worker));
      assert.deepEqual([...byWorker].sort(), ['w1', 'w2'], `the workers that played: ${[...byWorker].join(', ')}`);
      // Capacity 1 across two workers with 6 matches at once: the single bot's matches never overlap in time.
      const spans = (await finished(single)).map((m) => [Date.parse(m.startedAt!), Date.parse(m.finishedAt!)] as const).sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < spans.length; i++)
        assert.ok(spans[i]![0] >= spans[i - 1]![1], `matches ${i - 1} and ${i} of a bot with capacity 1 overlap: ${JSON.stringify(spans)}`);
      // Rated once each: the bot's ELO history has one change per rated match it finished.
      await server.stop(); // the ladder stops scheduling; workers finish what they hold
      await until('no match under way', async () => (await countIn(at, 'running')) === 0 && (await countIn(at, 'queued')) === 0, 30_000).catch(
        async (err: Error) => {
          throw new Error(`${err.message}; still under way: ${await underWay(at)}`);
        },
      );
      const store = await openStore(at.database);
      try {
        const done = (await store.listMatches({ botId: single, status: 'finished', limit: 100 })).items.filter((m) => m.rated);
        const history = await store.ratingHistory(single, 'elo');
        assert.equal(history.length, done.length, 'one ELO change per finished rated match');
        assert.deepEqual(new Set(history.map((h) => h.matchId)), new Set(done.map((m) => m.id)));
      } finally {
        await store.close();
      }

      // Another server (a second web node) streams a worker's match live: SSE from its start, then the feed.
      const server2 = await startQueueServer(at, ['--no-ladder']);
      const api3 = apiClient(() => server2.url);
      const feed = sseCollect(`${server2.url}/api/events`);
      await new Promise((r) => setTimeout(r, 300));
      const created = await api3('POST', '/api/matches', { game: 'tictactoe', seats: [double, 'minimax'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body!.id as string;
      const events = await sseCollect(`${server2.url}/api/matches/${id}/events`).done;
      const types = events.map((e) => e.type);
      assert.equal(types[0], 'started');
      assert.equal(types.at(-1), 'ended');
      const steps = events.filter((e) => e.type === 'step').map((e) => e.index as number);
      assert.deepEqual(
        steps,
        steps.map((_, i) => i),
        'every step once, in order',
      );
      // `ended` goes out as the match ends; its result reaches the store right after.
      const stored = await until('the match to be stored', async () => {
        const m = (await api3('GET', `/api/matches/${id}`)).body as unknown as Match;
        return m.status === 'finished' ? m : null;
      });
      assert.ok(stored.worker === 'w1' || stored.worker === 'w2', `played by a worker, not the server: ${stored.worker}`);
      assert.equal(
        (events.at(-1)!.result as { winner: number | null }).winner,
        (stored.result as unknown as { winner: number | null }).winner,
        'the live result is the stored one',
      );
      await until('the feed to show its start and end', async () => feed.events.filter((e) => e.matchId === id).length >= 2, 10_000);
      feed.close();
      await server2.stop();
      await Promise.all(workers.map((w) => w.stop()));
    });

    it('a worker killed mid-match: another plays it again from the start, and it is recorded and rated once', async () => {
      const at = await place();
      const server = await startQueueServer(at, ['--no-ladder']);
      const workers = new Map<string, ClusterProcess>([
        ['w1', await startWorkerProcess(at, 'w1')],
        ['w2', await startWorkerProcess(at, 'w2')],
      ]);
      const api = apiClient(() => server.url);
      const bot = await api('POST', '/api/bots', { game: 'tictactoe', name: 'slow', endpoint: pace(0.4) });
      const botId = (bot.body!.bot as { id: string }).id;
      await until('the bot to pass its check', async () => (await api('GET', `/api/bots/${botId}`)).body!.status === 'active', 30_000);
      const created = await api('POST', '/api/matches', { game: 'tictactoe', seats: [botId, 'minimax'], rated: true, seed: 5 }, CLUSTER_ADMIN);
      const id = created.body!.id as string;
      const first = await until('a worker to start it', async () => {
        const m = (await api('GET', `/api/matches/${id}`)).body as unknown as Match;
        return m.status === 'running' && m.worker ? m : null;
      });
      await new Promise((r) => setTimeout(r, 500)); // mid-match: it has made a move or two
      await workers.get(first.worker!)!.kill();
      const done = await until(
        'it to finish on the other worker',
        async () => {
          const m = (await api('GET', `/api/matches/${id}`)).body as unknown as Match;
          return m.status === 'finished' ? m : m.status === 'aborted' ? assert.fail(`aborted: ${m.abortReason}`) : null;
        },
        60_000,
      );
      assert.equal(done.tries, 2, 'started twice: by the killed worker, then by the other');
      assert.notEqual(done.worker, first.worker);
      const history = (await api('GET', `/api/bots/${botId}/ratings`)).body as unknown as { elo: { matchId: string }[] };
      assert.deepEqual(
        history.elo.map((h) => h.matchId),
        [id],
        'rated once',
      );
      await server.stop();
      for (const w of workers.values()) await w.stop().catch(() => {});
    });

    it('a worker stopped mid-match (SIGTERM past its grace) hands the match back: another worker plays it', async () => {
      const at = await place();
      const server = await startQueueServer(at, ['--no-ladder']);
      const api = apiClient(() => server.url);
      const bot = await api('POST', '/api/bots', { game: 'tictactoe', name: 'slow', endpoint: pace(0.5) });
      const botId = (bot.body!.bot as { id: string }).id;
      await until('the bot to pass its check', async () => (await api('GET', `/api/bots/${botId}`)).body!.status === 'active', 30_000);
      const quiet = pino({ level: 'silent' });
      const store = await openStore(at.database);
      const live = new LocalLiveEvents();
      const first = new MatchWorker({ url: rd.url, prefix: at.prefix, store, live, log: quiet, name: 'leaving', allowCommands: true, lockMs: 2000 });
      first.start();
      try {
        const id = (await api('POST', '/api/matches', { game: 'tictactoe', seats: [botId, 'random'], rated: true }, CLUSTER_ADMIN)).body!.id as string;
        await until('the first worker to play it', async () => first.active.includes(id));
        await first.stop(300); // its grace is shorter than the match
        const row = (await store.getMatch(id))!;
        assert.equal(row.status, 'queued', 'not aborted: it goes back to the queue');
        const second = await startWorkerProcess(at, 'staying');
        const done = await until(
          'another worker to finish it',
          async () => {
            const m = (await api('GET', `/api/matches/${id}`)).body as unknown as Match;
            return m.status === 'finished' ? m : m.status === 'aborted' ? assert.fail(`aborted: ${m.abortReason}`) : null;
          },
          30_000,
        );
        assert.deepEqual([done.worker, done.tries], ['staying', 2]);
        await second.stop();
      } finally {
        await first.stop(0);
        await live.close();
        await store.close();
        await server.stop();
      }
    });

    it('two workers racing on one job: one plays it, the other leaves it to that live attempt; it is stored and rated once', async () => {
      const database = await db.newDatabase();
      const store = await openStore(database);
      const quiet = pino({ level: 'silent' });
      try {
        // A bot that takes 50 ms a move: both workers hold the match at once (as when a lock ran out under load).
        const [a, b] = [
          await store.createBot({ game: 'tictactoe', name: 'a', endpoint: pace(0.05) }),
          await store.createBot({ game: 'tictactoe', name: 'b', endpoint: 'minimax' }),
        ];
        const job = newJob({
          matchId: 'race-1',
          game: 'tictactoe',
          seed: 9,
          config: {},
          seats: [
            { bot: a.endpoint, name: 'a' },
            { bot: 'minimax', name: 'b' },
          ],
          timeouts: {},
          transcripts: true,
        });
        await store.createMatch({ id: 'race-1', game: 'tictactoe', kind: 'ladder', rated: true, seed: 9, config: {}, job, seats: [a.id, b.id] });
        const worker = (name: string) =>
          new MatchWorker({ url: 'redis://127.0.0.1:1', store, live: new LocalLiveEvents(), log: quiet, name, allowCommands: true });
        const outcomes = await Promise.all([
          worker('x').process({ data: { matchId: 'race-1' } } as Job<MatchJobData>),
          worker('y').process({ data: { matchId: 'race-1' } } as Job<MatchJobData>),
        ]);
        // Fencing (issue 35): the first to claim it plays it; the other finds that attempt alive and starts none.
        assert.equal(outcomes.filter((o) => o === 'finished').length, 1, JSON.stringify(outcomes));
        assert.match(
          outcomes.find((o) => o !== 'finished')!,
          /^attempt 1 \((x|y)\) is playing it and alive: not started again$/,
        );
        const m = (await store.getMatch('race-1'))!;
        assert.equal(m.status, 'finished');
        assert.equal(m.tries, 1);
        for (const bot of [a, b]) {
          assert.equal((await store.ratingHistory(bot.id, 'elo')).length, 1, 'one ELO change');
          assert.equal((await store.ratingsOf(bot.id)).find((r) => r.system === 'elo')!.games, 1);
        }
        // A third worker that gets the job late finds it ended and plays nothing.
        assert.equal(await worker('z').process({ data: { matchId: 'race-1' } } as Job<MatchJobData>), 'the match is finished already');
        assert.equal((await store.getMatch('race-1'))!.tries, 1);

        // A match its workers kept dying in: past the tries, the next worker aborts it with the reason.
        await store.createMatch({
          id: 'doomed',
          game: 'tictactoe',
          kind: 'ladder',
          rated: true,
          seed: 1,
          config: {},
          job: { ...job, matchId: 'doomed' },
          seats: [a.id, b.id],
        });
        for (const dead of ['d1', 'd2', 'd3']) assert.notEqual(await store.claimMatch('doomed', dead), null);
        assert.match(await worker('w').process({ data: { matchId: 'doomed' } } as Job<MatchJobData>), /^aborted: /);
        const doomed = (await store.getMatch('doomed'))!;
        assert.equal(doomed.status, 'aborted');
        assert.equal(doomed.abortReason, 'it was started 3 times and no worker finished it (each stopped or died mid-match)');

        // Jobs that are not ours to trust: no match id, a number, a huge or unknown one — dropped, said why.
        for (const data of [{}, { matchId: 42 }, { matchId: 'x'.repeat(1_000_000) }, null]) {
          const said = await worker('w').process({ data } as unknown as Job<MatchJobData>);
          assert.match(said, /dropped/, said);
          assert.ok(said.length < 400, 'the answer quotes at most a little of the job');
        }
        // A well-formed id this store does not have is another arena's job: failed back, never completed (issue 35).
        await assert.rejects(
          worker('w').process({ data: { matchId: 'no-such-match' } } as Job<MatchJobData>),
          /^UnknownMatchError: match no-such-match is not in this process's store/,
        );
      } finally {
        await store.close();
      }
    });

    it('a server stopped while its ladder creates a match enqueues that match before it stops, so no match is left queued without a job', async () => {
      const at = await place();
      const real = await openStore(at.database);
      const quiet = pino({ level: 'silent' });
      const queue = new BullMatchQueue({ url: rd.url, prefix: at.prefix });
      const live = new LocalLiveEvents();
      // The store as the arena sees it, with creating a match slowed down: the stop comes in the middle of it.
      let creating!: () => void;
      const created = new Promise<void>((resolve) => (creating = resolve));
      const store = new Proxy(real, {
        get(target, key) {
          if (key === 'createMatch') {
            return async (...args: Parameters<Store['createMatch']>) => {
              creating();
              await new Promise((r) => setTimeout(r, 500));
              return target.createMatch(...args);
            };
          }
          const v = Reflect.get(target, key) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      const arena = new Arena(
        store,
        live,
        { concurrency: 1, allowCommands: true, allowPrivateBots: true, ladder: true, checkBots: false, queue, node: 'stopping-server' },
        quiet,
      );
      try {
        await real.createBot({ game: 'tictactoe', name: 'newcomer', endpoint: pace(0.01), status: 'active' });
        await arena.start();
        await created;
        await arena.stop(5000);
        const queued = (await real.listMatches({ status: 'queued', limit: 10 })).items;
        assert.equal(queued.length, 1, 'the ladder created its match before it stopped');
        assert.equal(await queue.state(queued[0]!.id), 'waiting', 'and enqueued it: a worker will play it');
      } finally {
        await arena.stop(0);
        await queue.close();
        await live.close();
        await real.close();
      }
    });

    it('Redis restarts empty: workers reconnect, what it lost is enqueued again, nothing is dropped', async () => {
      const at = await place();
      // Five matches from one client address at once (past the default per-address quota, 4), all handed to
      // Redis at once (not held back for their share of --concurrency), so that Redis has queued jobs to lose.
      const server = await startQueueServer(at, ['--no-ladder', '--max-matches-per-address', '8', '--on-demand-concurrency', '8']);
      const workers = [await startWorkerProcess(at, 'w1'), await startWorkerProcess(at, 'w2')];
      const api = apiClient(() => server.url);
      const bot = await api('POST', '/api/bots', { game: 'tictactoe', name: 'slow', endpoint: pace(0.3) });
      const botId = (bot.body!.bot as { id: string }).id;
      await until('the bot to pass its check', async () => (await api('GET', `/api/bots/${botId}`)).body!.status === 'active', 30_000);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await api('POST', '/api/matches', { game: 'tictactoe', seats: [botId, 'random'], seed: i })).body!.id as string);
      await until(
        'two matches running',
        async () =>
          (await Promise.all(ids.map(async (id) => ((await api('GET', `/api/matches/${id}`)).body as unknown as Match).status))).filter((s) => s === 'running')
            .length === 2,
      );
      rd.kill();
      // A match asked for while Redis is down is kept (queued in the database) and played once it is back.
      const during = await api('POST', '/api/matches', { game: 'tictactoe', seats: [botId, 'random'], seed: 99 });
      assert.equal(during.status, 201, JSON.stringify(during.body));
      ids.push(during.body!.id as string);
      await new Promise((r) => setTimeout(r, 1000));
      await rd.restart();
      const ended = await allEnded(api, ids, 90_000);
      assert.deepEqual(
        ended.map((m) => m.status),
        ids.map(() => 'finished'),
        ended.map((m) => `${m.status} ${m.abortReason ?? ''}`).join('; '),
      );
      assert.match(server.log(), /match enqueued again/);
      await server.stop();
      await Promise.all(workers.map((w) => w.stop()));
    });

    it('the server restarts while workers play: their matches finish and are stored, nothing is aborted', async () => {
      const at = await place();
      let server = await startQueueServer(at, ['--no-ladder']);
      const workers = [await startWorkerProcess(at, 'w1'), await startWorkerProcess(at, 'w2')];
      let api = apiClient(() => server.url);
      const bot = await api('POST', '/api/bots', { game: 'tictactoe', name: 'slow', endpoint: pace(0.3) });
      const botId = (bot.body!.bot as { id: string }).id;
      await until('the bot to pass its check', async () => (await api('GET', `/api/bots/${botId}`)).body!.status === 'active', 30_000);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await api('POST', '/api/matches', { game: 'tictactoe', seats: [botId, 'random'], seed: i })).body!.id as string);
      await until('a match running', async () => ((await api('GET', `/api/matches/${ids[0]}`)).body as unknown as Match).status === 'running');
      await server.kill();
      await new Promise((r) => setTimeout(r, 1500));
      server = await startQueueServer(at, ['--no-ladder']);
      api = apiClient(() => server.url);
      const ended = await allEnded(api, ids, 60_000);
      assert.deepEqual(
        ended.map((m) => `${m.status} ${m.tries}`),
        ids.map(() => 'finished 1'),
        'each finished on its first start',
      );
      await server.stop();
      await Promise.all(workers.map((w) => w.stop()));
    });

    it("a viewer of a worker's match across a Redis restart gets every step, or is told which it missed", async () => {
      const at = await place();
      const server = await startQueueServer(at, ['--no-ladder']);
      const worker = await startWorkerProcess(at, 'w1');
      const api = apiClient(() => server.url);
      const bot = await api('POST', '/api/bots', { game: 'tictactoe', name: 'slow', endpoint: pace(0.6) });
      const botId = (bot.body!.bot as { id: string }).id;
      await until('the bot to pass its check', async () => (await api('GET', `/api/bots/${botId}`)).body!.status === 'active', 30_000);
      const id = (await api('POST', '/api/matches', { game: 'tictactoe', seats: [botId, 'random'], seed: 3 })).body!.id as string;
      await until('the match to run', async () => ((await api('GET', `/api/matches/${id}`)).body as unknown as Match).status === 'running');
      const viewer = sseCollect(`${server.url}/api/matches/${id}/events`);
      await until('a first step seen', async () => viewer.events.some((e) => e.type === 'step'));
      // Redis away for a while the bot plays on: what the worker publishes meanwhile may be lost.
      rd.kill();
      await new Promise((r) => setTimeout(r, 2000));
      await rd.restart();
      const [m] = await allEnded(api, [id], 90_000);
      assert.equal(m!.status, 'finished', m!.abortReason ?? '');
      await until('the viewer to see the end', async () => viewer.events.some((e) => e.type === 'ended'), 30_000).catch((err: Error) => {
        throw new Error(`${err.message}; it saw: ${viewer.events.map((e) => (e.type === 'step' ? e.index : e.type)).join(' ')}`);
      });
      viewer.close();
      // Steps in order, none twice; a jump only right after `truncated` naming it.
      let last = -1;
      for (const [k, e] of viewer.events.entries()) {
        if (e.type !== 'step') continue;
        const index = e.index as number;
        assert.ok(index > last, `step ${index} after step ${last}: ${JSON.stringify(viewer.events.map((x) => x.index ?? x.type))}`);
        if (index !== last + 1) assert.equal(viewer.events[k - 1]!.type, 'truncated', `steps ${last + 1}..${index - 1} missed without a word`);
        last = index;
      }
      const replay = (await (await fetch(`${server.url}/api/matches/${id}/replay`)).json()) as { turns: unknown[] };
      const told = viewer.events.some((e) => e.type === 'truncated');
      console.log(`# the viewer across the Redis restart saw: ${viewer.events.map((e) => (e.type === 'step' ? e.index : e.type)).join(' ')}`);
      assert.ok(told || last === replay.turns.length - 1, `every step (${last + 1} of ${replay.turns.length}) or a word about the missing ones`);
      await server.stop();
      await worker.stop();
    });

    it("workers follow the arena's policy from its store: a loopback HTTP bot the server allows is played by a worker without --allow-private-bots; an unsandboxed worker on a sandboxed arena does not start", async () => {
      const at = await place();
      const http = spawn(process.execPath, ['examples/connect4-node-http/bot.mjs', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        const [line] = (await once(createInterface({ input: http.stdout! }), 'line')) as [string];
        const url = /listening on (http:\S+)/.exec(line)![1]!;
        const server = await startQueueServer(at, ['--no-ladder', '--allow-private-bots']);
        const worker = await startWorkerProcess(at, 'w1');
        const api = apiClient(() => server.url);
        const bot = await api('POST', '/api/bots', { game: 'connect4', name: 'local-http', endpoint: url });
        assert.equal(bot.status, 201, JSON.stringify(bot.body));
        const botId = (bot.body!.bot as { id: string }).id;
        await until('the bot to pass its check', async () => (await api('GET', `/api/bots/${botId}`)).body!.status === 'active', 30_000);
        const id = (await api('POST', '/api/matches', { game: 'connect4', seats: [botId, 'random'], seed: 5 })).body!.id as string;
        const [m] = await allEnded(api, [id], 60_000);
        const row = (await api('GET', `/api/matches/${id}`)).body as unknown as { result: { players: { fault: unknown }[] } };
        assert.equal(m!.status, 'finished', m!.abortReason ?? '');
        assert.deepEqual(
          row.result.players.map((p) => p.fault),
          [null, null],
          `the worker called the loopback bot: ${JSON.stringify(row.result)}`,
        );
        assert.match(worker.log(), /follows the arena's policy, not its own --allow-private-bots: bots at private addresses are allowed/);

        // What a worker can do is its own: run unsandboxed commands on an arena that sandboxes them, it does not start.
        const unsandboxed = await runCli(
          ['worker', '--queue', at.redis, '--redis-prefix', at.prefix, '--database', at.database, '--allow-commands', '--unsandboxed-commands'],
          { timeoutMs: 30_000 },
        );
        assert.equal(unsandboxed.code, 2, unsandboxed.stderr);
        assert.match(unsandboxed.stderr, /this arena runs commands sandboxed .* this worker was started with --unsandboxed-commands/);
        await server.stop();
        await worker.stop();
      } finally {
        http.kill();
      }
    });
  });

  /** Waits until every one of these matches has ended (finished or aborted); their rows. */
  async function allEnded(api: ReturnType<typeof apiClient>, ids: string[], ms: number): Promise<Match[]> {
    return until(
      'every match to end',
      async () => {
        const rows = await Promise.all(ids.map(async (id) => (await api('GET', `/api/matches/${id}`)).body as unknown as Match));
        return rows.every((m) => m.status === 'finished' || m.status === 'aborted') ? rows : null;
      },
      ms,
    );
  }

  /** The matches queued or running in the place's database, with their jobs' states (for a failure's message). */
  async function underWay(at: ClusterPlace): Promise<string> {
    const store = await openStore(at.database);
    const queue = new BullMatchQueue({ url: at.redis, prefix: at.prefix });
    try {
      const rows = [...(await store.listMatches({ status: 'running', limit: 20 })).items, ...(await store.listMatches({ status: 'queued', limit: 20 })).items];
      const said = await Promise.all(
        rows.map(async (m) => `${m.id} ${m.status} (worker ${m.worker ?? '-'}, tries ${m.tries}, job ${await queue.state(m.id)})`),
      );
      return said.join('; ') || 'none';
    } finally {
      await queue.close();
      await store.close();
    }
  }

  /** Matches in a status, counted in the place's database. */
  async function countIn(at: ClusterPlace, status: 'queued' | 'running'): Promise<number> {
    const store = await openStore(at.database);
    try {
      return await store.countMatches({ status });
    } finally {
      await store.close();
    }
  }
}

/** Reads an SSE stream's events (their JSON) until it ends or `close()`. */
function sseCollect(url: string): { events: Record<string, unknown>[]; done: Promise<Record<string, unknown>[]>; close(): void } {
  const events: Record<string, unknown>[] = [];
  const stream = readSse(url, (data) => events.push(data as Record<string, unknown>));
  return { events, done: stream.done.then(() => events), close: stream.close };
}
