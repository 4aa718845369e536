import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import BetterSqlite3 from 'better-sqlite3';
import { noRoom } from '../store/index.js';
import { NoRoomError, whenThereIsRoom } from './play.js';

// How long and how often a match's write waits for room in the store (a full disk is in
// test/server-disk-full.test.ts; here the bounds, which a real test could not wait out: 15 min).

const full = () => noRoom(new BetterSqlite3.SqliteError('database or disk is full', 'SQLITE_FULL'))!;
const quick = { firstMs: 5, maxDelayMs: 20, forMs: 200, maxWaiting: 2 };

function logger() {
  const lines: string[] = [];
  const log = {
    info: (_o: unknown, m: string) => lines.push(m),
    debug: () => {},
    warn: (_o: unknown, m: string) => lines.push(m),
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}

describe('whenThereIsRoom: a write that finds the store full', () => {
  it('is written again until it lands, and says so twice (waiting, written), not once per try', async () => {
    const { log, lines } = logger();
    let tries = 0;
    const out = await whenThereIsRoom(
      { log, signal: new AbortController().signal },
      'm1',
      'result',
      async () => {
        if (++tries < 4) throw full();
        return 'landed';
      },
      quick,
    );
    assert.equal(out, 'landed');
    assert.equal(tries, 4);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, /result \(replay, seats, ratings\) cannot be written now \(database or disk is full/);
    assert.match(lines[1]!, /the match's result was written after waiting \d+ s for room in the store/);
  });

  it('gives up after its time, and at once when the match is cancelled (after one last try)', async () => {
    const { log } = logger();
    const t0 = Date.now();
    const late = await whenThereIsRoom({ log, signal: new AbortController().signal }, 'm2', 'result', () => Promise.reject(full()), quick).catch(
      (e: unknown) => e,
    );
    assert.ok(late instanceof NoRoomError && !late.cancelled, String(late));
    assert.match(late.message, /could not be written for 0 min: the arena's disk is full/);
    assert.ok(Date.now() - t0 >= quick.forMs);

    const stop = new AbortController();
    let tries = 0;
    const writing = whenThereIsRoom({ log, signal: stop.signal }, 'm3', 'start', () => (tries++, Promise.reject(full())), { ...quick, forMs: 60_000 });
    setTimeout(() => stop.abort(), 30);
    const cancelled = await writing.catch((e: unknown) => e);
    assert.ok(cancelled instanceof NoRoomError && cancelled.cancelled && cancelled.what === 'start', String(cancelled));
    assert.ok(tries >= 2);
  });

  it('keeps at most maxWaiting writes waiting at once; other errors are not retried', async () => {
    const { log } = logger();
    const stop = new AbortController();
    const waiting = [1, 2].map((i) =>
      whenThereIsRoom({ log, signal: stop.signal }, `w${i}`, 'result', () => Promise.reject(full()), { ...quick, forMs: 60_000 }).catch((e: unknown) => e),
    );
    await new Promise((r) => setTimeout(r, 20));
    const third = await whenThereIsRoom({ log, signal: stop.signal }, 'w3', 'result', () => Promise.reject(full()), quick).catch((e: unknown) => e);
    assert.ok(third instanceof NoRoomError, String(third));
    assert.match(third.message, /and 2 matches wait already/);
    stop.abort();
    await Promise.all(waiting);
    let tries = 0;
    const other = await whenThereIsRoom({ log, signal: stop.signal }, 'w4', 'result', () => (tries++, Promise.reject(new Error('boom'))), quick).catch(
      (e: unknown) => e,
    );
    assert.equal((other as Error).message, 'boom');
    assert.equal(tries, 1);
  });
});
