import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { newJob } from '../arena/match-job.js';
import type { LiveEvent, LiveEvents } from '../live/events.js';
import { LocalLiveEvents } from '../live/local.js';
import { openStore, type BotRow, type Store } from '../store/index.js';
import type { MatchQueue } from './port.js';

/** A queue under test, with whatever plays its matches (the local pool; BullMQ's workers), and how to stop both. */
export interface QueueUnderTest {
  queue: MatchQueue;
  close(): Promise<void>;
}

/**
 * Makes the implementation under test on this store and these live events, playing at most `concurrency`
 * matches at once. Its players publish the public events of each match on `live`.
 */
export type QueueFactory = (o: { store: Store; live: LiveEvents; concurrency: number; log: FastifyBaseLogger }) => Promise<QueueUnderTest>;

/** A tic-tac-toe bot that sleeps this long before each move (a match of it lasts a while). */
const pace = (seconds: number) => `stdio:python3 ${fileURLToPath(new URL('../../test/fixtures/tournament/ttt-pace.py', import.meta.url))} ${seconds}`;

/** Waits until `check` gives a value (its players may be in other threads or processes), or fails after `ms`. */
async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const t0 = performance.now();
  for (;;) {
    const v = await check();
    if (v) return v;
    if (performance.now() - t0 > ms) assert.fail(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The behaviour every MatchQueue must have, seen from the store and the live events as the server sees it:
 * call inside a `describe`. A match handed over is played and recorded once, however often it is handed
 * over; no more than the concurrency play at once; a match that ended before its turn, or whose bot is gone,
 * is not played; a queue says what it knows of each match's job.
 */
export function matchQueueContract(make: QueueFactory): void {
  const opened: { store: Store; live: LiveEvents; q: QueueUnderTest }[] = [];
  after(async () => {
    for (const o of opened.splice(0)) {
      await o.q.close();
      await o.live.close();
      await o.store.close();
    }
  });

  /** A fresh store, live events and queue; the events of every match are kept by match id. */
  async function open(concurrency = 2) {
    const store = await openStore(':memory:');
    const live = new LocalLiveEvents();
    const log = pino({ level: 'silent' });
    const q = await make({ store, live, concurrency, log });
    opened.push({ store, live, q });
    const [fast, slow, minimax] = [
      await store.createBot({ game: 'tictactoe', name: 'fast', endpoint: pace(0) }),
      await store.createBot({ game: 'tictactoe', name: 'slow', endpoint: pace(0.1) }),
      await store.createBot({ game: 'tictactoe', name: 'mm', endpoint: 'minimax' }),
    ];
    const events = new Map<string, LiveEvent[]>();
    let n = 0;
    /** A match queued in the store (not handed over yet) between these bots; its id. */
    const match = async (bots: BotRow[], seed = 7) => {
      const id = `m${++n}-${Math.random().toString(36).slice(2, 8)}`;
      const job = newJob({ matchId: id, game: 'tictactoe', seed, seats: bots.map((b) => ({ bot: b.endpoint, name: b.name })), transcripts: true });
      await store.createMatch({ id, game: 'tictactoe', kind: 'challenge', rated: false, seed, config: {}, job, seats: bots.map((b) => b.id) });
      const got: LiveEvent[] = [];
      events.set(id, got);
      live.subscribe(id, 'public', (e) => void got.push(e));
      return id;
    };
    const ended = (id: string) =>
      until(`match ${id} to end`, async () => {
        const m = await store.getMatch(id);
        return m && (m.status === 'finished' || m.status === 'aborted') ? m : null;
      });
    return { store, queue: q.queue, bots: { fast, slow, minimax }, match, ended, events };
  }

  it('plays a match it is given and records it: result, replay, one start, its live events', async () => {
    const { queue, store, bots, match, ended, events } = await open();
    const id = await match([bots.fast, bots.minimax]);
    assert.equal(await queue.state(id), 'unknown', 'a match never handed over is unknown to the queue');
    await queue.enqueue(id);
    const m = await ended(id);
    assert.equal(m.status, 'finished', `aborted: ${m.abortReason}`);
    assert.equal(m.tries, 1);
    assert.equal(m.result?.players.length, 2);
    assert.ok(await store.getReplay(id), 'the replay is stored');
    await until('its ended event', async () => events.get(id)!.some((e) => e.type === 'ended'));
    assert.equal(events.get(id)!.filter((e) => e.type === 'started').length, 1);
    assert.ok(
      events.get(id)!.some((e) => e.type === 'step'),
      'its steps were streamed',
    );
    await until('the job to be over', async () => ['completed', 'unknown'].includes(await queue.state(id)));
  });

  it('plays a match handed over twice only once', async () => {
    const { queue, bots, match, ended, events } = await open();
    const id = await match([bots.slow, bots.minimax]);
    await Promise.all([queue.enqueue(id), queue.enqueue(id)]);
    await queue.enqueue(id);
    const m = await ended(id);
    assert.equal(m.status, 'finished', `aborted: ${m.abortReason}`);
    assert.equal(m.tries, 1, 'started once');
    assert.equal(events.get(id)!.filter((e) => e.type === 'started').length, 1);
  });

  it('never plays more matches at once than its concurrency, and plays them all', async () => {
    const { queue, store, bots, match, ended } = await open(1);
    const ids = [await match([bots.slow, bots.fast], 1), await match([bots.slow, bots.fast], 2), await match([bots.slow, bots.fast], 3)];
    for (const id of ids) await queue.enqueue(id);
    let most = 0;
    let done = false;
    const watching = (async () => {
      while (!done) {
        most = Math.max(most, await store.countMatches({ status: 'running' }));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const rows = await Promise.all(ids.map((id) => ended(id)));
    done = true;
    await watching;
    assert.deepEqual(
      rows.map((m) => m.status),
      ['finished', 'finished', 'finished'],
      rows.map((m) => m.abortReason).join('; '),
    );
    assert.equal(most, 1, 'one match at a time');
  });

  it('does not play a match that ended before its turn, nor one whose bot is gone (aborted, saying which seat)', async () => {
    const { queue, store, bots, match, ended, events } = await open();
    const over = await match([bots.fast, bots.minimax]);
    await store.abortMatch(over, 'aborted by the test');
    const gone = await match([bots.minimax, bots.slow]);
    await store.deleteBot(bots.slow.id);
    await queue.enqueue(over);
    await queue.enqueue(gone);
    const m = await ended(gone);
    assert.equal(m.status, 'aborted');
    assert.match(m.abortReason ?? '', /seat 1 \(slow\) is gone/);
    await until("the ended match's job to be over", async () => (await queue.state(over)) === 'completed');
    assert.equal((await store.getMatch(over))!.abortReason, 'aborted by the test', 'left as it was');
    assert.equal(events.get(over)!.filter((e) => e.type === 'started').length, 0, 'never started');
  });

  it('plays a match again when it is requeued after its job was lost or ended without a result', async () => {
    const { queue, store, bots, match, ended } = await open();
    const id = await match([bots.fast, bots.minimax]);
    // Queued in the store and never handed over (the server died between the two): the reconciler requeues it.
    await queue.requeue(id);
    const m = await ended(id);
    assert.equal(m.status, 'finished', `aborted: ${m.abortReason}`);
    assert.ok(await store.getReplay(id));
  });
}
