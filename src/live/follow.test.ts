import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveEvent, LiveEvents } from './events.js';
import { followMatch, gapGuard } from './follow.js';
import { LocalLiveEvents } from './local.js';

const started: LiveEvent = {
  type: 'started',
  matchId: 'm',
  header: { hidden: true, game: 'tron', matchId: 'm', seats: [], timeouts: { initMs: 1, turnMs: 1 } },
};

/** Live events whose history read answers "nothing kept" after the match has started meanwhile (a worker elsewhere). */
function startsDuringHistoryRead(live: LocalLiveEvents): LiveEvents {
  return {
    publish: (id, audience, e) => live.publish(id, audience, e),
    subscribe: (id, audience, l) => live.subscribe(id, audience, l),
    history: async () => {
      live.publish('m', 'public', started);
      await live.drained();
      return null;
    },
    close: () => live.close(),
  };
}

describe('following one match (a viewer of GET /api/matches/ID/events)', () => {
  it('a match the store has as queued is followed from before the history read: a start in between is not missed', async () => {
    const local = new LocalLiveEvents();
    const got: LiveEvent[] = [];
    const followed = await followMatch(startsDuringHistoryRead(local), 'm', (e) => got.push(e), { waitForStart: true });
    assert.ok(followed, 'followed although nothing was kept when the history was read');
    got.push(...followed.history);
    followed.deliver();
    local.publish('m', 'public', { type: 'stopped', matchId: 'm', reason: 'done' });
    await local.drained();
    assert.deepEqual(
      got.map((e) => e.type),
      ['started', 'stopped'],
    );
    followed.stop();
    await local.close();
  });

  it('without waitForStart, nothing kept is null (the route then answers from the store)', async () => {
    const local = new LocalLiveEvents();
    assert.equal(await followMatch(local, 'm', () => {}), null);
    await local.close();
  });
});

const step = (index: number): LiveEvent => ({ type: 'step', matchId: 'm', index, record: { turn: index, phase: 'play', moves: [] } });
const kinds = (events: LiveEvent[]) => events.map((e) => (e.type === 'step' ? e.index : e.type));

describe('a viewer told about holes in its stream (issue 35: after a Redis outage the stream jumped from step 79 to 346)', () => {
  it('steps missed live: `truncated` naming them comes before the step after the hole, once; a step given twice is given once', () => {
    const got: LiveEvent[] = [];
    const guard = gapGuard('m', (e) => got.push(e));
    for (const e of [
      started,
      step(0),
      step(1),
      step(1),
      step(2),
      step(6),
      step(7),
      step(9),
      { type: 'ended', matchId: 'm', result: null as never, durationMs: 1 } as LiveEvent,
    ])
      guard(e);
    assert.deepEqual(kinds(got), ['started', 0, 1, 2, 'truncated', 6, 7, 9, 'ended']);
    const hole = got[4] as Extract<LiveEvent, { type: 'truncated' }>;
    assert.equal(hole.steps, 3);
    assert.match(hole.reason, /missed steps 3 to 5/);
  });

  it('steps lost just before the end: the end says how many steps the match had, and the missing ones are named before it', () => {
    const got: LiveEvent[] = [];
    const guard = gapGuard('m', (e) => got.push(e));
    for (const e of [started, step(0), step(1), { type: 'ended', matchId: 'm', result: null as never, durationMs: 1, steps: 4 } as LiveEvent]) guard(e);
    assert.deepEqual(kinds(got), ['started', 0, 1, 'truncated', 'ended']);
    assert.match((got[3] as Extract<LiveEvent, { type: 'truncated' }>).reason, /missed steps 2 to 3/);
  });

  it('a match started again (its worker stopped): `restarted` before the new start, and its steps count from 0 again', () => {
    const got: LiveEvent[] = [];
    const guard = gapGuard('m', (e) => got.push(e));
    for (const e of [started, step(0), step(1), step(2), started, step(0), step(1)]) guard(e);
    assert.deepEqual(kinds(got), ['started', 0, 1, 2, 'restarted', 'started', 0, 1]);
    assert.match((got[4] as Extract<LiveEvent, { type: 'restarted' }>).reason, /starts again from its first step/);
  });

  it('followMatch guards both the catch-up and the live events: a hole across them is told', async () => {
    const local = new LocalLiveEvents();
    local.publish('m', 'public', started);
    local.publish('m', 'public', step(0));
    local.publish('m', 'public', step(1));
    const got: LiveEvent[] = [];
    const followed = await followMatch(local, 'm', (e) => got.push(e));
    assert.ok(followed);
    got.push(...followed.history);
    followed.deliver();
    // Steps 2..4 never reach this process (as when a Redis subscription is down), then the match goes on.
    local.publish('m', 'public', step(5));
    local.publish('m', 'public', started);
    local.publish('m', 'public', step(0));
    await local.drained();
    assert.deepEqual(kinds(got), ['started', 0, 1, 'truncated', 5, 'restarted', 'started', 0]);
    followed.stop();
    await local.close();
  });
});

describe("a viewer whose live events lost the match's end (a Redis restart)", () => {
  it('learns it from the store, once, and is not told again when the live end comes after all', async () => {
    const local = new LocalLiveEvents();
    local.publish('m', 'public', started);
    const got: LiveEvent[] = [];
    let over: LiveEvent | null = null;
    let asked = 0;
    const overInStore = async () => (asked++, over);
    const followed = await followMatch(local, 'm', (e) => got.push(e), { overInStore, checkMs: 10 });
    assert.ok(followed);
    got.push(...followed.history);
    followed.deliver();
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(asked >= 2, 'asked while the match plays');
    assert.deepEqual(kinds(got), ['started'], 'nothing while the store has it playing');
    local.publish('m', 'public', step(0));
    await local.drained();
    // The store's end says the match had 3 steps: the two this viewer never got are named before it.
    over = { type: 'ended', matchId: 'm', result: null as never, durationMs: 1, steps: 3 };
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(kinds(got), ['started', 0, 'truncated', 'ended']);
    assert.match((got[2] as Extract<LiveEvent, { type: 'truncated' }>).reason, /missed steps 1 to 2/);
    const after = asked;
    local.publish('m', 'public', { type: 'ended', matchId: 'm', result: null as never, durationMs: 1 });
    await local.drained();
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(kinds(got), ['started', 0, 'truncated', 'ended'], 'the end once');
    assert.equal(asked, after, 'no more asking once it is over');
    followed.stop();
    await local.close();
  });
});
