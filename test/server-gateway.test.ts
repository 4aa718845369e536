import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { defaultHubs } from '../src/games/smartdog/hubs.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { ROOT, runCli } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// The smart-dog gateway inside the arena server: real TCP clients (the Node example bot, and raw sockets
// for the hostile ones) join its hubs; their games are recorded, rated and downloadable through the API.

const dir = mkdtempSync(join(tmpdir(), 'botarena-gateway-'));
let server: RunningServer;
const api = apiClient(() => server.url);

interface MatchItem {
  id: string;
  kind: string;
  rated: boolean;
  status: string;
  seats: { botId: string; name: string; rank: number }[];
}
interface BoardRow {
  botId: string;
  name: string;
  games: number;
  rating: number;
}

/** The newest finished smart-dog match whose seats are these bot names (in any order), once it is recorded. */
const matchOf = (names: string[]) =>
  until(`the recorded game of ${names.join(', ')}`, async () => {
    const list = await api('GET', '/api/matches?game=smartdog&status=finished&limit=100');
    return (list.body!.items as MatchItem[]).find(
      (m) =>
        m.seats
          .map((s) => s.name)
          .sort()
          .join() === [...names].sort().join(),
    );
  });

/** Runs the example smart-dog bot (examples/smartdog-node) against the gateway; resolves with its exit code. */
function exampleBot(name: string, hub: string): Promise<number | null> {
  const child = spawn(process.execPath, ['examples/smartdog-node/client.mjs', '--port', String(server.gatewayPort), '--hub', hub, '--name', name], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) => child.on('close', (code) => (clearTimeout(timer), resolve(code))));
}

/** A raw TCP client: it sends lines as given and keeps every line it gets. */
class RawClient {
  readonly lines: string[] = [];
  readonly socket: Socket;
  closed = false;
  private buffer = '';

  constructor(port: number, autoEnd = true) {
    this.socket = createConnection(port, '127.0.0.1');
    this.socket.on('error', () => {});
    this.socket.setEncoding('utf8');
    this.socket.on('data', (d: string) => {
      const parts = (this.buffer + d).split('\n');
      this.buffer = parts.pop()!;
      for (const line of parts) {
        this.lines.push(line);
        if (line === 'turn' && autoEnd) this.socket.write('end\n'); // plays by ending each turn at once
      }
    });
    this.socket.on('close', () => (this.closed = true));
  }

  send(text: string): void {
    this.socket.write(text);
  }

