import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { ROOT, runCli } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// The link of `botarena connect` is hostile input both ways. The server's side (a real server on 127.0.0.1, raw
// WebSocket clients): refusals before the upgrade, a second link, garbage, a message past the cap, a flood, a
// client that never reads, a bot that never answers or answers garbage. The client's side (the real CLI against
// a WebSocket server of the test's own): garbage, a flood of matches past its capacity, a message past its cap.

const dir = mkdtempSync(join(tmpdir(), 'botarena-connect-hostile-'));
const quiet = () => (process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() }));
const MAX_MESSAGE = 64 * 1024;
const PING_MS = 1000;
let server: RunningServer;
const api = apiClient(() => server.url);

before(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: join(dir, 'hostile.sqlite'),
    logStream: quiet(),
    gateway: false,
    ladder: false,
    checkBots: false,
    allowPrivateBots: true,
    timeouts: { initMs: 1000, turnMs: 500 },
    links: { pingMs: PING_MS, maxMessageBytes: MAX_MESSAGE, maxUnasked: 50 },
  });
});
after(async () => {
  await server.close(500);
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** A new `connect:` bot: its id and token. */
async function linkedBot(capacity = 1): Promise<{ id: string; token: string }> {
  const r = await api('POST', '/api/bots', { game: 'tictactoe', name: `hostile-${++n}`, endpoint: 'connect:', capacity });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { id: (r.body!.bot as { id: string }).id, token: r.body!.token as string };
}

const wsUrl = (id: string) => `${server.url.replace(/^http/, 'ws')}/api/bots/${id}/connect`;

/** A raw client: its messages as they come, its close (code and reason), and the HTTP status of a refused upgrade. */
function client(id: string, token?: string) {
  const ws = new WebSocket(wsUrl(id), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const got: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (d) => {
    got.push(JSON.parse(String(d)) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string; status?: number; body?: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => resolve({ code: 0, reason: '', status: res.statusCode, body }));
    });
    ws.on('error', () => {});
  });
  return {
    ws,
    got,
    closed,
    /** the next message of a type (waits for it) */
    async next(type: string): Promise<Record<string, unknown>> {
      for (;;) {
        const m = got.find((x) => x.type === type);
        if (m) {
          got.splice(got.indexOf(m), 1);
          return m;
        }
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

const statusOf = async (id: string) => (await api('GET', `/api/bots/${id}`)).body as { status: string; statusReason: string | null };

describe("the server's side of a link", () => {
  it('refuses before the upgrade, with the HTTP error saying why: no token, a wrong one, no such bot, a bot that is not connect:', async () => {
    const b = await linkedBot();
    const none = await client(b.id).closed;
    assert.equal(none.status, 401);
    assert.match(none.body!, /owner token/);
    const wrong = await client(b.id, 'bat_not-the-token').closed;
    assert.equal(wrong.status, 403);
    const missing = await client('no-such-bot', b.token).closed;
    assert.equal(missing.status, 404);
    const http = await api('POST', '/api/bots', { game: 'tictactoe', name: 'http-one', endpoint: 'http://127.0.0.1:9/' });
    assert.equal(http.status, 201, JSON.stringify(http.body));
    const notLinked = await client((http.body!.bot as { id: string }).id, http.body!.token as string).closed;
    assert.equal(notLinked.status, 409);
    assert.match(notLinked.body!, /only a bot registered with the endpoint/);
    // A plain GET (no Upgrade) is told what the route is.
    const plain = await fetch(`${server.url}/api/bots/${b.id}/connect`, { headers: { authorization: `Bearer ${b.token}` } });
    assert.equal(plain.status, 409);
    assert.match(await plain.text(), /WebSocket/);
  });

  it('says hello, refuses a second link for the same bot (4409 and why), and the bot is active, then away once the link closes', async () => {
    const b = await linkedBot(3);
    const one = client(b.id, b.token);
    const hello = await one.next('hello');
    assert.equal(hello.protocol, 1);
    assert.equal(hello.capacity, 3);
    assert.deepEqual((hello.bot as { id: string }).id, b.id);
    await until('active', async () => (await statusOf(b.id)).status === 'active');
    const two = client(b.id, b.token);
    const refused = await two.next('refused');
    assert.match(refused.message as string, /linked to this server already.*one link per bot.*capacity \(3\)/);
    assert.deepEqual(await two.closed, { code: 4409, reason: 'this bot is connected already' });
    one.ws.close(1000, 'bye');
    await one.closed;
    const away = await until('away', async () => {
      const s = await statusOf(b.id);
      return s.status === 'away' ? s : null;
    });
    assert.match(away.statusReason!, /its last link ended: the connection closed \(1000: bye\)/);
  });

  it('closes a link that sends garbage (4400, naming what was expected), a message past the cap (1009), a flood (4429)', async () => {
    const b = await linkedBot();
    const garbage = client(b.id, b.token);
    await garbage.next('hello');
    garbage.ws.send('this is not JSON');
    const cut = await garbage.next('cut');
    assert.match(cut.message as string, /not JSON.*expected one JSON object/);
    assert.deepEqual(await garbage.closed, { code: 4400, reason: 'not JSON' });

    const shape = client(b.id, b.token);
    await shape.next('hello');
    shape.ws.send(JSON.stringify({ type: 'hello' }));
    assert.match((await shape.next('cut')).message as string, /"type" must be "answer" or "fault"/);
    assert.equal((await shape.closed).code, 4400);

    const huge = client(b.id, b.token);
    await huge.next('hello');
    huge.ws.send(JSON.stringify({ type: 'answer', match: 'm', slot: 0, n: 1, text: 'x'.repeat(MAX_MESSAGE * 2) }));
    assert.equal((await huge.closed).code, 1009);
    const after = await until('away', async () => {
      const s = await statusOf(b.id);
      return s.status === 'away' ? s : null;
    });
    assert.match(after.statusReason!, new RegExp(`a message over ${MAX_MESSAGE} bytes`));

    const flood = client(b.id, b.token);
    await flood.next('hello');
    for (let i = 0; i < 200; i++) flood.ws.send(JSON.stringify({ type: 'answer', match: 'made-up', slot: 0, n: i, text: '{}' }));
    assert.match((await flood.next('cut')).message as string, /over 50 messages in a row answered nothing/);
    assert.deepEqual(await flood.closed, { code: 4429, reason: 'flood' });
  });

  it('cuts a client that never reads (no answer to the pings), and the bot is away', async () => {
    const b = await linkedBot();
    const sleepy = client(b.id, b.token);
    await sleepy.next('hello');
    await until('active', async () => (await statusOf(b.id)).status === 'active');
    // It stops reading: the server's pings go unanswered.
    (sleepy.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const away = await until(
      'away',
      async () => {
        const s = await statusOf(b.id);
        return s.status === 'away' ? s : null;
      },
      10 * PING_MS + 5000,
    );
    assert.match(away.statusReason!, new RegExp(`no answer to the server's ping within ${PING_MS} ms`));
    (sleepy.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    assert.equal((await sleepy.closed).code, 1006, 'cut without a close frame');
  });

  it('closes the link of a bot deleted, or made an HTTP bot, while linked (4410, saying which)', async () => {
    const b = await linkedBot();
    const c = client(b.id, b.token);
    await c.next('hello');
    assert.equal((await api('DELETE', `/api/bots/${b.id}`, undefined, b.token)).status, 204);
    assert.match((await c.next('cut')).message as string, /the bot was deleted/);
    assert.deepEqual(await c.closed, { code: 4410, reason: 'the bot is not linkable now' });
    const h = await linkedBot();
    const d = client(h.id, h.token);
    await d.next('hello');
    const patched = await api('PATCH', `/api/bots/${h.id}`, { endpoint: 'http://127.0.0.1:9/' }, h.token);
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.match((await d.next('cut')).message as string, /endpoint is "http:\/\/127\.0\.0\.1:9\/" now, not "connect:"/);
    assert.equal((await d.closed).code, 4410);
  });

  it("plays a match by the seat's deadline: no answer is a timeout, garbage text is the game's fault, a reported crash is a crash", async () => {
    const b = await linkedBot();
    const c = client(b.id, b.token);
    await c.next('hello');
    await until('active', async () => (await statusOf(b.id)).status === 'active');
    const match = async (answer: (ask: Record<string, unknown>) => Record<string, unknown> | null) => {
      const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: [b.id, 'random'], test: true });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const id = r.body!.id as string;
      const start = await c.next('start');
      assert.deepEqual([start.match, start.slot, start.game, start.players, start.dialect], [id, 0, 'tictactoe', 2, 'json']);
      for (;;) {
        const ask = await c.next('ask');
        assert.equal(typeof ask.message, 'string', 'the wire message as the game writes it');
        const reply = answer(ask);
        if (!reply) break;
        c.ws.send(JSON.stringify({ match: id, slot: 0, n: ask.n, ...reply }));
        if (ask.phase === 'init') continue;
        break;
      }
      const end = await c.next('end');
      assert.equal(end.match, id);
      const m = (await api('GET', `/api/matches/${id}`)).body as unknown as { seats: { fault: { kind: string; detail: string } | null }[] };
      return { end, fault: m.seats[0]!.fault };
    };
    const silent = await match((ask) => (ask.phase === 'init' ? { type: 'answer', text: '{"name":"x"}' } : null));
    assert.equal(silent.fault?.kind, 'timeout');
    assert.match(String((silent.end.result as { players: { fault: unknown }[] }).players[0]!.fault && JSON.stringify(silent.end.result)), /timeout/);
    assert.doesNotMatch(JSON.stringify(silent.end.result), /"bot"/, "the result sent to the client names no seat's bot spec");
    const garbage = await match((ask) => (ask.phase === 'init' ? { type: 'answer', text: '{"name":"x"}' } : { type: 'answer', text: 'no json here' }));
    assert.equal(garbage.fault?.kind, 'not-json');
    const crash = await match((ask) => (ask.phase === 'init' ? { type: 'answer', text: '{"name":"x"}' } : { type: 'fault', kind: 'crash', detail: 'exit 1' }));
    assert.deepEqual(crash.fault && [crash.fault.kind, crash.fault.detail], ['crash', "on its author's machine: exit 1"]);
    c.ws.close();
  });
});

describe('every game but smart-dog over the link', () => {
  it("plays a test match of each with a built-in bot as BOT (the message object read from the wire's JSON, its answer written back)", async () => {
    const cases: [string, string, string, Record<string, unknown>][] = [
      ['connect4', 'minimax', 'random', {}],
      ['tron', 'voronoi', 'stupid', { width: 16, height: 16 }],
      ['battleship', 'random', 'random', {}],
      ['lighthouses', 'planner', 'random', {}],
      ['paint', 'painter', 'random', {}],
    ];
    for (const [game, local, opponent, config] of cases) {
      const r = await api('POST', '/api/bots', { game, name: `every-${game}`, endpoint: 'connect:' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const id = (r.body!.bot as { id: string }).id;
      const cli = spawn(process.execPath, ['bin/botarena', 'connect', server.url, '--bot-id', id, local], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, BOTARENA_TOKEN: r.body!.token as string },
      });
      let out = '';
      cli.stdout.on('data', (d: Buffer) => (out += d));
      cli.stderr.on('data', (d: Buffer) => (out += d));
      try {
        await until(`${game}: linked (${out})`, async () => /linked as /.test(out));
        const m = await api('POST', '/api/matches', { game, seats: [id, opponent], test: true, config });
        assert.equal(m.status, 201, JSON.stringify(m.body));
        const done = await until(`${game}: the match finished`, async () => {
          const row = (await api('GET', `/api/matches/${m.body!.id as string}`)).body as { status: string; seats: { fault: unknown }[] };
          return row.status === 'finished' ? row : null;
        });
        assert.equal(done.seats[0]!.fault, null, `${game}: ${JSON.stringify(done.seats[0])}`);
        await until(`${game}: the CLI printing the end`, async () => /ended: (won|lost|draw)/.test(out));
      } finally {
        cli.kill('SIGINT');
        await new Promise((resolve) => cli.on('close', resolve));
      }
    }
  });
});

describe("the client's side (botarena connect against a hostile server)", () => {
  it('a wrong token: the CLI says what the server said and exits 2, without retrying', async () => {
    const b = await linkedBot();
    const r = await runCli(['connect', server.url, '--bot-id', b.id, '--token', 'bat_wrong', 'random'], { timeoutMs: 20_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /the server refused the link \(403\): the token is not the owner token/);
  });

  it('ignores garbage, runs at most --max-matches at once (faults for the rest), and reconnects after a message past its cap', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => wss.once('listening', resolve));
    const port = (wss.address() as AddressInfo).port;
    const links: { ws: WebSocket; got: Record<string, unknown>[] }[] = [];
    wss.on('connection', (ws) => {
      const link = { ws, got: [] as Record<string, unknown>[] };
      links.push(link);
      ws.on('message', (d) => link.got.push(JSON.parse(String(d)) as Record<string, unknown>));
      ws.send(JSON.stringify({ type: 'hello', protocol: 1, bot: { id: 'b', name: 'hostile', game: 'tictactoe' }, capacity: 1000, pingMs: 20_000 }));
    });
    const cli = spawn(
      process.execPath,
      [
        'bin/botarena',
        'connect',
        `http://127.0.0.1:${port}`,
        '--bot-id',
        'b',
        '--token',
        't',
        '--max-matches',
        '2',
        'stdio:python3 test/fixtures/connect/ttt.py',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    cli.stdout.on('data', (d: Buffer) => (out += d));
    cli.stderr.on('data', (d: Buffer) => (out += d));
    try {
      await until(`linked (${out})`, async () => links.length === 1 && /linked as hostile/.test(out));
      const first = links[0]!;
      first.ws.send('garbage that is not JSON');
      first.ws.send(JSON.stringify([1, 2, 3]));
      first.ws.send(JSON.stringify({ type: 'something-new' }));
      for (let i = 0; i < 10; i++)
        first.ws.send(JSON.stringify({ type: 'start', match: `m${i}`, slot: 0, game: 'tictactoe', players: 2, config: {}, dialect: 'json' }));
      await until(
        `two started, eight refused (${out})`,
        async () => (out.match(/ started: /g) ?? []).length === 2 && (out.match(/ refused: /g) ?? []).length === 8,
      );
      for (let i = 0; i < 10; i++)
        first.ws.send(JSON.stringify({ type: 'ask', match: `m${i}`, slot: 0, n: 1, phase: 'init', turn: 0, timeoutMs: 5000, message: '{"action":"init"}' }));
      const answers = await until('ten answers', async () => (first.got.length >= 10 ? first.got : null));
      const byMatch = new Map(answers.map((a) => [a.match, a]));
      assert.deepEqual([byMatch.get('m0')!.type, byMatch.get('m1')!.type], ['answer', 'answer']);
      assert.equal(byMatch.get('m0')!.text, '{"name": "linked-python"}');
      for (let i = 2; i < 10; i++) {
        assert.equal(byMatch.get(`m${i}`)!.type, 'fault');
        assert.match(byMatch.get(`m${i}`)!.detail as string, /runs no such match/);
      }
      // A message past its cap (16 MiB): the client drops the link and comes back.
      first.ws.send('x'.repeat(17 * 1024 * 1024));
      await until(`a second link (${out})`, async () => links.length === 2, 20_000);
      assert.match(out, /link lost \(the server sent a message over 16777216 bytes, the most this client takes\)/);
      assert.match(out, /match m0 ended: the link was lost/);
    } finally {
      cli.kill('SIGINT');
      await new Promise((r) => cli.on('close', r));
      wss.close();
    }
  });
});
