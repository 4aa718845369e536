// Strict requests against a real server on 127.0.0.1 (issue 34, part 6): a JSON body's types are taken as sent,
// not coerced; game names that are Object's own members are no game; a match's config is checked against the
// game's config schema before any match is created; a URL too long answers in the one error shape; failed
// owner-token checks are throttled per client address before any hashing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { openStore, type Store } from '../src/store/index.js';
import { apiClient, type ApiAnswer } from './server.kit.js';

const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

/** The one error shape, its status and a message matching `message`. */
function refused(a: ApiAnswer, status: number, message: RegExp): void {
  assert.equal(a.status, status, JSON.stringify(a.body));
  const err = (a.body as { error?: { status: number; code: string; message: string } }).error;
  assert.ok(err, `an error body: ${JSON.stringify(a.body)}`);
  assert.equal(err.status, status);
  assert.equal(typeof err.code, 'string');
  assert.match(err.message, message);
}

describe('strict requests on a real server', () => {
  let dir: string;
  let server: RunningServer;
  let store: Store;
  const api = apiClient(() => server.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-strict-'));
    const database = join(dir, 'arena.sqlite');
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database,
      logStream: quiet(),
      ladder: false,
      gateway: false,
      checkBots: false,
      allowPrivateBots: true,
    });
    store = await openStore(database);
  });
  after(async () => {
    await store?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a JSON body as sent: a string seed, a string "rated" or a game in an array is refused, and no match is created', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ game: 'tictactoe', seats: ['random', 'random'], seed: '42' }, /body\.seed: must be an integer, got "42"/],
      [{ game: 'tictactoe', seats: ['random', 'random'], rated: 'true' }, /body\.rated: must be a boolean, got "true"/],
      [{ game: ['tictactoe'], seats: ['random', 'random'] }, /body\.game: must be a string, got \["tictactoe"\]/],
      [{ game: 'tictactoe', seats: 'random' }, /body\.seats: must be an array, got "random"/],
      [{ game: 'tictactoe', seats: ['random', 'random'], test: 1 }, /body\.test: must be a boolean, got 1/],
    ];
    for (const [body, message] of cases) refused(await api('POST', '/api/matches', body), 400, message);
    assert.equal(await store.countMatches(), 0);
    // The same request with its types right is a match; query strings still read numbers from text.
    const ok = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'random'], seed: 42 });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const list = await api('GET', '/api/matches?limit=5');
    assert.equal(list.status, 200, JSON.stringify(list.body));
  });

  it("names no game by Object's own members (__proto__, constructor, hasOwnProperty): 400 or 404, never 500", async () => {
    for (const game of ['__proto__', 'constructor', 'hasOwnProperty', 'toString']) {
      refused(await api('POST', '/api/matches', { game, seats: ['random', 'random'] }), 400, new RegExp(`no game "${game}"; the games are tictactoe`));
      refused(await api('POST', '/api/bots', { game, name: 'x', endpoint: 'https://example.org/bot' }), 400, new RegExp(`no game "${game}"`));
      for (const path of [`/api/games/${game}`, `/api/games/${game}/rules`, `/api/games/${game}/schemas`, `/api/leaderboards/${game}`])
        refused(await api('GET', path), 404, new RegExp(`no game "${game}"`));
    }
    assert.equal(await store.countMatches(), 1);
  });

  it("checks a match's config against the game's config schema before creating it: 400 naming the key and what it expects", async () => {
    const before = await store.countMatches();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ game: 'tron', seats: ['random', 'random'], config: { width: 1 } }, /config "width" of tron must be an integer in 2\.\.1000, got 1/],
      [
        { game: 'tron', seats: ['random', 'random'], config: { width: '20' } },
        /config\.width: tron's "width" must be an integer in 2\.\.1000 \(JSON number\), got "20"/,
      ],
      [{ game: 'tron', seats: ['random', 'random'], config: { colour: 'red' } }, /unknown config key "colour" for tron; known keys: width, height/],
      [{ game: 'tron', seats: ['random', 'random'], config: { constructor: 1 } }, /unknown config key "constructor" for tron/],
      [
        { game: 'tron', seats: ['random', 'random', 'random', 'random'], config: { width: 2, height: 2 } },
        /bad config for tron \(width, height\) with 4 players: a 2×2 grid has 1 start cells/,
      ],
      [
        { game: 'lighthouses', seats: ['random', 'random'], config: { map: '/etc/passwd' } },
        /config: bad config for lighthouses \(map\).*this server reads no files: give "map" the map's text itself, not a path/,
      ],
      [
        { game: 'tron', seats: ['random', 'random'], config: { trails: '/etc/passwd' } },
        /config: bad config for tron \(trails\).*reads no files: give "trails"/,
      ],
      [{ game: 'tictactoe', seats: ['random', 'random'], config: { board: 'X' } }, /config: bad config for tictactoe \(board\) with 2 players: board: /],
    ];
    for (const [body, message] of cases) refused(await api('POST', '/api/matches', body), 400, message);
    assert.equal(await store.countMatches(), before, 'no match was created');
  });

  it('answers a URL too long in the one error shape (414)', async () => {
    refused(await api('GET', `/api/bots/${'a'.repeat(5000)}`), 414, /the URL is too long: a part of its path is over 100 characters/);
    refused(await api('GET', `/api/games/%E0%A4%A`), 400, /not valid percent-encoding/);
  });

  it('throttles failed owner-token checks per client address: a burst of garbage tokens is answered 429 before hashing, and changes nothing', async () => {
    const reg = await api('POST', '/api/bots', { game: 'tictactoe', name: 'throttled', endpoint: 'http://127.0.0.1:9/' });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const id = (reg.body!.bot as { id: string }).id;
    const token = reg.body!.token as string;
    const t0 = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        fetch(`${server.url}/api/bots/${id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', authorization: `Bearer bat_garbage${i}` },
          body: JSON.stringify({ description: `hacked ${i}` }),
        }).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), body: (await r.json()) as ApiAnswer['body'] })),
      ),
    );
    const ms = Date.now() - t0;
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 403).length, 10, `10 checks hashed, the rest refused: ${statuses.join(',')}`);
    assert.equal(statuses.filter((s) => s === 429).length, 54);
    const limited = answers.find((a) => a.status === 429)!;
    refused(limited, 429, /too many failed authentications from this address \(10 per 60 s\): no token is checked from it for \d+ s/);
    assert.ok(Number(limited.retry) >= 1 && Number(limited.retry) <= 60, `Retry-After: ${limited.retry}`);
    // Ten hashes, not 64: a bound on the work, not a wall time (generous for a shared machine).
    assert.ok(ms < 20_000, `${ms} ms`);
    const bot = await store.getBot(id);
    assert.equal(bot!.description, '', 'no garbage token changed the bot');
    // The address stays throttled for the window, the right token included (it is the address that is counted).
    refused(await api('PATCH', `/api/bots/${id}`, { description: 'mine' }, token), 429, /too many failed authentications/);
  });
});
