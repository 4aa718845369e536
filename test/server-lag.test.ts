import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { apiClient, until } from './server.kit.js';

// The server answers while a heavy match plays: matches run in the local queue's match threads, not on the
// thread that answers HTTP. The heaviest match the API lets anyone ask for: Tron, 12 built-in Voronoi bots
// (each searches the whole grid every lap) on the largest grid the game allows. The server runs in this
// process, so this process's event-loop delay is the server's.

// The bound is on the 99th percentile of the delay, the max is reported beside it: the machine running the
// tests is shared and noisy, and a single GC pause or a neighbour's burst must not fail CI, while a match
// played on this thread would push every percentile up (a Voronoi lap on a 1000×1000 grid takes seconds).

/** The delays measured, in ms: the 99th percentile (what is bounded) and the max (what is reported). */
function delays(h: ReturnType<typeof monitorEventLoopDelay>): { maxMs: number; p99Ms: number } {
  return { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6 };
}

let server: RunningServer;
const api = apiClient(() => server.url);
const MAX_SIDE = 1000; // tron's width and height limit (src/games/tron/index.ts)

before(async () => {
  const quiet = process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() });
  server = await startServer({ port: 0, host: '127.0.0.1', database: ':memory:', logStream: quiet, ladder: false, gateway: false, concurrency: 2 });
});

after(async () => {
  await server.close(0);
});

describe('the server while a 12-bot Tron match plays on the largest grid', () => {
  it('keeps /healthz and a leaderboard answering, with event-loop delay under 100 ms (99th percentile)', async (t) => {
    const r = await api('POST', '/api/matches', { game: 'tron', seats: Array(12).fill('voronoi'), config: { width: MAX_SIDE, height: MAX_SIDE } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = r.body!.id as string;
    // Measured from its first laps on: the match is under way, its bots searching.
    const laps = async () => (await server.arena.live.history(id))?.filter((e) => e.type === 'step').length ?? 0;
    await until('the match to play its first laps', async () => (await laps()) >= 13, 60_000);

    const ask = async () => {
      const health = await api('GET', '/healthz');
      assert.equal(health.status, 200);
      const board = await api('GET', '/api/leaderboards/tron');
      assert.equal(board.status, 200, JSON.stringify(board.body));
    };
    // Once before measuring: a route's first answer compiles its serializer, which is no match's doing.
    await ask();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let answered = 0;
    const lapsBefore = await laps();
    const t0 = performance.now();
    // About 3 s of requests, as a few clients would send them (the test's client shares the server's thread,
    // so it must not flood it itself): each must answer, and the loop must never stall for long.
    while (performance.now() - t0 < 3000) {
      await ask();
      answered += 2;
      await new Promise((r) => setTimeout(r, 50));
    }
    delay.disable();
    const lapsAfter = await laps();
    const m = await api('GET', `/api/matches/${id}`);

    assert.equal(m.body!.status, 'running', 'the match played all along the measure');
    assert.ok(lapsAfter > lapsBefore, `the match went on meanwhile (steps ${lapsBefore} → ${lapsAfter})`);
    assert.ok(answered >= 20, `requests answered: ${answered}`);
    const { maxMs, p99Ms } = delays(delay);
    t.diagnostic(`event-loop delay: max ${maxMs.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms; steps ${lapsBefore} → ${lapsAfter}; ${answered} requests answered`);
    assert.ok(p99Ms < 100, `the event loop's delay reached ${p99Ms.toFixed(1)} ms at the 99th percentile (max ${maxMs.toFixed(1)} ms, ${answered} requests answered)`);
  });

  it('stays under 100 ms (99th percentile) through the end of a long match, while it is recorded (its replay is packed in the match thread)', async (t) => {
    // 12 straight-line bots on 200×200: thousands of laps, megabytes of messages to store at the end.
    const r = await api('POST', '/api/matches', { game: 'tron', seats: Array(12).fill('stupid'), seed: 1, config: { width: 200, height: 200 } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = r.body!.id as string;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const m = await until('the match to be recorded', async () => {
      const got = await api('GET', `/api/matches/${id}`);
      return got.body!.status === 'finished' || got.body!.status === 'aborted' ? got.body : null;
    }, 120_000);
    delay.disable();
    assert.equal(m.status, 'finished', String(m.abortReason));
    const { maxMs, p99Ms } = delays(delay);
    t.diagnostic(`event-loop delay: max ${maxMs.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms over ${(m.result as { turns: number }).turns} laps`);
    assert.ok(p99Ms < 100, `the event loop's delay reached ${p99Ms.toFixed(1)} ms at the 99th percentile (max ${maxMs.toFixed(1)} ms)`);
  });
});
