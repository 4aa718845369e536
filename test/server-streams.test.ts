import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { apiClient, until } from './server.kit.js';

// Issue 34, part 1: event streams of a finished match are encoded once and shared, written with backpressure, and
// capped per client address and in all. The server runs in this process, so its heap is this process's heap.

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

const VIEWERS = 300;
const PER_ADDRESS = 20;
const TOTAL = 30;
/** The heap may grow this much with VIEWERS viewers that read nothing (one copy of the stream per viewer is ~380 MB). */
const HEAP_BOUND = 40 * 1024 * 1024;

const quiet = new Writable({ write: (_c, _e, cb) => cb() });
let server: RunningServer;
let port: number;
const api = apiClient(() => server.url);

before(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: ':memory:',
    logStream: quiet,
    ladder: false,
    gateway: false,
    streams: { perAddress: VIEWERS, total: VIEWERS },
  });
  port = Number(new URL(server.url).port);
});
after(() => server.close(0));

/** A GET from a chosen loopback address (Linux routes all of 127/8 to lo): its status and, unless it streams, its body. */
function getFrom(localAddress: string, path: string, to = port): Promise<{ status: number; body: string; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: to, path, localAddress, agent: false }, (res) => {
      if (res.statusCode === 200) return resolve({ status: 200, body: '', socket: res.socket });
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, socket: res.socket }));
    });
    req.on('error', reject);
  });
}

/** A viewer that asks for the stream and never reads a byte of it. */
async function pausedViewer(path: string): Promise<net.Socket> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  socket.pause();
  await once(socket, 'connect');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  return socket;
}

