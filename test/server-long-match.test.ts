import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import type { TurnRecord } from '../src/core/engine.js';
import type { AnyGame } from '../src/core/game.js';
import type { Replay } from '../src/core/replay.js';
import { ReplayFollower } from '../src/core/replay-verify.js';
import { battleship } from '../src/games/battleship/index.js';
import type { BattleshipState } from '../src/games/battleship/rules.js';
import type { LiveEvent, PublicHeader } from '../src/live/events.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { Timeline } from '../web/src/timeline.js';
import { apiClient, until } from './server.kit.js';
import { readSse } from './sse.kit.js';

// Issue 34, part 2: one anonymous on-demand Battleship match of a large grid took the server's heap to its limit
// (every step's spectator frame held every shot so far: 716 MB of frames for 40×40, all kept for late viewers).
// The server runs in this process, so its heap is this process's heap; the match plays in a match thread.

/** The heap the main thread may use above where it started while the match plays (before: 2 GB, and a crash at 100×100). */
const HEAP_BOUND = 150 * 1024 * 1024;

const quiet = new Writable({ write: (_c, _e, cb) => cb() });
let server: RunningServer;
const api = apiClient(() => server.url);
const game = battleship as AnyGame;

before(async () => {
  server = await startServer({ port: 0, host: '127.0.0.1', database: ':memory:', logStream: quiet, ladder: false, gateway: false });
});
after(() => server.close(0));

test('a 40×40 Battleship match of two random bots plays to its end within a bounded heap, and its viewer draws every frame right', async (t) => {
  const heap0 = process.memoryUsage().heapUsed;
  let peak = heap0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
  try {
    const made = await api('POST', '/api/matches', { game: 'battleship', seats: ['random', 'random'], seed: 1, config: { width: 40, height: 40 } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body!.id as string;
    // A viewer from the start: it gets the match's start (from the history, if it came first) and every step.
    const events: LiveEvent[] = [];
    let bytes = 0;
    const viewer = readSse(`${server.url}/api/matches/${id}/events`, (data) => {
      events.push(data as LiveEvent);
      bytes += JSON.stringify(data).length;
    });
    const cut = await viewer.done.then(
      () => null,
      (err: Error) => err,
    );
    const m = await until('the match to be finished', async () => {
      const r = await api('GET', `/api/matches/${id}`);
      return r.body?.status === 'finished' ? r.body : null;
    });
    clearInterval(sampler);
    const grew = peak - heap0;
    assert.ok(grew < HEAP_BOUND, `the heap grew by ${(grew / 2 ** 20).toFixed(0)} MiB while the match played; the bound is ${HEAP_BOUND / 2 ** 20} MiB`);
    // (before, the viewer was also cut off: a frame of up to 200 KB a step was more than it could read)
    assert.equal(cut, null, `the viewer's stream broke: ${cut?.message}`);

    const replay = (await (await fetch(`${server.url}/api/matches/${id}/replay`)).json()) as Replay;
    assert.equal((m.result as { turns: number }).turns, replay.turns.length - 2, 'the shots: every step but the two hellos');
    assert.ok(replay.turns.length > 6000, `a long match: ${replay.turns.length} steps`);
    // The stream: the hidden start, every step once in order, the end; a few hundred bytes a step, not a frame that grows.
    assert.equal(events[0]?.type, 'started');
    assert.equal((events[0] as { header: PublicHeader }).header.hidden, true);
    const steps = events.filter((e): e is Extract<LiveEvent, { type: 'step' }> => e.type === 'step');
    assert.deepEqual(
      steps.map((s) => s.index),
      replay.turns.map((_, i) => i),
    );
    assert.equal(events[events.length - 1]?.type, 'ended');
    t.diagnostic(`heap +${(grew / 2 ** 20).toFixed(0)} MiB at most; ${steps.length} steps, ${(bytes / 2 ** 20).toFixed(1)} MiB of events`);
    assert.ok(bytes / steps.length < 400, `${(bytes / steps.length).toFixed(0)} bytes a step`);

    // The web player's timeline, fed the stream as the match page feeds it, draws at every step what the
    // spectator frame of the state after it is (rebuilt here from the replay, fleets and all).
    const timeline = new Timeline(game, (events[0] as { header: PublicHeader }).header);
    for (const s of steps) timeline.push(s.record as TurnRecord, s.frame, s.delta);
    assert.equal(timeline.mismatch, null);
    assert.equal(timeline.steps, replay.turns.length);
    const follower = new ReplayFollower(game, replay);
    const expected: unknown[] = [null];
    replay.turns.forEach((rec, i) => {
      follower.step(rec);
      // every 97th step (and the last) is enough to see the fold go wrong; each whole frame costs a copy of every strike
      if (i % 97 === 0 || i === replay.turns.length - 1) expected[i + 1] = battleship.presentation.spectator!.frame(follower.engine.state as BattleshipState);
    });
    // forward, as a live viewer watches, then backward from the end, as a viewer scrubs
    const check = (i: number) => assert.deepEqual(timeline.frame(i).publicFrame, expected[i], `frame ${i}`);
    for (let i = 1; i < expected.length; i++) if (expected[i] !== undefined) check(i);
    for (let i = expected.length - 1; i > 0; i--) if (expected[i] !== undefined) check(i);
    const last = timeline.frame(replay.turns.length).publicFrame as { strikes: unknown[][] };
    assert.equal(last.strikes[0]!.length + last.strikes[1]!.length, replay.turns.length - 2, 'every shot of the match (the two hellos place fleets)');
  } finally {
    clearInterval(sampler);
  }
});
