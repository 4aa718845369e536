import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { testPostgres } from '../src/store/pg.kit.js';
import { apiClient, until } from './server.kit.js';

// The arena server on Postgres (DATABASE_URL=postgres://…), as on SQLite: a bot registered, checked, rated on
// the ladder; its replay and logs kept; everything still there when the server starts again on the database.
// Without a Postgres the test skips, saying why; under CI (BOTARENA_CI) it fails.
const pg = await testPostgres();

if ('missing' in pg) {
  describe('botarena serve on Postgres', () => {
    it('runs the server on a real Postgres', (t) => {
      if (process.env.BOTARENA_CI) assert.fail(`Postgres is missing, and CI must run the server on Postgres: ${pg.missing}`);
      t.skip(`Postgres is missing: ${pg.missing}`);
    });
  });
} else {
  describe(`botarena serve on Postgres (${pg.source})`, () => {
    let server: RunningServer | null = null;
    const api = apiClient(() => server!.url);
    after(async () => {
      await server?.close(2000);
      await pg.stop();
    });
    const start = async (database: string) => {
      const quiet = process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() });
      server = await startServer({ port: 0, host: '127.0.0.1', database, allowCommands: true, logStream: quiet, gateway: false });
    };

    it('registers, checks, rates on the ladder, keeps replays and logs, and keeps it all across a restart', async () => {
      const database = await pg.newDatabase();
      await start(database);
      const r = await api('POST', '/api/bots', { game: 'tictactoe', name: 'pybot', endpoint: 'stdio:python3 examples/tictactoe-python/bot.py' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const id = (r.body!.bot as { id: string }).id;
      const token = r.body!.token as string;
      await until('the check', async () => (await api('GET', `/api/bots/${id}`)).body!.status === 'active', 60_000);
      const finished = await until(
        'three rated ladder matches',
        async () => {
          const m = await api('GET', `/api/matches?bot=${id}&status=finished&kind=ladder`);
          const items = m.body!.items as { id: string; rated: boolean; seats: { botId: string }[] }[];
          return items.length >= 3 ? items : null;
        },
        60_000,
      );
      const replay = await fetch(`${server!.url}/api/matches/${finished[0]!.id}/replay`, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(replay.status, 200);
      const parsed = JSON.parse(await replay.text()) as { game: string; steps: unknown[] };
      assert.equal(parsed.game, 'tictactoe');
      const slot = finished[0]!.seats.findIndex((s) => s.botId === id);
      const logs = await api('GET', `/api/matches/${finished[0]!.id}/logs/${slot}`, undefined, token);
      assert.equal(logs.status, 200);
      const board = async () =>
        ((await api('GET', '/api/leaderboards/tictactoe')).body as unknown as { botId: string; games: number; rating: number }[]).find((b) => b.botId === id)!;
      assert.ok((await board()).games >= 3);

      await server!.close(5000);
      server = null;
      await start(database);
      await api('PATCH', `/api/bots/${id}`, { status: 'paused' }, token); // the ladder stands still while we compare
      await until('no match running', async () => ((await api('GET', '/api/matches?status=running')).body!.items as unknown[]).length === 0);
      const after = await board();
      const history = (await api('GET', `/api/bots/${id}/ratings`)).body!.elo as { matchId: string; after: number }[];
      assert.equal(history.length, after.games, 'one rating change per rated match, none lost');
      assert.equal(history.at(-1)!.after, after.rating);
      const count = (await api('GET', `/api/matches?bot=${id}&status=finished&kind=ladder&limit=100`)).body!.items as unknown[];
      assert.equal(count.length, after.games);
    });
  });
}
