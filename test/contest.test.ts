// A contest end to end on real parts (issue 38's proof): `botarena serve --queue` and `botarena worker` processes
// on a private Postgres and a redis-server of the test's own, six entrants (two built-ins, an HTTP bot this test
// serves, an uploaded bot, two command bots), a double round robin on two boards; the server and the worker are killed (-9) in
// the middle of the final and started again; the final completes with every planned match once (rows, links and
// replays counted), the archive downloads, `botarena contest verify` passes on it and fails on a copy where one
// result was edited, and on one where one replay was altered. Without Postgres or Redis it skips, saying why
// (under CI, BOTARENA_CI, it fails).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readArchive, writeArchive } from '../src/contests/archive.js';
import { openStore } from '../src/store/index.js';
import { testPostgres, type TestPostgres } from '../src/store/pg.kit.js';
import { CLUSTER_ADMIN, killAll, startQueueServer, startWorkerProcess, type ClusterPlace, type ClusterProcess } from './cluster.kit.js';
import { testRedis, type TestRedis } from './redis.kit.js';
import { ROOT, runCli } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

const pg = await testPostgres();
const redis = await testRedis();
const missing = 'missing' in pg ? `Postgres: ${pg.missing}` : 'missing' in redis ? `Redis: ${redis.missing}` : null;

const pace = (seconds: number) => `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} ${seconds}`;

/** A tic-tac-toe bot over HTTP that plays the last free cell, after `delayMs`. */
function httpBot(delayMs: number): Promise<{ url: string; server: Server; calls: () => number }> {
  let calls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d));
    req.on('end', () => {
      calls++;
      const msg = JSON.parse(body) as { action: string; board?: Record<string, string> };
      const answer =
        msg.action === 'init'
          ? { name: 'last-cell' }
          : {
              play: Object.entries(msg.board ?? {})
                .filter(([, v]) => v === '')
                .map(([k]) => k)
                .at(-1),
            };
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)), delayMs);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server, calls: () => calls })),
  );
}

type ContestAnswer = {
  status: string;
  progress: { planned: number; queued: number; running: number; finished: number; aborted: number; total: number | null };
  entries: { name: string; frozen: { kind: string; sha256?: string | null; doctor?: unknown } | null }[];
};

