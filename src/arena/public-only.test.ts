import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo, type LookupFunction } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { ForbiddenAddressError, publicOnlyLookup, type Resolve } from '../bots/address-policy.js';
import { HttpTransport } from '../bots/http-transport.js';
import type { AskMessage, SeatContext } from '../bots/transport.js';
import { getGame } from '../games/index.js';
import { doctor } from './doctor.js';
import type { JobRequest } from './match-job.js';
import { runMatch, type RunOptions } from './run-match.js';
import { sumGame } from './sum-game.kit.js';

/**
 * The address policy end to end: real HTTP servers on loopback that count every connection, and matches
 * (or an HTTP seat alone) under 'public-only' and 'any'.
 */

/** A bot answering {"n":1} on `host`, counting the connections and requests it gets. */
async function botServer(t: TestContext, host = '127.0.0.1') {
  const seen = { connections: 0, requests: 0 };
  const server = createServer((req, res) => {
    seen.requests++;
    req.resume();
    req.on('end', () => res.end('{"n":1}'));
  });
  server.on('connection', () => seen.connections++);
  server.listen(0, host);
  await once(server, 'listening');
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, seen };
}

/** Whether this host can listen on the IPv6 loopback. */
async function ipv6Loopback(): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(0, '::1');
    await once(server, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    server.close();
  }
}

const TURNS = 3;
/** A match of the test game: the HTTP bot against the built-in `one`, with deadlines long enough that a hang would show. */
async function play(bot: string, opts: RunOptions) {
  const job: JobRequest = {
    game: 'sum-test',
    seats: [{ bot }, { bot: 'one' }],
    seed: 1,
    config: { turns: TURNS },
    timeouts: { turnMs: 10_000 },
    transcripts: true,
  };
  const t0 = performance.now();
  const report = await runMatch(job, { game: sumGame, ...opts });
  return { ...report, ms: performance.now() - t0 };
}

const BECAUSE = '(this arena only calls public addresses; its operator may allow others with --allow-private-bots)';

describe("HTTP bots under the address policy 'public-only'", () => {
  const refusals: [string, (port: number) => string, (port: number) => string][] = [
    ['an IPv4 loopback literal', (p) => `http://127.0.0.1:${p}/bot`, () => '127.0.0.1 is a loopback address'],
    ['localhost', (p) => `http://localhost:${p}/`, () => 'localhost is a loopback name'],
    ['a name under .localhost', (p) => `http://bot.localhost:${p}/`, () => 'bot.localhost is a loopback name'],
    // WHATWG URL reads these as 127.0.0.1 (the spec keeps what was written; the connection goes to 127.0.0.1).
    ['a hex-and-short IPv4 literal (0x7f.1)', (p) => `http://0x7f.1:${p}/`, () => '127.0.0.1 is a loopback address'],
    ['a one-number IPv4 literal (2130706433)', (p) => `http://2130706433:${p}/`, () => '127.0.0.1 is a loopback address'],
    ['an IPv4-mapped IPv6 literal', (p) => `http://[::ffff:127.0.0.1]:${p}/`, () => '::ffff:7f00:1 is an IPv4-mapped address of 127.0.0.1, a loopback address'],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', () => '169.254.169.254 is the cloud metadata address (link-local)'],
    ['https to localhost (refused before any TLS)', (p) => `https://localhost:${p}/`, () => 'localhost is a loopback name'],
    ['https to an IPv4 loopback literal', (p) => `https://127.0.0.1:${p}/`, () => '127.0.0.1 is a loopback address'],
  ];
  for (const [what, url, reason] of refusals) {
    it(`refuses ${what}: a transport fault with the reason, nothing reaches the server, the match ends at once`, async (t) => {
      const bot = await botServer(t);
      const { replay, ms } = await play(url(bot.port), { addressPolicy: 'public-only' });
      // Refused at every turn: the result keeps the first (where it happened), as for a bot that is gone.
      assert.deepEqual(replay.result.faults[0], {
        kind: 'transport',
        detail: `refused to connect to ${url(bot.port)}: ${reason(bot.port)} ${BECAUSE}`,
        turn: 1,
      });
      assert.equal(replay.turns.filter((r) => r.moves[0]?.fault?.kind === 'transport').length, TURNS, 'refused at every turn');
      assert.deepEqual(replay.result.scores, [0, TURNS]);
      assert.deepEqual(bot.seen, { connections: 0, requests: 0 });
      assert.ok(ms < 2000, `a refused bot costs no deadline: the match took ${ms.toFixed(0)} ms (turn deadline 10 s)`);
      assert.ok(
        replay.transcripts![0]!.some((e) => e.dir === 'note' && e.text.startsWith('refused to connect')),
        'the refusal is in the bot log',
      );
    });
  }

  it('refuses the IPv6 loopback [::1]', async (t) => {
    if (!(await ipv6Loopback())) return t.skip('this host cannot listen on ::1 (no IPv6 loopback)');
    const bot = await botServer(t, '::1');
    const url = `http://[::1]:${bot.port}/`;
    const { replay } = await play(url, { addressPolicy: 'public-only' });
    assert.equal(replay.result.faults[0]?.detail, `refused to connect to ${url}: ::1 is the loopback address ${BECAUSE}`);
    assert.deepEqual(bot.seen, { connections: 0, requests: 0 });
    const open = await play(url, { addressPolicy: 'any' });
    assert.deepEqual(open.replay.result.faults, [null, null], "'any' calls it");
  });

  it('plays the same bots normally under the default and under any; command bots are not affected by the policy', async (t) => {
    const bot = await botServer(t);
    for (const addressPolicy of [undefined, 'any'] as const) {
      const { replay } = await play(`http://127.0.0.1:${bot.port}/bot`, { addressPolicy });
      assert.deepEqual(replay.result.faults, [null, null], String(addressPolicy));
      assert.deepEqual(replay.result.scores, [TURNS, TURNS]);
    }
    assert.equal(bot.seen.requests, 2 * TURNS);
    const stdio = await play('stdio:node test/fixtures/runner/sleepy-bot.mjs 0', { addressPolicy: 'public-only' });
    assert.deepEqual(stdio.replay.result.faults, [null, null]);
  });
});

