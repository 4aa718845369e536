import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { sumGame } from '../arena/sum-game.kit.js';
import { TcpTransport } from './tcp-transport.js';
import type { AskMessage, SeatContext } from './transport.js';

/** A TcpTransport over a real loopback connection, and the bot's end of it. */
async function connected(extra: Partial<SeatContext> = {}) {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const bot = createConnection((server.address() as { port: number }).port, '127.0.0.1');
  const [ours] = (await once(server, 'connection')) as [Socket];
  server.close();
  const log: { dir: string; text: string }[] = [];
  const ctx: SeatContext = {
    game: sumGame,
    slot: 0,
    players: 1,
    config: {},
    seed: 1,
    name: 'bot',
    log: (dir, text) => log.push({ dir, text }),
    maxAnswerBytes: 1 << 16,
    maxStderrBytes: 1 << 16,
    ...extra,
  };
  return { transport: new TcpTransport(ours, ctx), bot, log };
}

const msg = (text: string, more: Partial<AskMessage> = {}): AskMessage => ({ phase: 'play', turn: 1, view: null, text, contentType: 'text/plain', ...more });
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('tcp transport', () => {
  it('closing while an answer is awaited ends the wait and leaves no timer behind (a 300 s waitForTurn kept the process alive)', async () => {
    const before = timers();
    const { transport, bot } = await connected();
    const pending = transport.ask(msg('turn'), 300_000);
    await transport.close();
    const r = await pending;
    assert.equal(r.kind === 'fault' && r.fault.kind, 'transport');
    bot.destroy();
    await new Promise((res) => setTimeout(res, 20));
    assert.equal(timers(), before);
  });

  it('a timed-out wait releases its cancellation listener; with strict pairing the late line is dropped', async () => {
    const { transport, bot, log } = await connected({ strictPairing: true });
    const controller = new AbortController();
    const r = await transport.ask(msg('one'), 100, controller.signal);
    assert.equal(r.kind === 'fault' && r.fault.kind, 'timeout');
    controller.abort(); // must not reach the finished wait (it used to cut the connection)
    bot.write('late\n');
    const next = transport.ask(msg('two'), 2000);
    bot.write('answer\n');
    const r2 = await next;
    assert.deepEqual(r2.kind === 'text' && r2.text, 'answer');
    assert.ok(log.some((e) => e.dir === 'note' && e.text.includes('dropped a late answer')));
    await transport.close();
    bot.destroy();
  });
});