if (missing) {
  describe('a contest end to end (server, worker, Postgres, Redis)', () => {
    it('runs on a real Postgres and Redis', (t) => {
      if (process.env.BOTARENA_CI) assert.fail(`CI must run the contest test: ${missing}`);
      t.skip(missing);
    });
  });
} else {
  const db = pg as TestPostgres;
  const rd = redis as TestRedis;
  const dir = mkdtempSync(join(tmpdir(), 'botarena-contest-'));
  let http: Awaited<ReturnType<typeof httpBot>> | null = null;
  after(async () => {
    killAll();
    http?.server.close();
    await rd.stop();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('a contest end to end (server, worker, Postgres, Redis)', () => {
    it('six entrants, a double round robin on two boards, server and worker killed mid-final: every match once, and the archive verifies', async () => {
      const at: ClusterPlace = { database: await db.newDatabase(), redis: rd.url, prefix: `c${randomBytes(4).toString('hex')}` };
      const serverArgs = ['--no-ladder', '--allow-private-bots', '--concurrency', '3', '--uploads', 'python3', '--upload-cache', join(dir, 'server-cache')];
      const workerArgs = ['--concurrency', '3', '--uploads', 'python3', '--upload-cache', join(dir, 'worker-cache')];
      let server = await startQueueServer(at, serverArgs);
      let worker: ClusterProcess = await startWorkerProcess(at, 'w1', workerArgs);
      const api = apiClient(() => server.url);
      http = await httpBot(5);

      // Entrants: an uploaded bot, two command bots and the HTTP bot, registered by their owners; two built-ins the admin enters.
      const owned: { name: string; id: string; token: string }[] = [];
      const form = new FormData();
      form.set('game', 'tictactoe');
      form.set('name', 'uploaded');
      form.set('code', new Blob([readFileSync('examples/tictactoe-python/bot.py')]), 'bot.py');
      const up = await fetch(`${server.url}/api/bots`, { method: 'POST', body: form });
      assert.equal(up.status, 201, await up.clone().text());
      const upBody = (await up.json()) as { bot: { id: string }; token: string; version: { sha256: string } };
      owned.push({ name: 'uploaded', id: upBody.bot.id, token: upBody.token });
      await until('the upload to pass its check', async () => (await api('GET', `/api/bots/${upBody.bot.id}`)).body?.version === 1, 90_000);
      for (const [name, endpoint] of [
        ['pace-a', pace(0.03)],
        ['pace-b', pace(0.05)],
        ['last-cell', http.url],
      ] as const) {
        const r = await api('POST', '/api/bots', { game: 'tictactoe', name, endpoint });
        assert.equal(r.status, 201, JSON.stringify(r.body));
        owned.push({ name, id: (r.body!.bot as { id: string }).id, token: r.body!.token as string });
      }
      const hour = 3_600_000;
      const created = await api(
        'POST',
        '/api/contests',
        {
          id: 'kill-cup',
          name: 'Kill -9 cup',
          game: 'tictactoe',
          configs: [
            { label: 'empty', config: {} },
            { label: 'corner', config: { board: 'X../.../...' } },
          ],
          format: 'double-round-robin',
          gamesPerPairing: 1,
          timeRules: { turnMs: 3000 },
          seed: 2038,
          opensAt: new Date(Date.now() - hour).toISOString(),
          closesAt: new Date(Date.now() + hour).toISOString(),
        },
        CLUSTER_ADMIN,
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      for (const b of owned) assert.equal((await api('POST', '/api/contests/kill-cup/entries', { bot: b.id }, b.token)).status, 201, b.name);
      for (const b of ['random', 'minimax']) assert.equal((await api('POST', '/api/contests/kill-cup/entries', { bot: b }, CLUSTER_ADMIN)).status, 201, b);

      const started = await api('POST', '/api/contests/kill-cup/start', undefined, CLUSTER_ADMIN);
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const s = started.body as unknown as ContestAnswer;
      assert.equal(s.status, 'running');
      // 15 pairings × 2 (sides swapped) × 2 boards.
      assert.equal(s.progress.total, 60);
      const frozen = Object.fromEntries(s.entries.map((e) => [e.name, e.frozen]));
      assert.equal(frozen['last-cell']?.kind, 'url');
      assert.ok(frozen['last-cell']?.doctor, "the URL bot's doctor report at the freeze is kept");
      assert.equal(frozen['minimax']?.kind, 'builtin');
      assert.equal(frozen['pace-a']?.kind, 'command');
      assert.equal(frozen['uploaded']?.kind, 'upload');
      assert.equal(frozen['uploaded']?.sha256, upBody.version.sha256, "the upload's version is fixed by its sha256");

      // Mid-final: some matches finished, one running on the worker; then both are killed.
      const contest = async () => (await api('GET', '/api/contests/kill-cup')).body as unknown as ContestAnswer;
      await until(
        'ten matches of the final finished and one running',
        async () => {
          const p = (await contest()).progress;
          return p.finished >= 10 && p.running >= 1;
        },
        60_000,
      );
      const before = (await contest()).progress;
      await Promise.all([server.kill(), worker.kill()]);
      console.log(`# killed the server and the worker (-9) with ${before.finished} matches finished and ${before.running} running`);
      assert.ok(before.finished < 60, 'the kill came mid-final');

      server = await startQueueServer(at, serverArgs);
      worker = await startWorkerProcess(at, 'w2', workerArgs);
      const done = await until(
        'the final to end',
        async () => {
          const c = await contest();
          return c.status === 'done' ? c : null;
        },
        90_000,
      );
      assert.deepEqual(
        { ...done.progress },
        { planned: 60, queued: 0, running: 0, finished: 60, aborted: 0, total: 60 },
        'every planned match finished, none given up',
      );

      // Every planned match once: 60 contest matches, 60 plan keys, 60 replays; some match was started twice.
      const store = await openStore(at.database);
      try {
        const matches = await store.contestMatches('kill-cup');
        assert.equal(matches.length, 60);
        assert.equal(new Set(matches.map((m) => m.key)).size, 60);
        assert.equal(await store.countMatches({ kind: 'contest' }), 60, 'one matches row per planned match');
        let replays = 0;
        for (const m of matches) if (await store.getReplay(m.match.id)) replays++;
        assert.equal(replays, 60, 'one replay per match');
        assert.ok(
          matches.some((m) => m.match.tries > 1),
          `a match the killed worker held was started again: tries ${matches.map((m) => m.match.tries).join(' ')}`,
        );
        assert.ok(
          matches.every((m) => !m.match.rated),
          'no match of the final is rated',
        );
        for (const b of owned) assert.deepEqual(await store.ratingsOf(b.id), [], `${b.name}: the final moves no rating`);
      } finally {
        await store.close();
      }

      const results = await api('GET', '/api/contests/kill-cup/results');
      assert.equal(results.body!.final, true);
      const standings = (results.body!.results as { standings: { name: string; games: number }[] }).standings;
      assert.equal(standings.length, 6);
      assert.ok(
        standings.every((x) => x.games === 20),
        'each entrant played 20 games',
      );

      // The archive downloads and verifies; an edited result or an altered replay does not.
      const res = await fetch(`${server.url}/api/contests/kill-cup/archive`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/gzip');
      const bytes = Buffer.from(await res.arrayBuffer());
      const file = join(dir, 'kill-cup.tar.gz');
      writeFileSync(file, bytes);
      const ok = await runCli(['contest', 'verify', file], { timeoutMs: 60_000 });
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);

      const archive = await readArchive(bytes);
      assert.equal(archive.matches.length, 60);
      const edited = { ...archive, matches: archive.matches.map((l, i) => (i === 7 ? { ...l, winner: l.winner === 0 ? 1 : 0, draw: false } : l)) };
      writeFileSync(join(dir, 'edited.tar.gz'), writeArchive(edited));
      const bad = await runCli(['contest', 'verify', join(dir, 'edited.tar.gz')], { timeoutMs: 60_000 });
      assert.equal(bad.code, 1, bad.stdout + bad.stderr);
      assert.match(bad.stdout + bad.stderr, /match \d+ \(r0:/);

      const line = archive.matches[3]!;
      const replay = archive.replays.get(line.replay)!;
      archive.replays.set(line.replay, { ...replay, seed: (replay.seed + 1) >>> 0 });
      writeFileSync(join(dir, 'altered.tar.gz'), writeArchive(archive));
      const bad2 = await runCli(['contest', 'verify', join(dir, 'altered.tar.gz')], { timeoutMs: 60_000 });
      assert.notEqual(bad2.code, 0, bad2.stdout + bad2.stderr);

      await server.stop();
      await worker.stop();
    });
  });
}
