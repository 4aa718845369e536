import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { newJob } from '../arena/match-job.js';
import { LocalLiveEvents } from '../live/local.js';
import { withFeed } from '../matches/play.js';
import { openStore } from '../store/index.js';
import { matchQueueContract } from './contract.kit.js';
import { LocalMatchQueue } from './local.js';

describe('the local match queue (match threads in this process)', () => {
  matchQueueContract(async ({ store, live, concurrency, log }) => {
    const queue = new LocalMatchQueue({ store, live: withFeed(live), log, concurrency, node: 'test-node', addressPolicy: 'any' });
    return {
      queue,
      async close() {
        await queue.stop(0);
        await queue.close();
      },
    };
  });

  it('stop(grace): a match still playing after the grace is cancelled and marked aborted, saying the server stopped', async () => {
    const store = await openStore(':memory:');
    const live = new LocalLiveEvents();
    const queue = new LocalMatchQueue({ store, live: withFeed(live), log: pino({ level: 'silent' }), concurrency: 1, node: 'n', addressPolicy: 'any' });
    try {
      // The paced bot takes 5 s a move: the match is still playing when the grace runs out.
      const slow = await store.createBot({ game: 'tictactoe', name: 'slow', endpoint: `stdio:python3 ${new URL('../../test/fixtures/tournament/ttt-pace.py', import.meta.url).pathname} 5` });
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
      await queue.close();
      await live.close();
      await store.close();
    }
  });
});
