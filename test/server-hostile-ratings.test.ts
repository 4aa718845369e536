// Issue 34 part 3, "anyone can move anyone's rating", as a hostile client tries it against a real server (HTTP on
// 127.0.0.1, a real SQLite file, real bot processes): rated matches come from the ladder and the admin only, a
// paused bot plays no match on demand, and a test match that seats another owner's bot does not show that bot's
// messages to whoever started it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { apiClient, until } from './server.kit.js';

const ADMIN = 'admin-secret-ratings-0123456789';
const PYBOT = 'stdio:python3 examples/tictactoe-python/bot.py';

type Seat = { slot: number; botId: string | null; name: string };
type Match = { id: string; status: string; rated: boolean; kind: string; seats: Seat[] };

describe('a hostile client and ratings, paused bots and test-match logs', () => {
  let dir: string;
  let server: RunningServer;
  let urlBot: ChildProcess;
  let url: string;
  const api = apiClient(() => server.url);
  /** Registered bots (each its owner's), checked by the doctor: id and owner token. */
  const bots: Record<string, { id: string; token: string }> = {};

  const finished = (id: string) =>
    until(`match ${id} to finish`, async () => {
      const m = (await api('GET', `/api/matches/${id}`)).body as unknown as Match;
      return m.status === 'finished' ? m : m.status === 'aborted' ? assert.fail(`match ${id} was aborted`) : null;
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-hostile-ratings-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'arena.sqlite'),
      logStream: new Writable({ write: (_c, _e, cb) => cb() }),
      ladder: false,
      gateway: false,
      allowCommands: true,
      allowPrivateBots: true,
      adminToken: ADMIN,
    });
    for (const name of ['victim', 'other-owners']) {
      const r = await api('POST', '/api/bots', { game: 'tictactoe', name, endpoint: PYBOT });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      bots[name] = { id: (r.body!.bot as { id: string }).id, token: r.body!.token as string };
    }
    for (const [name, b] of Object.entries(bots))
      await until(`${name} to pass its check`, async () => (await api('GET', `/api/bots/${b.id}`)).body!.status === 'active');
    urlBot = spawn(process.execPath, ['test/fixtures/broken-http-bot.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve) => urlBot.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    url = `http://127.0.0.1:${port}/`;
  });
  after(async () => {
    urlBot?.kill('SIGKILL');
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('six anonymous rated requests against a bot are refused and leave its rating as it was; the admin may still ask for one', async () => {
    const victim = bots.victim!;
    // The admin's rated match gives the bot a rating to defend.
    const byAdmin = await api('POST', '/api/matches', { game: 'tictactoe', seats: [victim.id, 'minimax'], rated: true, seed: 1 }, ADMIN);
    assert.equal(byAdmin.status, 201, JSON.stringify(byAdmin.body));
    assert.equal(byAdmin.body!.rated, true);
    await finished(byAdmin.body!.id as string);
    const ratingOf = async () => {
      const board = (await api('GET', '/api/leaderboards/tictactoe')).body as unknown as { botId: string; rating: number; games: number }[];
      return board.find((r) => r.botId === victim.id);
    };
    const before = await ratingOf();
    assert.ok(before && before.games === 1, 'rated once, by the admin');

    for (let i = 0; i < 6; i++) {
      const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['victim', 'minimax'], rated: true, seed: i });
      assert.equal(r.status, 403, `request ${i}: ${JSON.stringify(r.body)}`);
      assert.match(r.body!.error!.message, /^rated: rated matches are played by the ladder only \(or asked for with the admin token\)/);
    }
    // Not with a token that is not the admin's either: not the bot's own owner, not a made-up one.
    for (const token of [victim.token, 'bat_made-up', 'viewer_made-up']) {
      const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['victim', 'minimax'], rated: true }, token);
      assert.equal(r.status, 403, JSON.stringify(r.body));
    }
    // The same match unrated is played, and moves nothing.
    const unrated = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['victim', 'minimax'], seed: 2 });
    assert.equal(unrated.status, 201, JSON.stringify(unrated.body));
    assert.equal(unrated.body!.rated, false);
    await finished(unrated.body!.id as string);

    assert.deepEqual(await ratingOf(), before, 'the rating and its games are as they were');
    const history = (await api('GET', `/api/bots/${victim.id}/ratings`)).body as unknown as { elo: { matchId: string }[] };
    assert.deepEqual(
      history.elo.map((h) => h.matchId),
      [byAdmin.body!.id],
    );
    const played = (await api('GET', `/api/matches?bot=${victim.id}`)).body!.items as Match[];
    assert.equal(played.length, 2, 'the refused requests left no match');
  });

  it('a paused bot plays no match on demand, test match or not; the refusal names the bot and why it is paused', async () => {
    const victim = bots.victim!;
    const paused = await api('PATCH', `/api/bots/${victim.id}`, { status: 'paused' }, victim.token);
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    for (const body of [
      { game: 'tictactoe', seats: ['minimax', 'victim'] },
      { game: 'tictactoe', seats: ['minimax', victim.id], test: true },
    ]) {
      const r = await api('POST', '/api/matches', body);
      assert.equal(r.status, 409, JSON.stringify(r.body));
      assert.equal(
        r.body!.error!.message,
        `seats[1]: victim is paused (paused by its owner): a paused bot plays no match until its owner makes it active again (PATCH /api/bots/${victim.id} {"status":"active"})`,
      );
    }
    const byAdmin = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['victim', 'random'], rated: true }, ADMIN);
    assert.equal(byAdmin.status, 409, JSON.stringify(byAdmin.body));
    assert.match(byAdmin.body!.error!.message, /^seats\[0\]: victim is paused/);
    const played = (await api('GET', `/api/matches?bot=${victim.id}`)).body!.items as Match[];
    assert.equal(played.length, 2, 'no match was made of the paused bot');
  });

  it("a test match seating another owner's bot: its viewer token reads the URL seat's and a built-in's logs, not that bot's, which its owner reads", async () => {
    const other = bots['other-owners']!;
    const created = await api('POST', '/api/matches', { game: 'tictactoe', test: true, seats: [url, 'other-owners'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const viewer = created.body!.viewerToken as string;
    const id = created.body!.id as string;
    await finished(id);

    const urlLog = await api('GET', `/api/matches/${id}/logs/0`, undefined, viewer);
    assert.equal(urlLog.status, 200, JSON.stringify(urlLog.body));
    assert.ok((urlLog.body as unknown as { dir: string; text: string }[]).some((e) => e.dir === 'recv' && e.text === 'I think the best move is the centre'));

    const refused = await api('GET', `/api/matches/${id}/logs/1`, undefined, viewer);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(
      refused.body!.error!.message,
      "seat 1 is other-owners, a bot its owner registered: its log is for its owner's token or the admin; the match's viewerToken reads the seats that are no one's registered bot (a bot given by its URL, a built-in bot, a person)",
    );
    for (const token of [other.token, ADMIN]) {
      const log = await api('GET', `/api/matches/${id}/logs/1`, undefined, token);
      assert.equal(log.status, 200, JSON.stringify(log.body));
      assert.ok((log.body as unknown as { dir: string; text: string }[]).some((e) => e.dir === 'send' && e.text.includes('"action":"init"')));
    }
    assert.equal((await api('GET', `/api/matches/${id}/logs/1`, undefined, bots.victim!.token)).status, 403, "another owner's token");
    assert.equal((await api('GET', `/api/matches/${id}/logs/1`)).status, 401);

    // A built-in bot's seat is no one's: the viewer reads it.
    const withBuiltin = await api('POST', '/api/matches', { game: 'tictactoe', test: true, seats: ['other-owners', 'minimax'] });
    assert.equal(withBuiltin.status, 201, JSON.stringify(withBuiltin.body));
    const id2 = withBuiltin.body!.id as string;
    await finished(id2);
    const viewer2 = withBuiltin.body!.viewerToken as string;
    assert.equal((await api('GET', `/api/matches/${id2}/logs/1`, undefined, viewer2)).status, 200);
    assert.equal((await api('GET', `/api/matches/${id2}/logs/0`, undefined, viewer2)).status, 403);
    assert.equal((await api('GET', `/api/matches/${id2}/logs/0`, undefined, viewer)).status, 403, "another match's viewer token");
  });
});
