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
  // These matches are far past the work one request may ask for by default (--max-match-work): the cap is lifted
  // here, as an operator may, to show that even those never run on the thread that answers HTTP.
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: ':memory:',
    logStream: quiet,
    ladder: false,
    gateway: false,
    concurrency: 2,
    onDemand: { maxWork: Number.MAX_SAFE_INTEGER },
  });
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
    // At least 3 s of requests, as a few clients would send them (the test's client shares the server's thread,
    // so it must not flood it itself), and until the match has played a lap meanwhile (a lap takes seconds on a
    // loaded machine: a fixed window raced it): each must answer, and the loop must never stall for long.
    while (performance.now() - t0 < 3000 || ((await laps()) === lapsBefore && performance.now() - t0 < 60_000)) {
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
    assert.ok(
      p99Ms < 100,
      `the event loop's delay reached ${p99Ms.toFixed(1)} ms at the 99th percentile (max ${maxMs.toFixed(1)} ms, ${answered} requests answered)`,
    );
  });

  it('stays under 100 ms (99th percentile) through the end of a long match, while it is recorded (its replay is packed in the match thread)', async (t) => {
    // 12 straight-line bots on 200×200: thousands of laps, megabytes of messages to store at the end.
    const r = await api('POST', '/api/matches', { game: 'tron', seats: Array(12).fill('stupid'), seed: 1, config: { width: 200, height: 200 } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = r.body!.id as string;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const m = await until(
      'the match to be recorded',
      async () => {
        const got = await api('GET', `/api/matches/${id}`);
        return got.body!.status === 'finished' || got.body!.status === 'aborted' ? got.body : null;
      },
      120_000,
    );
    delay.disable();
    assert.equal(m.status, 'finished', String(m.abortReason));
    const { maxMs, p99Ms } = delays(delay);
    t.diagnostic(`event-loop delay: max ${maxMs.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms over ${(m.result as { turns: number }).turns} laps`);
    assert.ok(p99Ms < 100, `the event loop's delay reached ${p99Ms.toFixed(1)} ms at the 99th percentile (max ${maxMs.toFixed(1)} ms)`);
  });
  it("plays a person's match in a match thread too: the server answers while the bots at the person's table think", async (t) => {
    // A person and 11 Voronoi bots on a 300×300 Tron grid: every lap, while the person is asked, the bots search
    // the grid in the match's thread (a second or so of work a lap). The person's desk is here, the match there.
    const side = 300;
    const r = await api('POST', '/api/matches', {
      game: 'tron',
      seats: ['person', ...Array(11).fill('voronoi')],
      test: true,
      seed: 3,
      config: { width: side, height: side },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = r.body!.id as string;
    const token = (r.body!.persons as { slot: number; token: string }[])[0]!.token;
    const asks = await askStream(`/api/matches/${id}/seats/0/play?token=${token}`);
    try {
      // The first ask comes once the match plays; the page's first answer compiles the move route's serializer.
      const play = async () => {
        const view = (await asks.nextAsk()).view as { board: number[][][]; 'player-index': number };
        const answer = await api('POST', `/api/matches/${id}/seats/0/move`, { line: safeMove(view, side) }, token);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
      };
      await play();
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      let moves = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < 4000 && moves < 6) {
        await play();
        moves++;
        assert.equal((await api('GET', '/healthz')).status, 200);
      }
      delay.disable();
      const { maxMs, p99Ms } = delays(delay);
      t.diagnostic(`event-loop delay: max ${maxMs.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms; the person played ${moves} laps`);
      assert.ok(moves >= 2, `the person played ${moves} laps in 4 s`);
      assert.ok(
        p99Ms < 100,
        `the event loop's delay reached ${p99Ms.toFixed(1)} ms at the 99th percentile (max ${maxMs.toFixed(1)} ms) while a person's match played`,
      );
    } finally {
      asks.close();
    }
  });
});

/** A person's play stream (SSE) as a page reads it: `nextAsk` is the next `ask` event's data. */
async function askStream(path: string) {
  const abort = new AbortController();
  const res = await fetch(server.url + path, { signal: abort.signal });
  assert.equal(res.status, 200, await (res.status === 200 ? Promise.resolve('') : res.text()));
  const reader = res.body!.getReader();
  let buffer = '';
  return {
    async nextAsk(): Promise<Record<string, unknown>> {
      for (;;) {
        const block = /^([\s\S]*?)\n\n/.exec(buffer);
        if (block) {
          buffer = buffer.slice(block[0].length);
          const data = /^data: (.+)$/m.exec(block[1]!)?.[1];
          if (/^event: ask$/m.test(block[1]!) && data) return JSON.parse(data) as Record<string, unknown>;
          if (/^event: ended$/m.test(block[1]!)) assert.fail(`the person's seat ended: ${data}`);
          continue;
        }
        const { done, value } = await reader.read();
        if (done) assert.fail('the play stream ended');
        buffer += Buffer.from(value).toString();
      }
    },
    close: () => abort.abort(),
  };
}

/** A Tron move that keeps the person alive this lap: the first free cell next to its head, inside the grid. */
function safeMove(view: { board: number[][][]; 'player-index': number }, side: number): string {
  const taken = new Set(view.board.flatMap((trail) => trail.map(([x, y]) => `${x},${y}`)));
  const [hx, hy] = view.board[view['player-index']]![0]! as [number, number];
  const free = (
    [
      ['x+', 1, 0],
      ['x-', -1, 0],
      ['y+', 0, 1],
      ['y-', 0, -1],
    ] as const
  ).find(([, dx, dy]) => {
    const [x, y] = [hx + dx, hy + dy];
    return x >= 0 && y >= 0 && x < side && y < side && !taken.has(`${x},${y}`);
  });
  return free?.[0] ?? 'x+';
}
