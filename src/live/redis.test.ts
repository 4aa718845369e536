import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { redisMissing, testRedis } from '../../test/redis.kit.js';
import { liveEventsContract } from './contract.kit.js';
import type { LiveEvent } from './events.js';
import { RedisLiveEvents, redactRedisUrl, type RedisLiveOptions } from './redis.js';

// The live-events contract on a real Redis (BOTARENA_TEST_REDIS_URL's, or a private redis-server), and what
// only Redis has: other processes, outages, big events. Without Redis the tests skip saying why; under CI
// (BOTARENA_CI) they fail.
const redis = await testRedis();

const step = (matchId: string, index: number, say = `é ${index}`): LiveEvent => ({
  type: 'step',
  matchId,
  index,
  record: { turn: index + 1, phase: 'play', moves: [{ slot: 0, action: { say }, ms: 1.5 }], hash: `h${index}` },
});
const started = (matchId: string): LiveEvent => ({
  type: 'started',
  matchId,
  header: { hidden: true, game: 'tron', matchId, seats: [], timeouts: { initMs: 1, turnMs: 1 } },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const t0 = performance.now();
  while (!check()) {
    if (performance.now() - t0 > ms) assert.fail(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(5);
  }
}

if ('missing' in redis) {
  describe('live events on Redis', () => {
    it('runs the live-events contract on a real Redis', (t) => redisMissing(redis.missing, t));
  });
} else {
  describe(`live events on Redis (${redis.source})`, () => {
    // Every instance made here is closed at the end, even by a failed test, so no connection holds the file open.
    const made: RedisLiveEvents[] = [];
    let prefixes = 0;
    /** A fresh prefix: tests on the one server do not see each other's channels and keys. */
    const newPrefix = () => `botarena-test-${process.pid}-${++prefixes}`;
    const open = (opts: Partial<RedisLiveOptions> = {}) => {
      const live = new RedisLiveEvents({ url: redis.url, prefix: newPrefix(), ...opts });
      made.push(live);
      return live;
    };
    after(async () => {
      await Promise.all(made.map((l) => l.close()));
      await redis.stop();
    });

    liveEventsContract((opts) => open(opts));

    it('carries events between two instances (two processes), in order, and both see the same history', async () => {
      const prefix = newPrefix();
      const worker = open({ prefix });
      const web = open({ prefix });
      const got: LiveEvent[] = [];
      web.subscribe('x1', 'public', (e) => void got.push(e));
      // The web process's SUBSCRIBE is on another connection than the worker's PUBLISH: wait until it holds.
      await until(() => {
        worker.publish('x1', 'public', { type: 'message', matchId: 'x1', slot: 0, entry: { ping: true } as never });
        return got.length > 0;
      }, 'the subscription to take');
      await sleep(50);
      got.length = 0;
      const sent = [started('x1'), ...Array.from({ length: 300 }, (_, i) => step('x1', i))];
      for (const e of sent) worker.publish('x1', 'public', e);
      await until(() => got.length === sent.length, `${sent.length} events on the other instance`);
      assert.deepEqual(got, JSON.parse(JSON.stringify(sent)));
      assert.deepEqual(await web.history('x1'), JSON.parse(JSON.stringify(sent)));
      assert.deepEqual(await worker.history('x1'), await web.history('x1'));
      // A listener of the worker's own instance hears it too, and another prefix (another arena) does not.
      const other = open();
      const heard: LiveEvent[] = [];
      other.subscribe('x1', 'public', (e) => void heard.push(e));
      worker.publish('x1', 'public', step('x1', 300));
      await until(() => got.length === sent.length + 1, 'one more event');
      await sleep(50);
      assert.deepEqual(heard, []);
      assert.equal(await other.history('x1'), null);
      await Promise.all([worker.close(), web.close(), other.close()]);
    });

    it('a match started again replaces its history; a second end does not extend it', async () => {
      const live = open({ historyAfterEndMs: 400 });
      live.publish('r1', 'public', started('r1'));
      live.publish('r1', 'public', step('r1', 0));
      live.publish('r1', 'public', { type: 'stopped', matchId: 'r1', reason: 'worker lost' });
      live.publish('r1', 'public', started('r1')); // a retry of the same match
      live.publish('r1', 'public', step('r1', 0));
      assert.deepEqual(await live.history('r1'), JSON.parse(JSON.stringify([started('r1'), step('r1', 0)])));
      live.publish('r1', 'public', { type: 'stopped', matchId: 'r1', reason: 'first' });
      await sleep(250);
      live.publish('r1', 'public', { type: 'stopped', matchId: 'r1', reason: 'second' });
      live.publish('r1', 'public', step('r1', 1)); // after its end: kept, but the clock runs from the first end
      assert.equal((await live.history('r1'))?.length, 5);
      await sleep(250);
      assert.equal(await live.history('r1'), null, 'gone 400 ms after its first end');
      await live.close();
    });

    it('round-trips a 1 MB event, to a listener and through the history', async () => {
      const live = open();
      const big = step('big', 0, 'x'.repeat(1 << 20));
      const got: LiveEvent[] = [];
      live.subscribe('big', 'public', (e) => void got.push(e));
      live.publish('big', 'public', started('big'));
      live.publish('big', 'public', big);
      live.publish('big', 'public', step('big', 1));
      await until(() => got.length === 3, 'the three events', 5000);
      assert.deepEqual(got[1], big);
      assert.equal(got[2]!.type === 'step' && got[2]!.index, 1);
      const h = await live.history('big');
      assert.equal(h?.length, 3);
      assert.deepEqual(h![1], big);
      await live.close();
    });

    it("caps a match's history at historyMax events, and still ends it", async () => {
      const live = open({ historyMax: 10, historyAfterEndMs: 200 });
      live.publish('cap', 'public', started('cap'));
      for (let i = 0; i < 50; i++) live.publish('cap', 'public', step('cap', i));
      live.publish('cap', 'public', { type: 'ended', matchId: 'cap', result: { players: [], turns: 50, outcome: 'draw' } as never, durationMs: 5 });
      const h = await live.history('cap');
      assert.deepEqual(
        h?.map((e) => (e.type === 'step' ? e.index : e.type)),
        ['started', 0, 1, 2, 3, 4, 5, 6, 7, 8],
      );
      const t0 = performance.now();
      while ((await live.history('cap')) !== null) {
        assert.ok(performance.now() - t0 < 3000, 'the capped history must still expire after its end');
        await sleep(20);
      }
      await live.close();
      assert.throws(() => new RedisLiveEvents({ url: redis.url, historyMax: 0 }), /historyMax must be at least 1/);
    });

    it('with Redis unreachable: history() rejects within seconds naming the URL (no password); publish neither throws nor waits, and says so once', async () => {
      const lines: string[] = [];
      const url = 'redis://arena:s3cret-pw@127.0.0.1:1/2'; // nothing listens on port 1
      const live = open({ url, log: (l) => lines.push(l) });
      const t0 = performance.now();
      for (let i = 0; i < 100; i++) live.publish('down', 'public', step('down', i));
      live.publish('down', 'full', step('down', 100));
      assert.ok(performance.now() - t0 < 50, 'publish must not wait for Redis');
      const t1 = performance.now();
      await assert.rejects(live.history('down'), (e: Error) => {
        assert.match(
          e.message,
          /^live events: cannot read the history of match down from Redis at redis:\/\/arena:\*\*\*@127\.0\.0\.1:1\/2: Redis could not be reached: .+$/,
        );
        assert.ok(!e.message.includes('s3cret-pw'));
        return true;
      });
      assert.ok(performance.now() - t1 < 5000, `history() took ${Math.round(performance.now() - t1)} ms`);
      await until(() => lines.some((l) => l.includes('cannot publish')), 'the failed publishes to be logged', 5000);
      assert.equal(lines.filter((l) => l.includes('cannot publish')).length, 1, lines.join('\n'));
      assert.ok(
        lines.some((l) => /the publishing connection to Redis at redis:\/\/arena:\*\*\*@127\.0\.0\.1:1\/2: .*ECONNREFUSED/.test(l)),
        lines.join('\n'),
      );
      assert.ok(lines.every((l) => !l.includes('s3cret-pw')));
      const t2 = performance.now();
      await live.close();
      assert.ok(performance.now() - t2 < 1000, 'close() does not wait for an unreachable Redis');
    });

    it('redactRedisUrl hides the password and only it', () => {
      assert.equal(redactRedisUrl('redis://u:pw@h:6379/3'), 'redis://u:***@h:6379/3');
      assert.equal(redactRedisUrl('redis://h:6379'), 'redis://h:6379');
      assert.equal(redactRedisUrl('not a url'), '(a Redis URL that does not parse)');
      assert.equal(RedisLiveEvents.redactUrl, redactRedisUrl);
    });

    // Last: it kills the file's server (and starts it again, empty).
    it('survives a Redis restart: listeners hear what is published after it, publishing neither throws nor hangs meanwhile, and the outage is logged', async (t) => {
      if (!redis.canRestart) return t.skip("BOTARENA_TEST_REDIS_URL is set: its server is not this test's to kill");
      const ioredisComplaints = t.mock.method(console, 'error');
      const prefix = newPrefix();
      const webLines: string[] = [];
      const workerLines: string[] = [];
      const web = open({ prefix, log: (l) => webLines.push(l) });
      const worker = open({ prefix, log: (l) => workerLines.push(l) });
      const got: number[] = [];
      web.subscribe('rs', 'full', (e) => void (e.type === 'step' && got.push(e.index)));
      worker.publish('rs', 'public', started('rs'));
      await until(() => {
        worker.publish('rs', 'full', step('rs', 0));
        return got.length > 0;
      }, 'the subscription to take');
      assert.notEqual(await worker.history('rs'), null);

      redis.kill();
      await sleep(100);
      const t0 = performance.now();
      for (let i = 1; i <= 50; i++) worker.publish('rs', 'full', step('rs', i));
      assert.ok(performance.now() - t0 < 50, 'publish during the outage must not wait');
      await until(
        () => webLines.some((l) => /listening connection/.test(l)) && workerLines.some((l) => /publishing connection/.test(l)),
        'the outage to be logged',
        5000,
      );
      // A viewer arriving during the outage: its SUBSCRIBE fails (ioredis gives up on it), yet it must listen once Redis is back.
      const late: number[] = [];
      web.subscribe('rs2', 'full', (e) => void (e.type === 'step' && late.push(e.index)));
      await until(() => webLines.some((l) => /cannot listen to 1 channel\(s\)/.test(l)), 'the failed SUBSCRIBE to be logged', 5000);
      await until(() => workerLines.some((l) => /cannot publish to Redis/.test(l)), 'the failed publishes to be logged', 5000);

      await redis.restart();
      // The listener's connection comes back and resubscribes on its own: keep publishing until it hears one.
      let next = 1000;
      await until(
        () => {
          worker.publish('rs', 'full', step('rs', next++));
          worker.publish('rs2', 'full', step('rs2', next));
          return got.some((i) => i >= 1000) && late.length > 0;
        },
        'events published after the restart',
        10_000,
      );
      assert.ok(
        workerLines.some((l) => /publishing to Redis at .* again; \d+ events? did not reach it/.test(l)),
        workerLines.join('\n'),
      );
      for (let i = 0; i < 20; i++) worker.publish('rs', 'full', step('rs', next++));
      await until(() => got.includes(next - 1), 'the next 20 events');
      await sleep(50);
      assert.deepEqual(
        got.slice(-20),
        Array.from({ length: 20 }, (_, i) => next - 20 + i),
      );
      assert.deepEqual(
        got,
        [...got].sort((a, b) => a - b),
        'in order, none twice',
      );
      assert.ok(
        webLines.some((l) => /listening connection .* is back/.test(l)),
        webLines.join('\n'),
      );
      // The restarted Redis kept nothing (no persistence): the match's history is gone for good, and the
      // events after the restart do not make a new one (a history starts with its `started`).
      worker.publish('rs', 'public', step('rs', 5000));
      assert.equal(await worker.history('rs'), null);
      assert.deepEqual(
        ioredisComplaints.mock.calls.map((c) => String(c.arguments[0])),
        [],
        'no "[ioredis] Unhandled error event"',
      );
      await Promise.all([web.close(), worker.close()]);
    });
  });
}
