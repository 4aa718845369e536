import assert from 'node:assert/strict';
import { it } from 'node:test';
import { InvalidInputError } from './errors.js';
import { activeBot, eloChange, finishOf, nothingOfTheEnding, plusOne, queued, running, type Stores, type StoreTarget } from './fixtures.kit.js';
import type { Store } from './store.js';

/** finishMatch: all of a match's ending or none of it, and once. */
export function finishContract(stores: Stores, target: StoreTarget): void {
  it('stores nothing of an ending that fails halfway, and the match stays running', async () => {
    const { store } = await stores.fresh();
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    const m = await running(store, [a, b]);
    const failures: [string, Parameters<Store['finishMatch']>[1], RegExp | null][] = [
      // foreign keys are on: the rating of a bot that does not exist breaks the transaction after the seats,
      // the replay, the logs and the first rating were written
      ['a rating change of an unknown bot', finishOf(m, [1, 2], { ratingChanges: [eloChange(a.id, 16), eloChange('ghost-bot', -16)] }), null],
      [
        'a pair record against an unknown bot',
        finishOf(m, [1, 2], { ratingChanges: [eloChange(a.id, 16)], pairDeltas: [{ botId: a.id, opponentId: 'ghost-bot', wins: 1, draws: 0, losses: 0 }] }),
        null,
      ],
      [
        'a rating function that throws',
        finishOf(m, [1, 2], {
          ratingChanges: [eloChange(b.id, -16)],
          rate: () => {
            throw new Error('injected failure');
          },
        }),
        /^injected failure$/,
      ],
      ['a rating function naming an unknown bot', finishOf(m, [1, 2], { rate: (kept) => plusOne([a.id, 'ghost-bot'])(kept) }), null],
      [
        'a rating that is not a number',
        finishOf(m, [1, 2], { ratingChanges: [{ ...eloChange(a.id, 0), before: Number.NaN }] }),
        /^ratingChanges\[0\]\.before: expected a finite number, got NaN$/,
      ],
      [
        'a seat without a rank',
        finishOf(m, [1, 2], { seats: [{ slot: 0, botId: a.id, name: 'alpha', rank: 0, score: null, fault: null }] }),
        /^seats\[0\]\.rank: expected an integer from 1 to 64, got 0$/,
      ],
    ];
    for (const [what, finish, message] of failures) {
      await assert.rejects(store.finishMatch(m.id, finish), (e: Error) => (message ? message.test(e.message) : true), what);
      assert.deepEqual(await nothingOfTheEnding(store, m), [], `${what}: nothing of it is kept`);
    }
    await assert.rejects(store.finishMatch(m.id, finishOf(m, [1, 2], { replayGz: 'not bytes' as unknown as Uint8Array })), InvalidInputError);
    assert.equal(
      await store.finishMatch(m.id, finishOf(m, [1, 2], { ratingChanges: [eloChange(a.id, 16), eloChange(b.id, -16)] })),
      true,
      'a sound ending afterwards is kept',
    );
    assert.deepEqual(
      (await store.ratingsOf(a.id)).map((r) => r.rating),
      [1516],
    );
  });

  it('two workers finishing one match at once: it is recorded and rated once', async () => {
    const { store, url } = await stores.fresh();
    const second = target.twoStores ? await stores.open(url) : store;
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    for (let i = 0; i < 10; i++) {
      const m = await running(store, [a, b]);
      const f = (s: Store, ranks: number[]) =>
        s.finishMatch(m.id, finishOf(m, ranks, { rate: plusOne([a.id, b.id]), pairDeltas: [{ botId: a.id, opponentId: b.id, wins: 1, draws: 0, losses: 0 }] }));
      const outcomes = await Promise.all([f(store, [1, 2]), f(second, [2, 1])]);
      assert.deepEqual(outcomes.filter(Boolean).length, 1, `one of the two finishes is kept: ${JSON.stringify(outcomes)}`);
      const kept = (await store.getMatch(m.id))!;
      assert.deepEqual(
        kept.seats.map((s) => s.rank),
        outcomes[0] ? [1, 2] : [2, 1],
        'the seats are those of the finish that won',
      );
    }
    assert.equal((await store.ratingHistory(a.id, 'elo')).length, 10);
    assert.deepEqual(
      (await store.ratingsOf(b.id)).map((r) => [r.rating, r.games]),
      [[1510, 10]],
    );
    assert.deepEqual(
      (await store.headToHead(a.id)).map((h) => h.wins),
      [10],
    );
  });

  it('matches of one bot finishing at once are rated in turn, each from the rating the one before left', async () => {
    const { store, url } = await stores.fresh();
    const second = target.twoStores ? await stores.open(url) : store;
    const hub = await activeBot(store, 'hub');
    const others = await Promise.all(Array.from({ length: 20 }, (_, i) => activeBot(store, `rival-${i}`)));
    const ms = await Promise.all(others.map((o) => running(store, [hub, o])));
    const done = await Promise.all(
      ms.map((m, i) => (i % 2 ? second : store).finishMatch(m.id, finishOf(m, [1, 2], { rate: plusOne([hub.id, others[i]!.id]) }))),
    );
    assert.ok(done.every(Boolean));
    assert.deepEqual(
      (await store.ratingsOf(hub.id)).map((r) => [r.rating, r.games, r.wins]),
      [[1520, 20, 20]],
      'no update was lost',
    );
    const history = await store.ratingHistory(hub.id, 'elo');
    assert.deepEqual(
      history.map((h) => h.before).sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => 1500 + i),
      'each from the one before',
    );
    assert.ok(history.every((h) => h.after === h.before + 1));
  });

  it("refuses a superseded attempt's finish, abort and heartbeat (fencing): its ratings are never applied", async () => {
    const { store } = await stores.fresh();
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    const m = await queued(store, [a, b]);
    // Attempt 1 (w1) starts without a heartbeat; attempt 2 (w2) takes the match over (w1 taken for dead).
    assert.equal(await store.claimMatch(m.id, 'w1'), 1);
    assert.equal(await store.claimMatch(m.id, 'w2'), 2);
    const late = finishOf(m, [1, 2], { rate: plusOne([a.id, b.id]), attempt: 1 });
    assert.equal(await store.finishMatch(m.id, late), false, "attempt 1's result is refused: attempt 2 holds the match");
    assert.deepEqual(await nothingOfTheEnding(store, (await store.getMatch(m.id))!), [], 'nothing of attempt 1 is kept');
    assert.equal(await store.beatMatch(m.id, 1, 60_000), false, "attempt 1's heartbeat is refused");
    assert.equal(await store.abortMatch(m.id, 'attempt 1 gave up', 1), false, "attempt 1's abort is refused");
    const now = (await store.getMatch(m.id))!;
    assert.deepEqual([now.status, now.tries, now.worker], ['running', 2, 'w2']);
    assert.equal(await store.finishMatch(m.id, finishOf(m, [2, 1], { rate: plusOne([a.id, b.id]), attempt: 2 })), true, "attempt 2's result is kept");
    const kept = (await store.getMatch(m.id))!;
    assert.deepEqual(
      kept.seats.map((s) => s.rank),
      [2, 1],
      "the live attempt's result",
    );
    assert.deepEqual(
      (await store.ratingsOf(a.id)).map((r) => [r.rating, r.games]),
      [[1501, 1]],
      'rated once, by the live attempt',
    );
    assert.equal((await store.ratingHistory(b.id, 'elo')).length, 1);
    await assert.rejects(store.finishMatch(m.id, finishOf(m, [1, 2], { attempt: 0 })), (e: Error) => /^attempt: expected an integer from 1 to/.test(e.message));
  });

  it("starts no second attempt while the first one's heartbeat lives; one that ran out is taken over", async () => {
    let t = Date.parse('2030-01-01T00:00:00.000Z');
    const { store } = await stores.fresh({ clock: () => new Date(t) });
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    const m = await queued(store, [a, b]);
    assert.equal(await store.claimMatch(m.id, 'w1', 30_000), 1);
    t += 20_000;
    assert.deepEqual(await store.claimMatch(m.id, 'w2', 30_000), { held: { attempt: 1, worker: 'w1', aliveUntil: '2030-01-01T00:00:30.000Z' } });
    assert.equal(await store.beatMatch(m.id, 1, 30_000), true, 'attempt 1 says it is alive');
    t += 20_000; // 40 s: alive until 50 s
    assert.deepEqual(await store.liveAttempt(m.id), { attempt: 1, worker: 'w1', aliveUntil: '2030-01-01T00:00:50.000Z' });
    assert.deepEqual(await store.claimMatch(m.id, 'w2', 30_000), { held: { attempt: 1, worker: 'w1', aliveUntil: '2030-01-01T00:00:50.000Z' } });
    assert.equal((await store.getMatch(m.id))!.tries, 1, 'a refused claim counts no try');
    t += 11_000; // 51 s: attempt 1 went silent
    assert.equal(await store.liveAttempt(m.id), null);
    assert.equal(await store.claimMatch(m.id, 'w2', 30_000), 2, 'its heartbeat ran out: w2 plays it again');
    assert.equal(await store.beatMatch(m.id, 1, 30_000), false, 'the first attempt, back, is told it lost the match');
    assert.equal(await store.finishMatch(m.id, finishOf(m, [1, 2], { attempt: 1 })), false);
    assert.equal(await store.finishMatch(m.id, finishOf(m, [1, 2], { attempt: 2 })), true);
    assert.equal(await store.liveAttempt(m.id), null, 'a finished match has no live attempt');
    assert.equal(await store.claimMatch(m.id, 'w3', 30_000), null);
    await assert.rejects(store.claimMatch(m.id, 'w3', -1), (e: Error) => /^aliveMs: expected an integer from 1 to/.test(e.message));
  });

  it('keeps one arena id, made when the store was created', async () => {
    const { store, url } = await stores.fresh();
    const id = await store.arenaId();
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(await (await stores.open(url)).arenaId(), id, 'the same id for every process on this store');
    assert.notEqual(await (await stores.fresh()).store.arenaId(), id, 'another store is another arena');
  });

  it("keeps the arena's policy as its server last wrote it, for every process on the store", async () => {
    const { store, url } = await stores.fresh();
    assert.equal(await store.arenaPolicy(), null, 'none before a server wrote one');
    const policy = { allowPrivateBots: true, allowCommands: true, sandboxedCommands: true, writtenAt: '2026-11-27T20:00:00.000Z' };
    await store.setArenaPolicy(policy);
    assert.deepEqual(await (await stores.open(url)).arenaPolicy(), policy, 'another process reads it');
    await store.setArenaPolicy({ ...policy, allowPrivateBots: false });
    assert.equal((await (await stores.open(url)).arenaPolicy())?.allowPrivateBots, false, 'the last one written');
  });
}
