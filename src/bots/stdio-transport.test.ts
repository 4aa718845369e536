import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { livePidsWith } from '../../test/processes.js';
import { sumGame } from '../arena/sum-game.kit.js';
import { StdioTransport } from './stdio-transport.js';
import type { AskMessage, OutgoingMessage, Reply, SeatContext } from './transport.js';

type Log = { dir: string; text: string }[];

/** A stdio seat running the contract fixture bot in `mode`, with extra context options. */
async function open(mode: string, extra: Partial<SeatContext> = {}) {
  const marker = `marker-${randomUUID()}`;
  const log: Log = [];
  const ctx: SeatContext = {
    game: sumGame,
    slot: 0,
    players: 1,
    config: {},
    seed: 1,
    name: 'bot',
    log: (dir, text) => log.push({ dir, text }),
    maxAnswerBytes: 1 << 20,
    maxStderrBytes: 1 << 16,
    ...extra,
  };
  const transport = new StdioTransport(`node test/fixtures/bots/bot.mjs ${mode} ${marker}`, ctx);
  await transport.start();
  return { transport, log, marker };
}

const msg = (n: number, skip?: OutgoingMessage['skip']): AskMessage => ({
  phase: 'play',
  turn: n,
  view: null,
  text: JSON.stringify({ n }),
  contentType: 'application/json',
  skip,
});
const text = (r: Reply) => (r.kind === 'text' ? r.text : assert.fail(`expected an answer, got ${JSON.stringify(r)}`));
const notes = (log: Log) => log.filter((e) => e.dir === 'note').map((e) => e.text);

describe('stdio transport: pairing, skipped lines, notices and exit', () => {
  it('with strict pairing, a late answer pays for the message it missed even when the next one is waiting', async () => {
    const { transport, log } = await open('slow', { strictPairing: true }); // answers 700 ms after each message
    try {
      const missed = await transport.ask(msg(1), 300);
      assert.equal(missed.kind, 'fault');
      // Asked again at once: {"echo":1} arrives while message 2 waits, and must not be taken for its answer.
      assert.equal(text(await transport.ask(msg(2), 3000)), '{"echo":2}');
      assert.ok(
        notes(log).some((n) => /^dropped a late answer .*: \{"echo":1\}$/.test(n)),
        notes(log).join('\n'),
      );
    } finally {
      await transport.close();
    }
  });

  it('without strict pairing, the same late line is the next answer (the botsarena games never ask again after a timeout)', async () => {
    const { transport } = await open('slow');
    try {
      assert.equal((await transport.ask(msg(1), 300)).kind, 'fault');
      assert.equal(text(await transport.ask(msg(2), 3000)), '{"echo":1}');
    } finally {
      await transport.close();
    }
  });

  it('skips the lines a message says are not its answer, notes them, and keeps reading', async () => {
    const { transport, log } = await open('twice'); // answers {"echo":n} then {"echo":"extra"}
    try {
      const r = await transport.ask(
        msg(1, (line) => (line === '{"echo":1}' ? 'stale nonce' : null)),
        3000,
      );
      assert.equal(text(r), '{"echo":"extra"}');
      assert.ok(
        notes(log).some((n) => n === 'skipped a line (stale nonce): {"echo":1}'),
        notes(log).join('\n'),
      );
    } finally {
      await transport.close();
    }
  });

  it('tell writes a message that expects no answer; what the bot says back is dropped, not taken for the next answer', async () => {
    const { transport, log } = await open('echo');
    try {
      await transport.tell(msg(5), 1000);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(text(await transport.ask(msg(6), 3000)), '{"echo":6}');
      assert.ok(log.some((e) => e.dir === 'send' && e.text === '{"n":5}'));
      assert.ok(
        notes(log).some((n) => n === 'dropped a line sent while no answer was expected: {"echo":5}'),
        notes(log).join('\n'),
      );
    } finally {
      await transport.close();
    }
  });

  it('a graceful close ends stdin and lets the bot exit by itself within the grace; any other close signals at once', async () => {
    const graceful = await open('echo', { exitMs: 2000 });
    assert.equal(text(await graceful.transport.ask(msg(1), 3000)), '{"echo":1}');
    await graceful.transport.close(true);
    assert.ok(
      notes(graceful.log).some((n) => n.startsWith('process exited with code 0')),
      notes(graceful.log).join('\n'),
    );
    assert.deepEqual(livePidsWith(graceful.marker), []);

    const stubborn = await open('never', { exitMs: 300 }); // keeps a timer alive: never exits on EOF
    const t0 = performance.now();
    await stubborn.transport.ask(msg(1), 100);
    await stubborn.transport.close(true);
    assert.ok(performance.now() - t0 < 3000, 'close() gives up waiting after the grace');
    assert.ok(
      notes(stubborn.log).some((n) => n.startsWith('process killed by signal SIGTERM')),
      notes(stubborn.log).join('\n'),
    );
    assert.deepEqual(livePidsWith(stubborn.marker), []);

    const cancelled = await open('echo', { exitMs: 2000 }); // a cancelled or failed match: no grace
    assert.equal(text(await cancelled.transport.ask(msg(1), 3000)), '{"echo":1}');
    await cancelled.transport.close();
    assert.ok(
      notes(cancelled.log).some((n) => n.startsWith('process killed by signal SIGTERM')),
      notes(cancelled.log).join('\n'),
    );
    assert.deepEqual(livePidsWith(cancelled.marker), []);
  });
});
