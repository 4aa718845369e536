import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LiveEvent, LiveEvents } from './events.js';

/** A factory for the implementation under test: `log` receives its listener-failure lines. */
export type LiveEventsFactory = (opts: { log: (line: string) => void; maxQueued: number; historyAfterEndMs?: number }) => LiveEvents | Promise<LiveEvents>;

const step = (matchId: string, index: number): LiveEvent => ({
  type: 'step',
  matchId,
  index,
  record: { turn: index + 1, phase: 'play', moves: [{ slot: 0, action: { say: `é ${index}` }, ms: 1.5 }], hash: `h${index}` },
});

/** Waits until `check` holds (deliveries may cross a process boundary), or fails after `ms`. */
async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const t0 = performance.now();
  while (!check()) {
    if (performance.now() - t0 > ms) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * The behaviour every LiveEvents implementation must have (the in-process one; a Redis one later): call
 * inside a `describe`. Events arrive in order, as equal plain JSON, only on their own match and audience;
 * publishing never waits for or throws from a listener; a throwing listener is logged and keeps listening;
 * a listener stuck `maxQueued` events behind is dropped and logged; unsubscribe and close stop delivery.
 */
export function liveEventsContract(make: LiveEventsFactory): void {
  const open = async (maxQueued = 1000, historyAfterEndMs?: number) => {
    const lines: string[] = [];
    const live = await make({ log: (l) => lines.push(l), maxQueued, historyAfterEndMs });
    return { live, lines };
  };

  it("delivers a match's events in order, equal to what was published, as plain JSON", async () => {
    const { live } = await open();
    const got: LiveEvent[] = [];
    live.subscribe('m1', 'full', (e) => void got.push(e));
    const sent = Array.from({ length: 200 }, (_, i) => step('m1', i));
    for (const e of sent) live.publish('m1', 'full', e);
    await until(() => got.length === sent.length, '200 events');
    assert.deepEqual(got, JSON.parse(JSON.stringify(sent)));
    await live.close();
  });

  it('keeps matches and audiences apart', async () => {
    const { live } = await open();
    const seen: Record<string, number[]> = { full1: [], pub1: [], seat0: [], seat1: [], full2: [] };
    const track = (key: string) => (e: LiveEvent) => void seen[key]!.push(e.type === 'step' ? e.index : -1);
    live.subscribe('m1', 'full', track('full1'));
    live.subscribe('m1', 'public', track('pub1'));
    live.subscribe('m1', { seat: 0 }, track('seat0'));
    live.subscribe('m1', { seat: 1 }, track('seat1'));
    live.subscribe('m2', 'full', track('full2'));
    live.publish('m1', 'full', step('m1', 1));
    live.publish('m1', 'public', step('m1', 2));
    live.publish('m1', { seat: 1 }, step('m1', 3));
    live.publish('m2', 'full', step('m2', 4));
    live.publish('m3', 'full', step('m3', 5)); // nobody listens: dropped
    await until(() => Object.values(seen).flat().length === 4, 'four deliveries');
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(seen, { full1: [1], pub1: [2], seat0: [], seat1: [3], full2: [4] });
    await live.close();
  });

  it('publishing returns at once whatever the listeners do; a throwing one is logged and keeps listening', async () => {
    const { live, lines } = await open();
    const got: number[] = [];
    live.subscribe('m1', 'full', (e) => {
      if (e.type === 'step' && e.index === 0) throw new Error('viewer bug');
      if (e.type === 'step') got.push(e.index);
    });
    let slowCalls = 0;
    live.subscribe('m1', 'full', () => new Promise<void>(() => void slowCalls++));
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) live.publish('m1', 'full', step('m1', i));
    assert.ok(performance.now() - t0 < 50, 'publish must not wait for listeners');
    await until(() => got.length === 2, 'the events after the throw');
    assert.deepEqual(got, [1, 2]);
    assert.equal(slowCalls, 1, 'a listener gets its next event only once it is done with the last');
    assert.ok(
      lines.some((l) => /threw on "step": viewer bug/.test(l)),
      lines.join('\n'),
    );
    await live.close();
  });

  it('drops a listener that falls too far behind, and says so', async () => {
    const { live, lines } = await open(5);
    live.subscribe('m1', 'full', () => new Promise(() => {}));
    for (let i = 0; i < 20; i++) live.publish('m1', 'full', step('m1', i));
    await until(() => lines.some((l) => /fell 5 events behind and was dropped/.test(l)), 'the drop to be logged');
    await live.close();
  });

  it('stops delivering after unsubscribe and after close', async () => {
    const { live } = await open();
    const a: number[] = [];
    const b: number[] = [];
    const stopA = live.subscribe('m1', 'full', (e) => void (e.type === 'step' && a.push(e.index)));
    live.subscribe('m1', 'full', (e) => void (e.type === 'step' && b.push(e.index)));
    live.publish('m1', 'full', step('m1', 0));
    await until(() => a.length === 1 && b.length === 1, 'the first event');
    stopA();
    live.publish('m1', 'full', step('m1', 1));
    await until(() => b.length === 2, 'the second event');
    await live.close();
    live.publish('m1', 'full', step('m1', 2));
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual([a, b], [[0], [0, 1]]);
  });

  it("keeps a match's public events from its start for late viewers, until a while after its end", async () => {
    const { live } = await open(1000, 300);
    const started: LiveEvent = {
      type: 'started',
      matchId: 'h1',
      header: { hidden: true, game: 'tron', matchId: 'h1', seats: [], timeouts: { initMs: 1, turnMs: 1 } },
    };
    assert.equal(await live.history('h1'), null, 'a match that never started has no history');
    live.publish('h1', 'public', step('h1', 0)); // before its start: not kept
    live.publish('h1', 'public', started);
    for (let i = 0; i < 3; i++) live.publish('h1', 'public', step('h1', i));
    live.publish('h1', 'full', step('h1', 99)); // not public: never in the history
    live.publish('feed', 'public', { ...started, matchId: 'h2' }); // about another match: not the feed's history
    await poll(live, 'h1', (h) => h?.length === 4);
    assert.deepEqual(await live.history('h1'), JSON.parse(JSON.stringify([started, step('h1', 0), step('h1', 1), step('h1', 2)])));
    assert.equal(await live.history('feed'), null);
    const ended: LiveEvent = { type: 'ended', matchId: 'h1', result: { players: [], turns: 3, outcome: 'draw' } as never, durationMs: 5 };
    live.publish('h1', 'public', ended);
    await poll(live, 'h1', (h) => h?.length === 5);
    await poll(live, 'h1', (h) => h === null, 5000);
    await live.close();
  });
}

/** Waits until a match's history passes `check`. */
async function poll(live: LiveEvents, matchId: string, check: (h: LiveEvent[] | null) => boolean, ms = 3000): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    const h = await live.history(matchId);
    if (check(h)) return;
    if (performance.now() - t0 > ms) assert.fail(`timed out waiting for the history of ${matchId}; it is ${JSON.stringify(h)?.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
