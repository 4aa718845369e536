import assert from 'node:assert/strict';
import { it } from 'node:test';
import { InvalidInputError } from './errors.js';
import { activeBot, eloChange, finishOf, nothingOfTheEnding, plusOne, running, type Stores, type StoreTarget } from './fixtures.kit.js';
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
}
