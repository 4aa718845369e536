import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveEventsContract } from './contract.kit.js';
import { newSince, type LiveEvent } from './events.js';
import { LocalLiveEvents } from './local.js';

describe('in-process live events (LocalLiveEvents)', () => {
  liveEventsContract((opts) => new LocalLiveEvents(opts));

  it('drained() resolves once every event published so far is delivered, slow listeners included', async () => {
    const live = new LocalLiveEvents();
    const got: number[] = [];
    live.subscribe('m', 'full', async (e) => {
      if (e.type !== 'stopped') return;
      await new Promise((resolve) => setTimeout(resolve, 1));
      got.push(Number(e.reason));
    });
    for (let i = 0; i < 20; i++) live.publish('m', 'full', { type: 'stopped', matchId: 'm', reason: String(i) });
    assert.equal(got.length, 0, 'delivery is on later ticks');
    await live.drained();
    assert.deepEqual(
      got,
      Array.from({ length: 20 }, (_, i) => i),
    );
    await live.close();
  });

  it("keeps a match's history within its bytes; past them a late viewer gets its start, `truncated` and its end, never a silent gap", async () => {
    const live = new LocalLiveEvents({ historyMaxBytes: 20_000 });
    const started: LiveEvent = {
      type: 'started',
      matchId: 'b',
      header: { hidden: true, game: 'battleship', matchId: 'b', seats: [], timeouts: { initMs: 1, turnMs: 1 } },
    };
    const step = (index: number, pad = 0): LiveEvent => ({
      type: 'step',
      matchId: 'b',
      index,
      record: { turn: index + 1, phase: 'play', moves: [] },
      delta: 'x'.repeat(pad),
    });
    const size = (events: LiveEvent[] | null) => JSON.stringify(events).length;
    live.publish('b', 'public', started);
    for (let i = 0; i < 50; i++) live.publish('b', 'public', step(i));
    const small = await live.history('b');
    assert.deepEqual(
      small?.map((e) => (e.type === 'step' ? e.index : e.type)),
      ['started', ...Array.from({ length: 50 }, (_, i) => i)],
      'under the bound: every event',
    );
    // Events of 1 KB: the 20 000 bytes are passed on the 20th or so step, and no more are kept however many come.
    for (let i = 50; i < 1050; i++) live.publish('b', 'public', step(i, 1000));
    const cut = await live.history('b');
    assert.ok(size(cut) < 2000, `the history holds ${size(cut)} bytes after 1 MB of steps; its bound is 20 000`);
    assert.deepEqual(
      cut?.map((e) => e.type),
      ['started', 'truncated'],
    );
    const note = cut![1] as Extract<LiveEvent, { type: 'truncated' }>;
    assert.equal(note.steps, 1050, 'it says how many steps are missing');
    assert.match(note.reason, /1050 steps so far are more than this server keeps for viewers who join late \(20000 characters of JSON/);
    assert.match(note.reason, /replay has every step once it ends/);
    // A late viewer then gets the steps still to come, as they come, and the end.
    const got: string[] = [];
    live.subscribe('b', 'public', (e) => void got.push(e.type === 'step' ? String(e.index) : e.type));
    live.publish('b', 'public', step(1050));
    live.publish('b', 'public', { type: 'ended', matchId: 'b', result: { players: [], turns: 1051 } as never, durationMs: 5 });
    await live.drained();
    assert.deepEqual(got, ['1050', 'ended']);
    assert.deepEqual(
      (await live.history('b'))?.map((e) => e.type),
      ['started', 'truncated', 'ended'],
    );
    // The next match of the same id starts afresh.
    live.publish('b', 'public', started);
    live.publish('b', 'public', step(0));
    assert.deepEqual(
      (await live.history('b'))?.map((e) => e.type),
      ['started', 'step'],
    );
    await live.close();
  });
});

describe("newSince (a late viewer's history, then what it received meanwhile)", () => {
  const started: LiveEvent = {
    type: 'started',
    matchId: 'm',
    header: { hidden: true, game: 'tron', matchId: 'm', seats: [], timeouts: { initMs: 1, turnMs: 1 } },
  };
  const step = (index: number): LiveEvent => ({ type: 'step', matchId: 'm', index, record: { turn: index + 1, phase: 'play', moves: [], hash: `h${index}` } });
  const message = (n: number): LiveEvent => ({ type: 'message', matchId: 'm', slot: 0, entry: { n } as never });
  const ended: LiveEvent = { type: 'ended', matchId: 'm', result: { players: [], turns: 3, outcome: 'draw' } as never, durationMs: 5 };
  const stopped: LiveEvent = { type: 'stopped', matchId: 'm', reason: 'stopped by its organiser' };
  const name = (e: LiveEvent) => (e.type === 'step' ? e.index : e.type === 'message' ? `message ${(e.entry as unknown as { n: number }).n}` : e.type);

  it("keeps a start, the steps after the history's last, and an end only when the history lacks them; other events always", () => {
    assert.deepEqual(newSince([], [started, step(0), step(1), ended]).map(name), ['started', 0, 1, 'ended']);
    assert.deepEqual(newSince([started, step(0), step(1)], [step(1), step(2), started, message(1), step(3)]).map(name), [2, 'message 1', 3]);
    assert.deepEqual(newSince([step(4)], [step(3), step(4), step(5)]).map(name), [5], 'a history without its start: still no step twice');
    assert.deepEqual(newSince([started, step(0), step(5), step(2)], [step(4), step(6)]).map(name), [6], "after the history's highest step");
    assert.deepEqual(newSince([started, step(0), ended], [step(1), ended, stopped, message(2)]).map(name), [1, 'message 2']);
    assert.deepEqual(newSince([started, stopped], [ended, stopped]).map(name), [], 'a stop ends it as an end does');
    assert.deepEqual(newSince([started, message(1)], [message(1), stopped]).map(name), ['message 1', 'stopped'], 'messages have no index: never filtered');
    assert.deepEqual(newSince([started], []), []);
  });

  it('history then newSince gives every start, step and end once, in order, wherever the viewer subscribed and read', () => {
    const all: LiveEvent[] = [started, ...Array.from({ length: 6 }, (_, i) => step(i)), ended];
    for (let subscribedAt = 0; subscribedAt <= all.length; subscribedAt++) {
      // the history is read after subscribing: it holds at least everything before the subscription
      for (let readAt = subscribedAt; readAt <= all.length; readAt++) {
        const history = all.slice(0, readAt);
        const received = all.slice(subscribedAt);
        assert.deepEqual([...history, ...newSince(history, received)].map(name), all.map(name), `subscribed at ${subscribedAt}, read at ${readAt}`);
      }
    }
  });
});