describe("doctor under 'public-only'", () => {
  it('fails the check-up of a loopback bot with the reason and what to change, calling nothing', async (t) => {
    const bot = await botServer(t);
    const url = `http://127.0.0.1:${bot.port}/`;
    const report = await doctor(getGame('tictactoe'), url, { addressPolicy: 'public-only' });
    assert.equal(report.ok, false);
    const failed = report.checks.find((c) => c.status === 'fail')!;
    assert.ok(failed.detail.includes(`refused to connect to ${url}: 127.0.0.1 is a loopback address ${BECAUSE}`), failed.detail);
    assert.match(failed.fix!, /a URL on a public address/);
    assert.deepEqual(bot.seen, { connections: 0, requests: 0 });
  });
});

describe('a name resolved at every connection (DNS rebinding)', () => {
  const ctx = (log: string[] = []): SeatContext => ({
    game: sumGame as SeatContext['game'],
    slot: 0,
    players: 1,
    config: {},
    seed: 1,
    name: 'bot',
    log: (_dir, text) => log.push(text),
    maxAnswerBytes: 1 << 20,
    maxStderrBytes: 1 << 16,
    addressPolicy: 'public-only',
  });
  const msg = (turn: number): AskMessage => ({ phase: 'play', turn, view: null, text: '{}', contentType: 'application/json' });

  it('an HTTP seat asks the resolver for every connection and refuses the loopback answer, with the name and the address', async (t) => {
    const bot = await botServer(t);
    let asked = 0;
    const resolve: Resolve = () => (asked++, Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
    const url = `http://bot.example:${bot.port}/`;
    const seat = new HttpTransport(url, ctx(), { resolve });
    t.after(() => seat.close());
    await seat.start();
    for (const turn of [1, 2]) {
      const t0 = performance.now();
      const reply = await seat.ask(msg(turn), 10_000);
      assert.deepEqual(reply.kind === 'fault' && reply.fault, {
        kind: 'transport',
        detail: `refused to connect to ${url}: bot.example resolves to 127.0.0.1, a loopback address ${BECAUSE}`,
      });
      assert.ok(performance.now() - t0 < 1000, 'refused at once, not at the deadline');
    }
    assert.equal(asked, 2, 'no address is cached between connections');
    assert.deepEqual(bot.seen, { connections: 0, requests: 0 });
  });

  it('a name public at the first connection and 127.0.0.1 at the second: the second socket is refused before connecting', async (t) => {
    const bot = await botServer(t);
    let asked = 0;
    const rebinding: Resolve = () => Promise.resolve([{ address: asked++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }]);
    const guarded = publicOnlyLookup(rebinding);
    const answered: unknown[] = [];
    // The first connection would go out to the public address: the test stops it right after the lookup.
    const lookup: LookupFunction = (host, options, callback) =>
      guarded(host, options, (err, address, family) => {
        answered.push(err ?? address);
        callback(err ?? (asked === 1 ? new Error('stopped by the test: the public address was allowed') : null), address, family);
      });
    const attempt = () =>
      new Promise<Error>((resolve) => {
        const socket = connect({ host: 'rebind.example', port: bot.port, lookup });
        socket.on('connect', () => resolve(new Error('connected')));
        socket.on('error', resolve);
      });
    assert.equal((await attempt()).message, 'stopped by the test: the public address was allowed');
    assert.deepEqual(answered[0], [{ address: '93.184.216.34', family: 4 }]);
    const second = await attempt();
    assert.ok(second instanceof ForbiddenAddressError, String(second));
    assert.equal(second.message, `rebind.example resolves to 127.0.0.1, a loopback address ${BECAUSE}`);
    assert.equal(asked, 2);
    assert.deepEqual(bot.seen, { connections: 0, requests: 0 });
  });
});
