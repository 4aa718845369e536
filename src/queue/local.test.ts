import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { newJob } from '../arena/match-job.js';
import { MatchPool } from '../arena/match-pool.js';
import type { LiveEvents } from '../live/events.js';
import { withFeed } from '../live/feed.js';
import { LocalLiveEvents } from '../live/local.js';
import { matchHandler } from '../matches/handler.js';
import { openStore, type Store } from '../store/index.js';
import { matchQueueContract } from './contract.kit.js';
import { LocalMatchQueue } from './local.js';

/** The local queue as the server composes it: its handler (matches/handler.ts) plays in a pool of match threads. */
function localQueue(store: Store, live: LiveEvents, log: FastifyBaseLogger, concurrency: number, node: string) {
  const pool = new MatchPool(concurrency, { addressPolicy: 'any' }, undefined, true);
  const handler = matchHandler({ store, live: withFeed(live), log, node, addressPolicy: 'any', maxTries: 3, cancelled: 'abort', pool });
  const queue = new LocalMatchQueue({ handler, concurrency, node });
  return {
    queue,
    async close() {
      await queue.stop(0);
      await queue.close();
      await pool.close();
    },
  };
}

describe('the local match queue (match threads in this process)', () => {
  matchQueueContract(async ({ store, live, concurrency, log }) => localQueue(store, live, log, concurrency, 'test-node'));

  it('carries match ids to the handler it is given: each once, at most `concurrency` at once, the unbounded ones at once', async () => {
    // The queue knows nothing of matches: whatever the composition root gives it is called with each id.
    const started: string[] = [];
    const release = new Map<string, () => void>();
    let most = 0;
    const queue = new LocalMatchQueue({
      concurrency: 2,
      node: 'n',
      unbounded: (id) => id.startsWith('person'),
      handler: (id) => {
        started.push(id);
        most = Math.max(most, [...release.keys()].filter((k) => !k.startsWith('person')).length + (id.startsWith('person') ? 0 : 1));
        return new Promise<string>((resolve) => release.set(id, () => (release.delete(id), resolve(`played ${id}`))));
      },
    });
    for (const id of ['a', 'b', 'c', 'a']) await queue.enqueue(id);
    assert.deepEqual(started, ['a', 'b'], 'two at once; "a" handed over twice is taken once');
    assert.deepEqual([await queue.state('a'), await queue.state('c')], ['active', 'waiting']);
    await queue.enqueue('person-1');
    assert.deepEqual(started, ['a', 'b', 'person-1'], 'an unbounded match is not kept waiting');
    release.get('a')!();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, ['a', 'b', 'person-1', 'c'], 'the next one starts when a place is free');
    assert.equal(await queue.state('a'), 'completed');
    assert.equal(most, 2);
    const stopping = queue.stop(50);
    for (const done of [...release.values()]) done();
    await stopping;
    await queue.enqueue('d');
    assert.equal(await queue.state('d'), 'unknown', 'a stopped queue takes nothing more');
  });

  it('stop(grace): a match still playing after the grace is cancelled and marked aborted, saying the server stopped', async () => {
    const store = await openStore(':memory:');
    const live = new LocalLiveEvents();
    const local = localQueue(store, live, pino({ level: 'silent' }), 1, 'n');
    const queue = local.queue;
    try {
      // The paced bot takes 5 s a move: the match is still playing when the grace runs out.
      const slow = await store.createBot({
        game: 'tictactoe',
        name: 'slow',
        endpoint: `stdio:python3 ${new URL('../../test/fixtures/tournament/ttt-pace.py', import.meta.url).pathname} 5`,
      });
      const mm = await store.createBot({ game: 'tictactoe', name: 'mm', endpoint: 'minimax' });
      const job = newJob({ matchId: 'long', game: 'tictactoe', seed: 1, seats: [{ bot: slow.endpoint }, { bot: mm.endpoint }] });
      await store.createMatch({ id: 'long', game: 'tictactoe', kind: 'challenge', rated: false, seed: 1, config: {}, job, seats: [slow.id, mm.id] });
      await queue.enqueue('long');
      const t0 = performance.now();
      while ((await store.getMatch('long'))!.status !== 'running') {
        assert.ok(performance.now() - t0 < 20_000, 'the match starts');
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(await queue.state('long'), 'active');
      await queue.stop(100);
      const m = (await store.getMatch('long'))!;
      assert.equal(m.status, 'aborted');
      assert.equal(m.abortReason, 'the server stopped before the match ended');
      await queue.enqueue('long');
      assert.equal(await queue.state('long'), 'completed', 'a stopped queue takes nothing more');
    } finally {
      await local.close();
      await live.close();
      await store.close();
    }
  });
});
