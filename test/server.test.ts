import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { runCli } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// The arena server as an organiser runs it: a real SQLite file, real HTTP on 127.0.0.1, a real Python bot.

const dir = mkdtempSync(join(tmpdir(), 'botarena-server-'));
let server: RunningServer;
const api = apiClient(() => server.url);

before(async () => {
  const quiet = process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() });
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: join(dir, 'arena.sqlite'),
    allowCommands: true,
    // The bad-input cases register http://example.com/, which need not resolve where the tests run: no address check.
    allowPrivateBots: true,
    logStream: quiet,
    perBotPerHour: 6,
    concurrency: 2,
    gateway: false,
  });
});
after(async () => {
  await server.close(2000);
  rmSync(dir, { recursive: true, force: true });
});

describe('botarena serve', () => {
  let botId = '';
  let token = '';

  it('registers a bot, checks it with the doctor, and shows the token once', async () => {
    const r = await api('POST', '/api/bots', { game: 'tictactoe', name: 'pybot', endpoint: 'stdio:python3 examples/tictactoe-python/bot.py' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    botId = (r.body!.bot as { id: string }).id;
    token = r.body!.token as string;
    assert.match(token, /^bat_/);
    const bot = await until('the check', async () => {
      const b = await api('GET', `/api/bots/${botId}`);
      return b.body!.status !== 'checking' ? b.body : null;
    });
    assert.equal(bot.status, 'active', String(bot.statusReason));
    assert.ok(bot.doctor, 'the doctor report is kept and shown');
    assert.ok(!JSON.stringify(bot).includes('scrypt'), 'the token hash is never shown');
  });

  it('refuses a broken bot with the reason, after the check', async () => {
    writeFileSync(join(dir, 'broken.py'), 'import sys\nfor line in sys.stdin:\n    print("hello", flush=True)\n');
    const r = await api('POST', '/api/bots', { game: 'tictactoe', name: 'broken', endpoint: `stdio:python3 ${join(dir, 'broken.py')}` });
    assert.equal(r.status, 201);
    const id = (r.body!.bot as { id: string }).id;
    const bot = await until('the check', async () => {
      const b = await api('GET', `/api/bots/${id}`);
      return b.body!.status !== 'checking' ? b.body : null;
    });
    assert.equal(bot.status, 'paused');
    assert.match(String(bot.statusReason), /^the doctor check failed: /);
  });

  /** Registers a tic-tac-toe bot, waits for its check, expects it active, and deletes it again. */
  async function activatedThenDeleted(name: string, endpoint: string): Promise<void> {
    const r = await api('POST', '/api/bots', { game: 'tictactoe', name, endpoint });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = (r.body!.bot as { id: string }).id;
    const bot = await until('the check', async () => {
      const b = await api('GET', `/api/bots/${id}`);
      return b.body!.status !== 'checking' ? b.body : null;
    });
    assert.equal(bot.status, 'active', String(bot.statusReason));
    // Off the ladder again: the tests below count the first bot's matches.
    assert.equal((await api('DELETE', `/api/bots/${id}`, undefined, r.body!.token as string)).status, 204);
  }

  it('an exec: bot (one process per message) passes the check and is activated', async () => {
    await activatedThenDeleted('execbot', 'exec:python3 test/fixtures/doctor/ttt-exec.py');
  });

  it('a bot that fails at the hello and then plays (as the original Go bot panics at init) is activated: the rules ignore the hello', async () => {
    await activatedThenDeleted('panicky', 'exec:python3 test/fixtures/doctor/ttt-exec-panic.py');
  });

  it('plays the ladder: ratings move, the replay downloads and verifies', async () => {
    const board = await until('rated ladder matches', async () => {
      const b = await api('GET', '/api/leaderboards/tictactoe');
      const mine = (b.body as unknown as { botId: string; games: number }[]).find((r) => r.botId === botId);
      return mine && mine.games >= 3 ? (b.body as unknown as { botId: string; games: number; rating: number }[]) : null;
    });
    assert.ok(
      board.every((r, i) => i === 0 || r.rating <= board[i - 1]!.rating),
      'best first',
    );
    const list = await api('GET', `/api/matches?bot=${botId}&status=finished&limit=2`);
    const items = list.body!.items as { id: string; kind: string; rated: boolean }[];
    assert.equal(items.length, 2);
    assert.equal(items[0]!.kind, 'ladder');
    const res = await fetch(`${server.url}/api/matches/${items[0]!.id}/replay`);
    assert.equal(res.status, 200);
    const file = join(dir, 'replay.json');
    writeFileSync(file, await res.text());
    const verify = await runCli(['replay', 'verify', file]);
    assert.equal(verify.code, 0, verify.stderr);
    const history = await api('GET', `/api/bots/${botId}/ratings`);
    assert.ok((history.body!.elo as unknown[]).length >= 3);
  });

  it('paces the ladder: 5 matches back to back for a newcomer, then none until the pace allows (6 an hour)', async () => {
    const ladder = async () => ((await api('GET', `/api/matches?bot=${botId}&kind=ladder&limit=100`)).body!.items as unknown[]).length;
    await until('five ladder matches', async () => (await ladder()) >= 5);
    await new Promise((r) => setTimeout(r, 4500)); // the ladder looks for free bots every 2 s
    assert.equal(await ladder(), 5);
  });

  it('keeps the full message logs for the owner only', async () => {
    const list = await api('GET', `/api/matches?bot=${botId}&status=finished&limit=1`);
    const m = (list.body!.items as { id: string; seats: { botId: string }[] }[])[0]!;
    const slot = m.seats.findIndex((s) => s.botId === botId);
    const denied = await api('GET', `/api/matches/${m.id}/logs/${slot}`);
    assert.equal(denied.status, 401);
    const wrong = await api('GET', `/api/matches/${m.id}/logs/${slot}`, undefined, 'bat_not-the-token');
    assert.equal(wrong.status, 403);
    const logs = await api('GET', `/api/matches/${m.id}/logs/${slot}`, undefined, token);
    assert.equal(logs.status, 200);
    assert.ok(JSON.stringify(logs.body).includes('"send"'));
  });

  it('streams a finished match as server-sent events, ending with its result', async () => {
    const list = await api('GET', `/api/matches?bot=${botId}&status=finished&limit=1`);
    const id = (list.body!.items as { id: string }[])[0]!.id;
    const text = await (await fetch(`${server.url}/api/matches/${id}/events`)).text();
    assert.match(text, /^event: started\n/);
    assert.match(text, /event: step\n/);
    assert.match(text, /event: ended\ndata: \{.*"result"/);
  });

  it('answers bad input with a 4xx and a message a person can act on', async () => {
    const cases: [string, string, unknown, number, RegExp, string?][] = [
      ['POST', '/api/bots', { game: 'chess', name: 'x', endpoint: 'http://example.com/' }, 400, /no game "chess"/],
      ['POST', '/api/bots', { game: 'tictactoe', name: 'pybot', endpoint: 'http://example.com/' }, 409, /pybot/],
      ['POST', '/api/bots', { game: 'tictactoe', name: 'x' }, 400, /"endpoint" is missing/],
      ['POST', '/api/bots', { game: 'tictactoe', name: 'x', endpoint: 'ftp://example.com/bot' }, 400, /^endpoint: /],
      ['POST', '/api/bots', { game: 'tictactoe', name: 'x', endpoint: 'random' }, 400, /is a built-in bot/],
      ['PATCH', `/api/bots/${botId}`, { description: 'mine now' }, 403, /not the owner token/, 'bat_wrong'],
      ['POST', '/api/bots', { game: 'tictactoe', name: 'x', endpoint: 'http://example.com/', extra: 1 }, 400, /unknown field "extra"/],
      ['POST', '/api/bots', '{"game": "tictactoe", ', 400, /not valid JSON/],
      ['POST', '/api/bots', { game: 'tictactoe', name: 'x'.repeat(100), endpoint: 'http://example.com/' }, 400, /at most 64 characters/],
      [
        'POST',
        '/api/bots',
        { game: 'tictactoe', name: 'big', endpoint: 'http://example.com/', description: 'x'.repeat(200_000) },
        413,
        /larger than the 64 KiB/,
      ],
      ['PATCH', `/api/bots/${botId}`, { description: 'mine now' }, 401, /owner token/],
      ['GET', '/api/matches/nope', undefined, 404, /no match nope/],
      ['GET', '/api/nothing', undefined, 404, /no route GET \/api\/nothing/],
      ['POST', '/api/matches', { game: 'tictactoe', seats: ['pybot'] }, 400, /played by 2 bots; got 1/],
    ];
    for (const [method, path, body, status, message, token] of cases) {
      const r = await api(method, path, body, token);
      assert.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.body)}`);
      assert.match(r.body!.error!.message, message, `${method} ${path}`);
    }
  });

  it('starts an on-demand match between chosen bots, and lets the owner pause the bot', async () => {
    const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['pybot', 'minimax'], test: true });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = r.body!.id as string;
    const done = await until('the match', async () => {
      const m = await api('GET', `/api/matches/${id}`);
      return m.body!.status === 'finished' ? m.body : null;
    });
    assert.equal(done.rated, false);
    const paused = await api('PATCH', `/api/bots/${botId}`, { status: 'paused' }, token);
    assert.equal(paused.status, 200);
    assert.equal(paused.body!.status, 'paused');
    assert.equal(paused.body!.statusReason, 'paused by its owner');
  });

  it('serves its OpenAPI document', async () => {
    const doc = await api('GET', '/docs/json');
    assert.equal(doc.status, 200);
    assert.ok((doc.body!.paths as Record<string, unknown>)['/api/bots']);
  });
});
