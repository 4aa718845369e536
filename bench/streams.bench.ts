// Event streams under load (issue 34, part 1): thousands of viewers that read nothing of a finished ~1 MB Tron
// replay, and of the global feed, against a server in this process. What the server's memory does (RSS and
// heap, before, at its peak, once they are all in), whether /healthz keeps answering (its slowest answer
// while the viewers come), and how the caps answered. Run on its own, under tsx (the server's match threads
// are found beside its sources, which `npm run bench`'s bundle is not):
//   node --import tsx --expose-gc bench/streams.bench.ts
//   STREAMS_BENCH_REPLAY   viewers of the finished replay (default 3000)
//   STREAMS_BENCH_FEED     viewers of the global feed (default 2000)
// The viewers come from many loopback addresses (Linux routes all of 127/8 to lo), 20 a address (the default
// --max-streams-per-address), with --max-streams raised to hold them all; a last row asks for them all from
// one address under the default caps.
import { once } from 'node:events';
import net from 'node:net';
import { Writable } from 'node:stream';
import { startServer, type RunningServer } from '../src/server/serve.js';

const REPLAY = Number(process.env.STREAMS_BENCH_REPLAY ?? 3000);
const FEED = Number(process.env.STREAMS_BENCH_FEED ?? 2000);
const PER_ADDRESS = 20;
const quiet = new Writable({ write: (_c, _e, cb) => cb() });
const mib = (n: number) => (n / 2 ** 20).toFixed(0);

/** A viewer that reads the status line of its answer, then nothing: its status. */
async function viewer(port: number, path: string, localAddress: string, sockets: net.Socket[]): Promise<number> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  sockets.push(socket);
  await once(socket, 'connect');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  const [chunk] = (await once(socket, 'data')) as [Buffer];
  socket.pause();
  return Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1', 0, 20))?.[1] ?? 0);
}

/** The n-th address of the load: 127.1.x.y, PER_ADDRESS viewers each. */
const addressOf = (n: number) => {
  const a = Math.floor(n / PER_ADDRESS);
  return `127.1.${Math.floor(a / 250)}.${(a % 250) + 1}`;
};

async function finishedTron(server: RunningServer): Promise<string> {
  const r = await fetch(server.url + '/api/matches', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'tron', seats: Array(4).fill('voronoi'), seed: 1, config: { width: 120, height: 120 } }),
  });
  const { id } = (await r.json()) as { id: string };
  for (;;) {
    const m = (await (await fetch(`${server.url}/api/matches/${id}`)).json()) as { status: string };
    if (m.status === 'finished') return id;
    if (m.status === 'aborted') throw new Error(`the bench's match ${id} was aborted`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function load(replayViewers: number, feedViewers: number, caps: { perAddress?: number; total?: number }, oneAddress: boolean) {
  const server = await startServer({ port: 0, host: '127.0.0.1', database: ':memory:', logStream: quiet, ladder: false, gateway: false, streams: caps });
  const port = Number(new URL(server.url).port);
  const sockets: net.Socket[] = [];
  try {
    const id = await finishedTron(server);
    const replayBytes = (await (await fetch(`${server.url}/api/matches/${id}/events`)).arrayBuffer()).byteLength;
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    let slowestHealth = 0;
    let healthFailures = 0;
    const health = setInterval(() => {
      const t0 = performance.now();
      fetch(server.url + '/healthz')
        .then((r) => (r.ok ? (slowestHealth = Math.max(slowestHealth, performance.now() - t0)) : healthFailures++))
        .catch(() => healthFailures++);
    }, 100);
    const statuses = new Map<number, number>();
    const paths = [...Array(replayViewers).fill(`/api/matches/${id}/events`), ...Array(feedViewers).fill('/api/events')] as string[];
    const t0 = performance.now();
    for (let i = 0; i < paths.length; i += 100) {
      const batch = paths.slice(i, i + 100).map((path, j) => viewer(port, path, oneAddress ? '127.0.0.1' : addressOf(i + j), sockets));
      for (const status of await Promise.all(batch)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const seconds = (performance.now() - t0) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    clearInterval(sampler);
    clearInterval(health);
    const after = process.memoryUsage();
    return [
      `${replayViewers} of a ${(replayBytes / 2 ** 20).toFixed(2)} MB replay + ${feedViewers} of the feed${oneAddress ? ', one address' : ''}`,
      [...statuses].map(([s, n]) => `${n}×${s}`).join(' '),
      mib(before.rss),
      mib(peakRss),
      mib(after.rss),
      mib(peakHeap - before.heapUsed),
      slowestHealth.toFixed(0),
      healthFailures,
      seconds.toFixed(1),
    ];
  } finally {
    for (const s of sockets) s.destroy();
    await server.close(0);
  }
}

export async function benchStreams(): Promise<(string | number)[][]> {
  return [
    [
      'viewers (none reads)',
      'answers',
      'RSS before (MB)',
      'RSS peak (MB)',
      'RSS after (MB)',
      'heap peak rise (MB)',
      'slowest /healthz (ms)',
      '/healthz failures',
      'seconds to connect all',
    ],
    await load(REPLAY, FEED, { total: REPLAY + FEED }, false),
    await load(REPLAY, 0, {}, true),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchStreams()) console.log(`| ${row.join(' | ')} |`);
}