  async waitFor(what: string, f: () => boolean, ms = 10_000): Promise<void> {
    const t0 = Date.now();
    while (!f()) {
      assert.ok(Date.now() - t0 < ms, `no ${what}; got:\n${this.lines.join('\n').slice(0, 2000)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

before(async () => {
  const quiet = process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() });
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: join(dir, 'arena.sqlite'),
    ladder: false,
    logStream: quiet,
    gateway: { port: 0, hubs: defaultHubs(['meadow', 'keeper'], { turnsLimit: 6 }), gatherMs: 300 },
  });
});
after(async () => {
  await server.close(2000);
  rmSync(dir, { recursive: true, force: true });
});

describe('the smart-dog gateway of botarena serve', () => {
  it('listens on a port of its own, given back by the server', () => {
    assert.ok(server.gatewayPort && server.gatewayPort > 0);
    assert.notEqual(String(server.gatewayPort), new URL(server.url).port);
  });

  it('records a game two real bots play in a hub: listed, finished, rated, both bots on the leaderboard; the replay verifies', async () => {
    assert.deepEqual(await Promise.all([exampleBot('alpha', 'duet'), exampleBot('beta', 'duet')]), [0, 0]);
    const m = await matchOf(['alpha', 'beta']);
    assert.equal(m.status, 'finished');
    assert.equal(m.kind, 'ladder');
    assert.equal(m.rated, true);
    assert.deepEqual(m.seats.map((s) => s.rank).sort(), [1, 2]);

    const board = (await api('GET', '/api/leaderboards/smartdog')).body as unknown as BoardRow[];
    for (const seat of m.seats) {
      const row = board.find((r) => r.botId === seat.botId);
      assert.ok(row && row.games >= 1, `${seat.name} is on the leaderboard with its game: ${JSON.stringify(board)}`);
      const bot = (await api('GET', `/api/bots/${seat.botId}`)).body!;
      assert.equal(bot.name, seat.name);
      assert.equal(bot.status, 'active');
      assert.equal(bot.endpoint, `tcp-gateway:${seat.name}`);
      assert.equal(bot.builtin, false);
    }
    const winner = board.find((r) => r.botId === m.seats.find((s) => s.rank === 1)!.botId)!;
    assert.ok(winner.rating > 1500, 'the winner gained ELO');

    const res = await fetch(`${server.url}/api/matches/${m.id}/replay`);
    assert.equal(res.status, 200);
    const text = await res.text();
    const replay = JSON.parse(text) as { matchId: string; game: string; seats: { name: string }[]; transcripts?: unknown; turns: unknown[] };
    assert.equal(replay.game, 'smartdog');
    assert.equal(replay.matchId, m.id, 'the stored replay has the match id of the store');
    assert.deepEqual(
      replay.seats.map((s) => s.name),
      m.seats.map((s) => s.name),
      'the replay names its seats as the match does',
    );
    assert.equal(replay.turns.length, 6);
    assert.equal(replay.transcripts, undefined);
    const file = join(dir, 'gateway-replay.json');
    writeFileSync(file, text);
    const verify = await runCli(['replay', 'verify', file]);
    assert.equal(verify.code, 0, verify.stderr);
  });

  it('a second game of the same names plays the same bots, from their ratings', async () => {
    const before = (await api('GET', '/api/leaderboards/smartdog')).body as unknown as BoardRow[];
    await Promise.all([exampleBot('alpha', 'duet'), exampleBot('beta', 'duet')]);
    const board = await until('the second game rated', async () => {
      const b = (await api('GET', '/api/leaderboards/smartdog')).body as unknown as BoardRow[];
      return b.filter((r) => r.name === 'alpha' || r.name === 'beta').every((r) => r.games === 2) ? b : null;
    });
    assert.deepEqual(board.map((r) => r.botId).sort(), before.map((r) => r.botId).sort(), 'no new bot');
    const bots = (await api('GET', '/api/bots?game=smartdog')).body as unknown as { name: string }[];
    assert.equal(bots.filter((b) => b.name === 'alpha').length, 1);
  });

  it("never plays as another's bot: a built-in bot's name is recorded as NAME (tcp); an odd name is made a bot name", async () => {
    const herder = (await api('GET', '/api/bots?game=smartdog')).body as unknown as { id: string; name: string; builtin: boolean }[];
    const builtin = herder.find((b) => b.name === 'herder' && b.builtin)!;
    assert.ok(builtin, 'the built-in herder is registered');
    const a = new RawClient(server.gatewayPort!);
    const b = new RawClient(server.gatewayPort!);
    a.send('join herder duet\n');
    await a.waitFor('wait', () => a.lines.includes('wait '));
    b.send('join ~Łukasz\u0001<script> duet\n');
    await Promise.all([a, b].map((c) => c.waitFor('the end of the game', () => c.lines.some((l) => l.startsWith('finished ')))));
    const m = await matchOf(['herder (tcp)', 'tcp__ukasz__script_']);
    assert.equal(m.rated, true);
    assert.ok(!m.seats.some((s) => s.botId === builtin.id), 'the built-in bot holds no seat');
    assert.deepEqual((await api('GET', `/api/bots/${builtin.id}`)).body!.ratings, [], 'the built-in bot was not rated');
    const desc = (await api('GET', `/api/bots/${m.seats.find((s) => s.name === 'tcp__ukasz__script_')!.botId}`)).body!.description as string;
    assert.match(desc, /first joined as "~Łukasz\\u0001<script>"/);
    for (const c of [a, b]) c.socket.destroy();
  });

  it('answers garbage with the lobby error, cuts off a huge line, and keeps serving', async () => {
    const junk = new RawClient(server.gatewayPort!);
    junk.send('hello world\n');
    await junk.waitFor('the error line', () => junk.lines.includes('error Unknown command: hello(world)'));
    const huge = new RawClient(server.gatewayPort!);
    huge.send('join ' + 'x'.repeat(200_000) + ' duet\n');
    await huge.waitFor('the connection closed', () => huge.closed);
    assert.deepEqual(huge.lines, [], 'a line over 64 KiB closes the connection, unanswered');
    junk.socket.destroy();
    assert.equal((await api('GET', '/healthz')).status, 200);
    // The gateway plays on: a solo game is recorded (unrated in effect: with no opponent no rating moves).
    assert.equal(await exampleBot('loner', 'solo'), 0);
    const m = await matchOf(['loner']);
    assert.equal(m.status, 'finished');
  });

  it('refuses on-demand smart-dog matches with a 400 that says how bots play here', async () => {
    const r = await api('POST', '/api/matches', { game: 'smartdog', seats: ['alpha', 'beta'] });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.match(r.body!.error!.message, new RegExp(`smart-dog bots connect in over TCP to the gateway on port ${server.gatewayPort} \\("join NAME HUB"\\)`));
  });
});

describe('botarena serve with --no-gateway', () => {
  it('runs no gateway, and says so when a smart-dog match is asked for', async () => {
    const quiet = new Writable({ write: (_c, _e, cb) => cb() });
    const s = await startServer({ port: 0, host: '127.0.0.1', database: join(dir, 'none.sqlite'), ladder: false, logStream: quiet, gateway: false });
    try {
      assert.equal(s.gatewayPort, null);
      const res = await fetch(`${s.url}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game: 'smartdog', seats: ['herder', 'random'] }),
      });
      assert.equal(res.status, 400);
      assert.match(((await res.json()) as { error?: { message: string } }).error!.message, /this server runs none: it was started with --no-gateway/);
    } finally {
      await s.close(0);
    }
  });

  it('close() cancels the gateway games under way: the players are disconnected, nothing is recorded', async () => {
    const quiet = new Writable({ write: (_c, _e, cb) => cb() });
    const database = join(dir, 'closing.sqlite');
    const s = await startServer({ port: 0, host: '127.0.0.1', database, ladder: false, logStream: quiet, gateway: { port: 0 } });
    const slow = new RawClient(s.gatewayPort!, false); // joins, then never ends a turn
    slow.send('join slowpoke solo\n');
    await slow.waitFor('the game', () => slow.lines.includes('turn'));
    const t0 = Date.now();
    await s.close(0);
    assert.ok(Date.now() - t0 < 3000, `close took ${Date.now() - t0} ms`);
    await slow.waitFor('the connection closed', () => slow.closed);
    const again = await startServer({ port: 0, host: '127.0.0.1', database, ladder: false, logStream: quiet, gateway: false });
    try {
      const list = (await (await fetch(`${again.url}/api/matches?game=smartdog`)).json()) as { items: unknown[] };
      assert.deepEqual(list.items, []);
    } finally {
      await again.close(0);
    }
  });
});
