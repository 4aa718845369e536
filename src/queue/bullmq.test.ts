import { after, describe, it } from 'node:test';
import { redisMissing, testRedis } from '../../test/redis.kit.js';
import { BullMatchQueue } from './bullmq.js';
import { matchQueueContract } from './contract.kit.js';
import { MatchWorker } from '../worker/worker.js';

// The queue contract on BullMQ: a real redis-server of the test's own, and a `MatchWorker` (what `botarena
// worker` runs) in this process on the same store. Without Redis the tests skip saying why; under CI they fail.

const redis = await testRedis();

if ('missing' in redis) {
  describe('the BullMQ match queue', () => {
    it('runs the match-queue contract on a real Redis', (t) => redisMissing(redis.missing, t));
  });
} else {
  describe(`the BullMQ match queue (${redis.source})`, () => {
    let n = 0;
    matchQueueContract(async ({ store, live, concurrency, log }) => {
      // A fresh prefix: the tests on the one server do not take each other's jobs.
      const prefix = `botarena-queue-test-${process.pid}-${++n}`;
      const queue = new BullMatchQueue({ url: redis.url, prefix });
      const worker = new MatchWorker({ url: redis.url, prefix, store, live, log, concurrency, allowCommands: true, allowPrivateBots: true });
      worker.start();
      return {
        queue,
        async close() {
          await worker.stop(0);
          await queue.close();
        },
      };
    });
    // After the contract's own `after` (hooks run in order): its workers and queues close while Redis is up.
    after(() => redis.stop());
  });
}
