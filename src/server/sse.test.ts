import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { after, before, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { sse, sseEncoded, Streams, type SseEvent } from './sse.js';

// The event streams' backpressure on real sockets: a history far larger than what loopback's socket buffers take
// (up to ~4 MiB a connection), a client that reads and one that never does.

interface Ev extends SseEvent {
  i: number;
  pad: string;
}
const PAD = 'x'.repeat(1000);
/** ~20 MB of history: five times what the kernel takes from a client that reads nothing. */
const HISTORY: Ev[] = Array.from({ length: 20_000 }, (_, i) => ({ type: 'step', i, pad: PAD }));
const MAX_UNREAD = 64 * 1024;
const streams = new Streams({ maxUnread: MAX_UNREAD, idleMs: 1500, perAddress: 100, total: 100 });
/** the live events' publisher of the stream opened last, and whether it stopped listening */
let publish: ((e: Ev) => void) | null = null;
let unsubscribed = false;
const finished = Buffer.from('data: x\n\n'.repeat(2_000_000)); // 18 MB
let app: FastifyInstance;
let port: number;

before(async () => {
  app = Fastify();
  app.get('/live', (req, reply) => {
    const release = streams.acquire(req.ip);
    unsubscribed = false;
    sse(
      req,
      reply,
      HISTORY,
      (send) => {
        publish = send;
        return () => (unsubscribed = true);
      },
      (e) => e.type === 'ended',
      { streams, release },
    );
  });
  app.get('/finished', (req, reply) => sseEncoded(streams, streams.acquire(req.ip), req, reply, finished));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
after(() => app.close());

/** A client that sends its request and reads nothing until told to. */
async function silentClient(path: string): Promise<net.Socket> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  socket.pause();
  socket.on('error', () => {});
  await once(socket, 'connect');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  return socket;
}

test('a client that reads gets a history hundreds of times --stream-buffer, then the live events, in order, and the stream ends on the last', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/live`);
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  // Live events come while the history is still being written: they wait their turn, unbounded by being late.
  let sent = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (sent < 50) publish!({ type: 'step', i: HISTORY.length + sent++, pad: PAD });
    else if (sent++ === 50) publish!({ type: 'ended', i: -1, pad: '' });
  }
  const order = [...text.matchAll(/"i":(-?\d+)/g)].map((m) => Number(m[1]));
  assert.equal(order.length, HISTORY.length + 51, 'every event, once');
  assert.deepEqual(
    order.slice(0, -1),
    Array.from({ length: HISTORY.length + 50 }, (_, i) => i),
    'in order: the history, then the live events',
  );
  assert.equal(order.at(-1), -1, 'the last is the end');
  assert.equal(streams.openStreams, 0, 'the slot is given back');
});

test('a client that reads nothing: the history waits for it (no copy), and it is dropped once --stream-buffer bytes of live events wait', async () => {
  const heap0 = process.memoryUsage().heapUsed;
  const socket = await silentClient('/live');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(streams.openStreams, 1);
  const closed = once(socket, 'close');
  // Live events of ~1 KB each: the stream is dropped after about MAX_UNREAD of them are queued, not at the history.
  let sent = 0;
  while (!socket.destroyed && streams.openStreams === 1 && sent < 10_000) {
    publish!({ type: 'step', i: sent++, pad: PAD });
    if (sent % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(streams.openStreams, 0, 'dropped, and its slot given back');
  assert.ok(sent > MAX_UNREAD / 1100 && sent < (2 * MAX_UNREAD) / 1000, `dropped after ${sent} live events of ~1 KB (--stream-buffer ${MAX_UNREAD})`);
  assert.ok(unsubscribed, 'it stopped listening');
  socket.resume(); // what the kernel holds for it, then the end
  await closed;
  const rise = process.memoryUsage().heapUsed - heap0;
  assert.ok(rise < 16 * 2 ** 20, `the heap rose ${(rise / 2 ** 20).toFixed(1)} MiB for a 20 MB history unread`);
});

test('a finished stream: a client that reads gets every byte; one that reads nothing is cut after --stream-idle-ms', async () => {
  const all = Buffer.from(await (await fetch(`http://127.0.0.1:${port}/finished`)).arrayBuffer());
  assert.equal(all.length, finished.length);
  assert.ok(all.equals(finished));
  assert.equal(streams.openStreams, 0);

  const socket = await silentClient('/finished');
  const t0 = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(streams.openStreams, 1);
  while (streams.openStreams > 0 && Date.now() - t0 < 20_000) await new Promise((resolve) => setTimeout(resolve, 50));
  const waited = Date.now() - t0;
  socket.destroy();
  assert.ok(waited >= 1000, `cut after ${waited} ms, not before the idle time (1500 ms)`);
  assert.equal(streams.openStreams, 0, 'its slot given back');
});
