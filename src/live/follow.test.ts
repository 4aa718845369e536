import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveEvent, LiveEvents } from './events.js';
import { followMatch } from './follow.js';
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