test(`${VIEWERS} viewers of a finished ~1 MB Tron replay that never read: the same bytes as before, bounded heap, /healthz answers`, async () => {
  const r = await api('POST', '/api/matches', { game: 'tron', seats: Array(4).fill('voronoi'), seed: 1, config: { width: 120, height: 120 } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const id = (r.body as { id: string }).id;
  await until('the match to finish', async () => (await api('GET', `/api/matches/${id}`)).body?.status === 'finished', 120_000);
  const path = `/api/matches/${id}/events`;

  // The same bytes as the stream made per viewer from the stored replay (the encoding before issue 34).
  const replayText = await (await fetch(`${server.url}/api/matches/${id}/replay`)).text();
  const { turns, result, durationMs, transcripts: _t, ...header } = JSON.parse(replayText) as Record<string, unknown> & { turns: unknown[] };
  const block = (e: { type: string; [k: string]: unknown }) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
  const expected = [
    block({ type: 'started', matchId: id, header }),
    ...turns.map((record, index) => block({ type: 'step', matchId: id, index, record })),
    block({ type: 'ended', matchId: id, reason: (result as { reason: string }).reason, result, durationMs: durationMs ?? 0, steps: turns.length }),
  ].join('');
  assert.ok(replayText.length > 700_000, `the replay is ~1 MB (${replayText.length} bytes)`);
  const first = await (await fetch(server.url + path)).text();
  assert.equal(first, expected, 'a finished match streams the same bytes as before');
  assert.equal(await (await fetch(server.url + path)).text(), expected, 'and again, from the shared copy');

  gc();
  const heap0 = process.memoryUsage().heapUsed;
  // The heap's highest point while the viewers come and are served, sampled; and where it settles.
  let peak = heap0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
  const viewers: net.Socket[] = [];
  const healthy: number[] = [];
  for (let i = 0; i < VIEWERS; i++) {
    viewers.push(await pausedViewer(path));
    if (i % 50 === 49) healthy.push((await fetch(server.url + '/healthz')).status);
  }
  // Every viewer has its answer under way: the last to connect has had its headers.
  await until('the last viewer to be answered', async () => viewers.at(-1)!.readableLength > 0 || viewers.at(-1)!.bytesRead > 0, 30_000).catch(() => null);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  clearInterval(sampler);
  gc();
  const settled = process.memoryUsage().heapUsed - heap0;
  const rise = peak - heap0;
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    `# ${VIEWERS} paused viewers of a ${expected.length}-byte stream: heap peak +${mib(rise)}, settled +${mib(settled)} (a copy each: ${mib(VIEWERS * expected.length)})`,
  );
  assert.deepEqual(healthy, Array(healthy.length).fill(200), '/healthz answers among the viewers');
  assert.ok(rise < HEAP_BOUND, `the heap rose by ${mib(rise)} with ${VIEWERS} viewers; at most ${mib(HEAP_BOUND)}`);
  assert.ok(settled < HEAP_BOUND / 4, `the heap settled ${mib(settled)} higher with ${VIEWERS} viewers open; at most ${mib(HEAP_BOUND / 4)}`);
  for (const s of viewers) s.destroy();
});

test('event streams are capped per client address (429) and in all (503), naming the option; leaving gives the slot back', async () => {
  const capped = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: ':memory:',
    logStream: quiet,
    ladder: false,
    gateway: false,
    streams: { perAddress: PER_ADDRESS, total: TOTAL },
  });
  const cappedPort = Number(new URL(capped.url).port);
  const open: net.Socket[] = [];
  try {
    // A person's test match publishes its start, then waits for the person: its streams stay open.
    const r = await fetch(capped.url + '/api/matches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'tictactoe', seats: ['person', 'minimax'], test: true }),
    });
    assert.equal(r.status, 201, await r.clone().text());
    const path = `/api/matches/${((await r.json()) as { id: string }).id}/events`;
    const openFrom = async (address: string) => {
      const answer = await getFrom(address, path, cappedPort);
      assert.equal(answer.status, 200, answer.body);
      open.push(answer.socket);
    };
    for (let i = 0; i < PER_ADDRESS; i++) await openFrom('127.0.0.1');
    const over = await getFrom('127.0.0.1', path, cappedPort);
    assert.equal(over.status, 429, over.body);
    const err = (JSON.parse(over.body) as { error: { status: number; code: string; message: string } }).error;
    assert.equal(err.status, 429);
    assert.match(err.message, new RegExp(`--max-streams-per-address ${PER_ADDRESS}`), err.message);
    // The feed counts too.
    assert.equal((await getFrom('127.0.0.1', '/api/events', cappedPort)).status, 429);
    assert.equal((await fetch(capped.url + '/healthz')).status, 200, '/healthz is no stream');

    // Another address may still watch, up to the total; past it, 503 naming the option.
    for (let i = PER_ADDRESS; i < TOTAL; i++) await openFrom('127.0.0.2');
    const full = await getFrom('127.0.0.3', path, cappedPort);
    assert.equal(full.status, 503, full.body);
    assert.match((JSON.parse(full.body) as { error: { message: string } }).error.message, new RegExp(`--max-streams ${TOTAL}`));

    // A viewer that leaves gives its slot back.
    open.shift()!.destroy();
    await until('the slot to be given back', async () => {
      const answer = await getFrom('127.0.0.1', path, cappedPort);
      if (answer.status === 200) open.push(answer.socket);
      return answer.status === 200;
    });
  } finally {
    for (const s of open) s.destroy();
    await capped.close(0);
  }
});

test('a live stream that sends nothing for --stream-idle-ms is ended (keep-alive comments do not count)', async () => {
  const idle = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: ':memory:',
    logStream: quiet,
    ladder: false,
    gateway: false,
    streams: { idleMs: 400 },
  });
  try {
    // A person's seat waits for the person: the match publishes its start, then nothing.
    const r = await fetch(idle.url + '/api/matches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'tictactoe', seats: ['person', 'minimax'], test: true }),
    });
    assert.equal(r.status, 201, await r.clone().text());
    const { id } = (await r.json()) as { id: string };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 15_000);
    const res = await fetch(`${idle.url}/api/matches/${id}/events`, { signal: controller.signal });
    assert.equal(res.status, 200);
    const text = await res.text().catch((e: Error) => `aborted: ${e.message}`);
    clearTimeout(timer);
    assert.ok(!text.startsWith('aborted'), 'the silent stream was ended by the server');
    assert.doesNotMatch(text, /event: ended/, 'before the match ended');
  } finally {
    await idle.close(0);
  }
});
