import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveEventsContract } from './contract.kit.js';
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
    assert.deepEqual(got, Array.from({ length: 20 }, (_, i) => i));
    await live.close();
  });
});
