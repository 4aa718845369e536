import assert from 'node:assert/strict';
import { it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { activeBot, finishOf, queued, running, steppingClock, type Stores } from './fixtures.kit.js';
import type { MatchRow } from './store.js';

/** Matches: queueing, starting, finishing, aborting, reading, pages. */
export function matchesContract(stores: Stores): void {
  it('takes a match from queued to running to finished, once each', async () => {
    const { store } = await stores.fresh();
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    const m = await queued(store, [a, b], { seed: 0xffffffff, kind: 'challenge', rated: false });
    assert.equal(m.status, 'queued');
    assert.equal(m.seed, 4294967295, 'the largest seed comes back whole');
    assert.deepEqual(m.config, { size: 3 });
    assert.deepEqual(
      m.seats.map((s) => [s.slot, s.botId, s.name, s.rank]),
      [
        [0, a.id, 'alpha', null],
        [1, b.id, 'beta', null],
      ],
    );
    assert.deepEqual(await store.getMatch(m.id), m);

    assert.equal(await store.startMatch(m.id), true);
    assert.equal(await store.startMatch(m.id), false, 'a second worker does not get it');
    const started = (await store.getMatch(m.id))!;
    assert.equal(started.status, 'running');
    assert.equal(started.tries, 1);
    assert.ok(started.startedAt);

    const finish = finishOf(started, [2, 1], {}, true);
    assert.equal(await store.finishMatch(m.id, finish), true);
    const done = (await store.getMatch(m.id))!;
    assert.equal(done.status, 'finished');
    assert.ok(done.finishedAt! >= done.startedAt!);
    assert.deepEqual(done.result, finish.result);
    assert.deepEqual(done.seats[1], {
      slot: 1,
      botId: b.id,
      name: 'beta',
      rank: 1,
      score: null,
      fault: { turn: 3, kind: 'timeout', detail: 'no answer within 1000 ms' },
    });
    assert.deepEqual(JSON.parse(gunzipSync((await store.getReplay(m.id))!).toString()), { matchId: m.id, turns: [1, 2, 3] });
    assert.deepEqual(JSON.parse(gunzipSync((await store.getLogs(m.id, 1))!).toString()), [{ dir: 'send', t: 0, text: 'hello seat 1' }]);
    assert.equal(await store.getLogs(m.id, 2), null);

    assert.equal(await store.finishMatch(m.id, finishOf(started, [1, 2])), false, 'finished already');
    assert.deepEqual(await store.getMatch(m.id), done, 'and nothing changed');
    assert.equal(await store.abortMatch(m.id, 'too late'), false);
    assert.equal(await store.startMatch(m.id), false);
  });

  it('lets a worker take up a match another left running, counts the tries, and never an ended one', async () => {
    const { store } = await stores.fresh();
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    const m = await queued(store, [a, b]);
    assert.equal((await store.getMatch(m.id))!.worker, null);
    assert.deepEqual(
      await store.activeMatchCounts(),
      new Map([
        [a.id, 1],
        [b.id, 1],
      ]),
    );
    assert.equal(await store.claimMatch(m.id, 'worker-1'), 1);
    assert.deepEqual([(await store.getMatch(m.id))!.status, (await store.getMatch(m.id))!.worker], ['running', 'worker-1']);
    assert.equal(await store.startMatch(m.id, 'worker-3'), false, 'startMatch takes queued matches only');
    assert.equal(await store.claimMatch(m.id, 'worker-2'), 2, 'worker-1 died: worker-2 plays it again');
    assert.equal((await store.getMatch(m.id))!.worker, 'worker-2');
    assert.equal(await store.releaseMatch(m.id, 'worker-1'), false, 'worker-1 no longer holds it: it cannot hand it back');
    assert.equal(await store.releaseMatch(m.id, 'worker-2'), true, 'worker-2 stops and hands it back');
    assert.deepEqual(
      [(await store.getMatch(m.id))!.status, (await store.getMatch(m.id))!.worker, (await store.getMatch(m.id))!.tries],
      ['queued', null, 2],
      'queued again, its tries kept',
    );
    assert.equal(await store.releaseMatch(m.id, 'worker-2'), false, 'handed back once');
    assert.equal(await store.claimMatch(m.id, 'worker-2'), 3, 'taken up again');
    const other = await queued(store, [a, a]);
    assert.equal(await store.startMatch(other.id, 'server-1'), true);
    assert.equal((await store.getMatch(other.id))!.worker, 'server-1');
    assert.deepEqual(
      await store.activeMatchCounts(),
      new Map([
        [a.id, 2],
        [b.id, 1],
      ]),
      'a bot in two seats of one match counts once for it',
    );
    assert.equal(await store.finishMatch(m.id, finishOf((await store.getMatch(m.id))!, [1, 2])), true);
    assert.equal(await store.claimMatch(m.id, 'worker-3'), null, 'a finished match is never played again');
    assert.equal(await store.releaseMatch(m.id, 'worker-2'), false, 'nor handed back');
    assert.equal(await store.abortMatch(other.id, 'stop'), true);
    assert.equal(await store.claimMatch(other.id, 'worker-3'), null, 'nor an aborted one');
    assert.equal(await store.claimMatch('no-such-match', 'worker-3'), null);
    assert.deepEqual(await store.activeMatchCounts(), new Map());
  });

  it('refuses a match it cannot keep: unknown or foreign bots, bad seeds, a rated test, a taken id', async () => {
    const { store } = await stores.fresh();
    const a = await activeBot(store, 'alpha');
    const c4 = await activeBot(store, 'four', 'connect4');
    await assert.rejects(queued(store, [a], { seats: [a.id, 'ghost'] }), (e: Error) => e instanceof NotFoundError && e.message === 'seats[1]: no bot "ghost"');
    await assert.rejects(
      queued(store, [a], { seats: [a.id, c4.id] }),
      (e: Error) => e instanceof InvalidInputError && e.message === 'seats[1]: bot "four" plays connect4, not tictactoe',
    );
    for (const seed of [-1, 2 ** 32, 1.5])
      await assert.rejects(
        queued(store, [a, a], { seed }),
        (e: Error) => e instanceof InvalidInputError && /^seed: expected an integer from 0 to 4294967295/.test(e.message),
      );
    await assert.rejects(queued(store, [a, a], { kind: 'test', rated: true }), /rated: a test match is never rated/);
    await assert.rejects(queued(store, [a, a], { seats: [] }), /seats: expected 1 to 64 seats, got 0/);
    const m = await queued(store, [a, a], { id: 'match-1', seats: [a.id, { botId: null, name: 'a person' }] });
    assert.deepEqual(m.seats[1], { slot: 1, botId: null, name: 'a person', rank: null, score: null, fault: null });
    await assert.rejects(
      queued(store, [a, a], { id: 'match-1' }),
      (e: Error) => e instanceof ConflictError && e.message === 'a match with id match-1 exists already',
    );
    assert.equal(await store.countMatches(), 1, 'only the one that was kept');
  });

  it('aborts from queued or running only, and aborts what a killed server left running', async () => {
    const { store } = await stores.fresh();
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    const q1 = await queued(store, [a, b]);
    const q2 = await queued(store, [a, b]);
    const r1 = await running(store, [a, b]);
    const r2 = await running(store, [b, a]);
    const fin = await running(store, [a, b]);
    await store.finishMatch(fin.id, finishOf(fin, [1, 2]));
    assert.equal(await store.abortMatch(q2.id, 'cancelled by its owner'), true);
    assert.equal(await store.abortMatch(q2.id, 'again'), false);
    assert.equal(await store.abortMatch('no-such-match', 'x'), false);
    const ids = await store.abortRunning('the server stopped while the match was running');
    assert.deepEqual(ids.sort(), [r1.id, r2.id].sort());
    const r1now = (await store.getMatch(r1.id))!;
    assert.equal(r1now.status, 'aborted');
    assert.equal(r1now.abortReason, 'the server stopped while the match was running');
    assert.equal((await store.getMatch(q2.id))!.abortReason, 'cancelled by its owner');
    assert.equal((await store.getMatch(q1.id))!.status, 'queued', 'queued matches are left to the queue');
    assert.equal((await store.getMatch(fin.id))!.status, 'finished');
    assert.deepEqual(await store.abortRunning('again'), []);
    assert.deepEqual(await store.abortRunning('the queue was lost', { queued: true }), [q1.id]);
    assert.equal(await store.finishMatch(r1.id, finishOf(r1now, [1, 2])), false, 'an aborted match is not finished later');
    assert.equal(await store.getReplay(r1.id), null);
    assert.deepEqual(
      {
        finished: await store.countMatches({ status: 'finished' }),
        aborted: await store.countMatches({ status: 'aborted' }),
        ofB: await store.countMatches({ botId: b.id, status: 'aborted' }),
      },
      { finished: 1, aborted: 4, ofB: 4 },
    );
  });

  it('pages 250 matches newest first with a cursor: no duplicates, no gaps, filters kept', async () => {
    // Three matches share each millisecond, so the id decides between them.
    const clock = steppingClock(0);
    const { store } = await stores.fresh({ clock: clock.now });
    const [a, b, c] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta'), await activeBot(store, 'gamma')];
    const base = Date.parse('2031-05-01T00:00:00.000Z');
    const made: MatchRow[] = [];
    for (let i = 0; i < 250; i++) {
      clock.set(base + Math.floor(i / 3));
      made.push(await queued(store, i % 2 ? [a, b] : [a, c], { kind: i % 5 ? 'ladder' : 'challenge' }));
    }
    const newestFirst = (xs: MatchRow[]) =>
      [...xs].sort((x, y) => (x.createdAt === y.createdAt ? (x.id < y.id ? 1 : -1) : x.createdAt < y.createdAt ? 1 : -1)).map((m) => m.id);
    const walk = async (q: Parameters<typeof store.listMatches>[0]) => {
      const ids: string[] = [];
      const sizes: number[] = [];
      let cursor = q.cursor ?? null;
      do {
        const page = await store.listMatches({ ...q, cursor });
        ids.push(...page.items.map((m) => m.id));
        sizes.push(page.items.length);
        cursor = page.next;
      } while (cursor && sizes.length < 100);
      return { ids, sizes };
    };
    const all = await walk({ limit: 100 });
    assert.deepEqual(all.sizes, [100, 100, 50]);
    assert.equal(new Set(all.ids).size, 250, 'no duplicates');
    assert.deepEqual(all.ids, newestFirst(made), 'every match, newest first, ties by id');

    const ofB = await walk({ botId: b.id, kind: 'ladder', limit: 7 });
    assert.deepEqual(ofB.ids, newestFirst(made.filter((m, i) => i % 2 === 1 && i % 5 !== 0)));
    assert.ok(ofB.sizes.slice(0, -1).every((n) => n === 7));
    assert.equal(await store.countMatches({ botId: b.id, kind: 'ladder' }), ofB.ids.length);
    assert.equal(await store.countMatches({ game: 'tictactoe' }), 250);

    const first = await store.listMatches({ limit: 5000 });
    assert.equal(first.items.length, 100, 'a page holds at most 100');
    clock.set(base + 10_000);
    const newer = await queued(store, [b, c]);
    const rest = await walk({ limit: 100, cursor: first.next });
    assert.ok(!rest.ids.includes(newer.id) && rest.ids.length === 150, 'a match made meanwhile does not shift the pages after the cursor');
    assert.deepEqual((await store.listMatches({ limit: 1 })).items[0]!.id, newer.id);
    assert.deepEqual((await store.listMatches({ limit: 2 })).items[1]!.seats.map((s) => s.name).length, 2, 'items carry their seats');
    for (const cursor of ['garbage', Buffer.from('["a"]').toString('base64url'), 'x'.repeat(500)]) {
      await assert.rejects(
        store.listMatches({ cursor }),
        (e: Error) => e instanceof InvalidInputError && /^cursor: not a cursor this store gave/.test(e.message),
      );
    }
  });

  it("tells a bot's recent rated outcomes and each bot's recent ladder matches", async () => {
    const clock = steppingClock(1000);
    const { store } = await stores.fresh({ clock: clock.now });
    const [a, b, c] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta'), await activeBot(store, 'gamma')];
    const ends: string[] = [];
    for (let i = 0; i < 6; i++) {
      const m = await running(store, [a, b]);
      await store.finishMatch(m.id, finishOf(m, [1, 2], {}, i % 2 === 0));
      ends.push(m.id);
    }
    const unrated = await running(store, [a, b], { kind: 'challenge', rated: false });
    await store.finishMatch(unrated.id, finishOf(unrated, [1, 2], {}, true));
    const since = clock.now();
    await queued(store, [a, c]);
    await queued(store, [c, c], { kind: 'challenge', rated: false });
    const recent = await store.recentOutcomes(b.id, 4);
    assert.deepEqual(
      recent.map((r) => r.matchId),
      ends.slice(-4).reverse(),
      'newest first, rated only',
    );
    assert.deepEqual(
      recent.map((r) => r.fault?.kind ?? null),
      [null, 'timeout', null, 'timeout'],
    );
    assert.deepEqual(
      (await store.recentOutcomes(a.id, 10)).map((r) => r.fault),
      Array(6).fill(null),
    );
    assert.deepEqual(
      [...(await store.recentMatchCounts('tictactoe', 0))].sort(),
      [
        [a.id, 7],
        [b.id, 6],
        [c.id, 1],
      ].sort(),
    );
    assert.deepEqual(
      [...(await store.recentMatchCounts('tictactoe', since))].sort(),
      [
        [a.id, 1],
        [c.id, 1],
      ].sort(),
    );
    assert.deepEqual(await store.recentMatchCounts('connect4', 0), new Map());
  });
}
