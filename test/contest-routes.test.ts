// The contest routes against a real server (SQLite file, 127.0.0.1) and hostile clients: who may create, enter,
// freeze and start; bodies that are too big, too deep or wrong, each refused with what was wrong; entries twice,
// before the window and after the freeze.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { readArchive } from '../src/contests/archive.js';
import { verifyArchive } from '../src/contests/verify.js';
import { apiClient, until } from './server.kit.js';

const ADMIN = 'admin-secret-contests-0123456789';
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });
const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A definition whose entry window is open now (unless told otherwise). */
const definition = (o: Record<string, unknown> = {}) => ({
  id: 'spring-cup',
  name: 'Spring cup',
  game: 'tictactoe',
  configs: [
    { label: 'empty', config: {} },
    { label: 'corner', config: { board: 'X../.../...' } },
  ],
  format: 'double-round-robin',
  gamesPerPairing: 1,
  timeRules: { turnMs: 2000 },
  seed: 38,
  opensAt: iso(Date.now() - hour),
  closesAt: iso(Date.now() + hour),
  ...o,
});

describe('contest routes', () => {
  let dir: string;
  let server: RunningServer;
  const api = apiClient(() => server.url);
  const bots: { id: string; token: string }[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-contest-routes-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'arena.sqlite'),
      logStream: quiet(),
      ladder: false,
      gateway: false,
      allowPrivateBots: true,
      checkBots: false,
      adminToken: ADMIN,
      limits: { registrations: 1000, matches: 1000 },
    });
    for (const name of ['alpha', 'beta']) {
      const r = await api('POST', '/api/bots', { game: 'tictactoe', name, endpoint: `http://127.0.0.1:9/${name}` });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      bots.push({ id: (r.body!.bot as { id: string }).id, token: r.body!.token as string });
    }
  });
  after(async () => {
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a contest with the admin token only: none is 401, an owner token 403', async () => {
    const none = await api('POST', '/api/contests', definition());
    assert.equal(none.status, 401);
    assert.match(none.body!.error!.message, /admin token/);
    const owner = await api('POST', '/api/contests', definition(), bots[0]!.token);
    assert.equal(owner.status, 403);
    assert.equal(((await api('GET', '/api/contests')).body as unknown as unknown[]) instanceof Array, true);
    assert.deepEqual((await api('GET', '/api/contests')).body, [], 'nothing was created');
    for (const path of ['/api/contests/spring-cup/freeze', '/api/contests/spring-cup/start']) {
      assert.equal((await api('POST', path)).status, 401, path);
      assert.equal((await api('POST', path, undefined, bots[0]!.token)).status, 403, path);
    }
  });

  it('refuses a body over 64 KiB (413) and a deep one (400) at once, before reading it as a definition', async () => {
    const big = await api('POST', '/api/contests', definition({ name: 'x'.repeat(70_000) }), ADMIN);
    assert.equal(big.status, 413);
    // 30 000 levels of nesting within the size cap: parsed and refused by its field, the server answering on.
    const deep = `{"id":"deep","name":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
    const t0 = Date.now();
    const r = await api('POST', '/api/contests', deep, ADMIN);
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.ok(Date.now() - t0 < 2000, `answered in ${Date.now() - t0} ms`);
    // A big body without the admin token is refused before it is read.
    const anon = await api('POST', '/api/contests', definition({ name: 'x'.repeat(60_000) }));
    assert.equal(anon.status, 401);
    assert.equal((await api('GET', '/healthz')).status, 200);
  });

  it('says which key of a bad definition is wrong and what it expects', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ format: 'league' }, /"format" must be one of round-robin, double-round-robin, swiss, knockout/],
      [{ seed: -1 }, /"seed"/],
      [{ prize: 100 }, /"prize" is not a field of a contest/],
      [{ game: 'chess' }, /"game" must be one of the games/],
      [{ id: 'Spring Cup!' }, /"id"/],
      [{ configs: [{ label: 'odd', config: { board: 'XXXX' } }] }, /configs/],
      [{ gamesPerPairing: 1e9 }, /"gamesPerPairing"/],
      [{ closesAt: 'tomorrow' }, /"closesAt"/],
    ];
    for (const [o, want] of cases) {
      const r = await api('POST', '/api/contests', definition(o), ADMIN);
      assert.equal(r.status, 400, `${JSON.stringify(o)}: ${JSON.stringify(r.body)}`);
      assert.match(r.body!.error!.message, want, JSON.stringify(o));
    }
    assert.equal((await api('POST', '/api/contests', '[1,2]', ADMIN)).status, 400);
    assert.deepEqual((await api('GET', '/api/contests')).body, []);
  });

  it('takes entries by owner (or admin for a built-in) once each, and none after the freeze', async () => {
    const created = await api('POST', '/api/contests', definition(), ADMIN);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body!.status, 'entry');
    assert.equal((await api('POST', '/api/contests', definition(), ADMIN)).status, 409, 'an id is taken once');

    const [alpha, beta] = bots as [{ id: string; token: string }, { id: string; token: string }];
    assert.equal((await api('POST', '/api/contests/spring-cup/entries', { bot: alpha.id })).status, 401, 'no token');
    assert.equal((await api('POST', '/api/contests/spring-cup/entries', { bot: alpha.id }, beta.token)).status, 403, "another owner's token");
    assert.equal((await api('POST', '/api/contests/spring-cup/entries', { bot: 'random' }, alpha.token)).status, 403, 'a built-in by an owner');
    const bad = await api('POST', '/api/contests/spring-cup/entries', { bot: alpha.id, extra: 1 }, alpha.token);
    assert.equal(bad.status, 400);
    assert.match(bad.body!.error!.message, /unknown field "extra"/);
    assert.equal((await api('POST', '/api/contests/spring-cup/entries', { bot: 'nobody' }, ADMIN)).status, 400);
    assert.equal((await api('POST', '/api/contests/nope/entries', { bot: alpha.id }, alpha.token)).status, 404);

    const entered = await api('POST', '/api/contests/spring-cup/entries', { bot: alpha.id }, alpha.token);
    assert.equal(entered.status, 201, JSON.stringify(entered.body));
    const twice = await api('POST', '/api/contests/spring-cup/entries', { bot: 'alpha' }, alpha.token);
    assert.equal(twice.status, 409);
    assert.match(twice.body!.error!.message, /alpha has entered contest spring-cup already/);
    assert.equal((await api('POST', '/api/contests/spring-cup/entries', { bot: 'random' }, ADMIN)).status, 201, 'the admin enters a built-in');

    const frozen = await api('POST', '/api/contests/spring-cup/freeze', undefined, ADMIN);
    assert.equal(frozen.status, 200, JSON.stringify(frozen.body));
    assert.equal(frozen.body!.status, 'frozen');
    const entries = frozen.body!.entries as { name: string; frozen: { kind: string; spec: string } | null }[];
    assert.deepEqual(entries.map((e) => [e.name, e.frozen?.kind]).sort(), [
      ['alpha', 'url'],
      ['random', 'builtin'],
    ]);
    const late = await api('POST', '/api/contests/spring-cup/entries', { bot: beta.id }, beta.token);
    assert.equal(late.status, 409);
    assert.match(late.body!.error!.message, /takes no more entries: it is frozen/);

    const one = await api('GET', '/api/contests/spring-cup');
    assert.equal(one.status, 200);
    assert.deepEqual(one.body!.progress, { planned: 0, queued: 0, running: 0, finished: 0, aborted: 0, total: 4 });
    assert.match(String(one.body!.practice), /\/api\/leaderboards\/tictactoe/);
    assert.equal((await api('GET', '/api/contests/spring-cup/archive')).status, 409, 'no archive before the final is over');
    const results = await api('GET', '/api/contests/spring-cup/results');
    assert.deepEqual([results.status, results.body!.final, results.body!.results], [200, false, null]);
    assert.equal((await api('GET', '/api/contests/nope')).status, 404);
  });

  it('refuses an entry before the window opens or after it closed, and a bot of another game', async () => {
    const soon = definition({ id: 'later-cup', opensAt: iso(Date.now() + hour), closesAt: iso(Date.now() + 2 * hour) });
    assert.equal((await api('POST', '/api/contests', soon, ADMIN)).status, 201);
    const early = await api('POST', '/api/contests/later-cup/entries', { bot: bots[1]!.id }, bots[1]!.token);
    assert.equal(early.status, 409);
    assert.match(early.body!.error!.message, /takes entries from/);

    const tron = await api('POST', '/api/bots', { game: 'tron', name: 'cycle', endpoint: 'http://127.0.0.1:9/cycle' });
    const past = definition({ id: 'past-cup', opensAt: iso(Date.now() - 2 * hour), closesAt: iso(Date.now() + 1500) });
    assert.equal((await api('POST', '/api/contests', past, ADMIN)).status, 201);
    const other = await api('POST', '/api/contests/past-cup/entries', { bot: (tron.body!.bot as { id: string }).id }, tron.body!.token as string);
    assert.equal(other.status, 400);
    assert.match(other.body!.error!.message, /cycle plays tron; contest past-cup is played in tictactoe/);
    await new Promise((r) => setTimeout(r, 1600));
    const closed = await api('POST', '/api/contests/past-cup/entries', { bot: bots[1]!.id }, bots[1]!.token);
    assert.equal(closed.status, 409);
    assert.match(closed.body!.error!.message, /closed|frozen/);
    // The runner freezes a contest whose window closed by itself, on the server's clock.
    await until('past-cup frozen by the runner', async () => (await api('GET', '/api/contests/past-cup')).body!.status === 'frozen', 5000);
    assert.equal((await api('GET', '/api/contests/later-cup')).body!.status, 'entry', 'a window still open stays open');
  });

  it('plans a knockout round by round: the final is created once the semi-finals are played', async () => {
    const bot = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        const msg = JSON.parse(body) as { action: string; board?: Record<string, string> };
        const free = Object.entries(msg.board ?? {}).filter(([, v]) => v === '');
        res.end(JSON.stringify(msg.action === 'init' ? { name: 'first' } : { play: free[0]![0] }));
      });
    });
    await new Promise<void>((r) => bot.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(bot.address() as AddressInfo).port}/`;
      const def = definition({ id: 'knock-cup', format: 'knockout', configs: [{ label: 'empty', config: {} }], gamesPerPairing: 2 });
      assert.equal((await api('POST', '/api/contests', def, ADMIN)).status, 201);
      for (const name of ['first-a', 'first-b']) {
        const r = await api('POST', '/api/bots', { game: 'tictactoe', name, endpoint: url });
        assert.equal((await api('POST', '/api/contests/knock-cup/entries', { bot: name }, r.body!.token as string)).status, 201);
      }
      for (const b of ['random', 'minimax']) assert.equal((await api('POST', '/api/contests/knock-cup/entries', { bot: b }, ADMIN)).status, 201);
      assert.equal((await api('POST', '/api/contests/knock-cup/start', undefined, ADMIN)).status, 200);
      await until('knock-cup done', async () => (await api('GET', '/api/contests/knock-cup')).body!.status === 'done', 60_000);
      type Listed = { key: string; matchId: string; status: string };
      const matches = (await api('GET', '/api/contests/knock-cup/matches')).body as unknown as Listed[];
      const times = async (m: Listed) => {
        const row = (await api('GET', `/api/matches/${m.matchId}`)).body as { createdAt: string; finishedAt: string };
        return { created: Date.parse(row.createdAt), finished: Date.parse(row.finishedAt) };
      };
      const semis = matches.filter((m) => m.key.startsWith('r0:'));
      const finals = matches.filter((m) => m.key.startsWith('r1:'));
      assert.ok(semis.length >= 4 && finals.length >= 2, matches.map((m) => m.key).join(' '));
      assert.ok(matches.every((m) => m.status === 'finished'));
      const lastSemi = Math.max(...(await Promise.all(semis.map(times))).map((t) => t.finished));
      for (const f of finals) assert.ok((await times(f)).created >= lastSemi, `final ${f.key} was created before the semi-finals ended`);
      const results = (await api('GET', '/api/contests/knock-cup/results')).body!.results as { champion: number | null; standings: unknown[] };
      assert.equal(typeof results.champion, 'number');
      assert.equal(results.standings.length, 4);
    } finally {
      bot.close();
    }
  });

  it('plays a final on the local queue to its end: results published, the archive verifies', async () => {
    const def = definition({ id: 'local-cup', format: 'round-robin', configs: [{ label: 'empty', config: {} }], gamesPerPairing: 2 });
    assert.equal((await api('POST', '/api/contests', def, ADMIN)).status, 201);
    for (const b of ['random', 'minimax']) assert.equal((await api('POST', '/api/contests/local-cup/entries', { bot: b }, ADMIN)).status, 201);
    const started = await api('POST', '/api/contests/local-cup/start', undefined, ADMIN);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal((await api('POST', '/api/contests/local-cup/start', undefined, ADMIN)).status, 409, 'started once');
    await until('local-cup done', async () => (await api('GET', '/api/contests/local-cup')).body!.status === 'done', 30_000);
    const matches = (await api('GET', '/api/contests/local-cup/matches')).body as unknown as { key: string; status: string; config: string }[];
    assert.deepEqual(
      matches.map((m) => [m.status, m.config]),
      [
        ['finished', 'empty'],
        ['finished', 'empty'],
      ],
    );
    const res = await fetch(`${server.url}/api/contests/local-cup/archive`);
    assert.equal(res.status, 200);
    const report = verifyArchive(await readArchive(Buffer.from(await res.arrayBuffer())));
    assert.ok(report.ok, report.differences.join('\n'));
    const results = await api('GET', '/api/contests/local-cup/results');
    assert.equal(results.body!.final, true);
    assert.deepEqual((results.body!.results as { standings: { name: string }[] }).standings.map((x) => x.name).sort(), ['minimax', 'random']);
  });
});
