import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { activeBot, finishOf, type Stores } from './fixtures.kit.js';
import type { BotRow, NewMatchRow, Store } from './store.js';
import type { StoreTarget } from './fixtures.kit.js';

const contest = (id = 'spring-cup') => ({
  id,
  game: 'tictactoe',
  name: 'Spring cup',
  definition: { id, format: 'round-robin' },
  closesAt: '2030-02-01T00:00:00Z',
});

const contestMatch = (a: BotRow, b: BotRow, o: Partial<NewMatchRow> = {}): NewMatchRow => ({
  game: 'tictactoe',
  kind: 'contest',
  rated: false,
  seed: 11,
  config: {},
  job: { game: 'tictactoe', seats: [a, b].map((x) => ({ bot: x.endpoint, name: x.name })) },
  seats: [a.id, b.id],
  ...o,
});

/** A contest with these bots entered, frozen (in this order) and running. */
async function runningContest(store: Store, bots: BotRow[], id = 'spring-cup') {
  await store.createContest(contest(id));
  for (const b of bots) await store.enterContest(id, b.id);
  assert.equal(await store.closeEntries(id), true);
  for (const [i, b] of bots.entries()) assert.equal(await store.freezeEntry(id, b.id, { kind: 'url', spec: b.endpoint }, i), true);
  assert.equal(await store.startContest(id), true);
}

/** Contests: entries closed by the freeze, frozen versions written once, and each planned match created once whatever repeats. */
export function contestsContract(stores: Stores, target: StoreTarget): void {
  it('creates, reads and lists contests; an id is taken once', async () => {
    const { store } = await stores.fresh();
    const c = await store.createContest(contest());
    assert.equal(c.status, 'entry');
    assert.equal(c.closesAt, '2030-02-01T00:00:00.000Z');
    assert.deepEqual(c.definition, { id: 'spring-cup', format: 'round-robin' });
    assert.deepEqual(await store.getContest('spring-cup'), c);
    assert.equal(await store.getContest('nope'), null);
    await assert.rejects(store.createContest(contest()), ConflictError);
    await assert.rejects(store.createContest({ ...contest('../x'), id: '../x' }), InvalidInputError);
    // Created in the same millisecond as often as not: the id orders those (last first), as it does here too.
    await store.createContest(contest('winter-cup'));
    assert.deepEqual(
      (await store.listContests()).map((x) => x.id),
      ['winter-cup', 'spring-cup'],
      'newest first',
    );
    assert.deepEqual(
      (await store.listContests({ status: 'done' })).map((x) => x.id),
      [],
    );
  });

  it('takes each bot once while entries are open, and none after the freeze', async () => {
    const { store } = await stores.fresh();
    const [a, b, c] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta'), await activeBot(store, 'gamma')];
    const other = await activeBot(store, 'other-game', 'tron');
    await store.createContest(contest());
    const e = await store.enterContest('spring-cup', a.id);
    assert.deepEqual([e.name, e.frozen, e.place], ['alpha', null, null]);
    await assert.rejects(
      store.enterContest('spring-cup', a.id),
      (err: Error) => err instanceof ConflictError && /entered contest spring-cup already/.test(err.message),
    );
    await assert.rejects(store.enterContest('spring-cup', other.id), (err: Error) => err instanceof InvalidInputError && /plays tron/.test(err.message));
    await assert.rejects(store.enterContest('spring-cup', 'no-such-bot'), NotFoundError);
    await assert.rejects(store.enterContest('no-such-contest', a.id), NotFoundError);
    await store.enterContest('spring-cup', b.id);
    assert.equal(await store.closeEntries('spring-cup'), true);
    assert.equal(await store.closeEntries('spring-cup'), false, 'closed once');
    await assert.rejects(
      store.enterContest('spring-cup', c.id),
      (err: Error) => err instanceof ConflictError && /takes no more entries: it is frozen/.test(err.message),
    );
    assert.equal(await store.startContest('spring-cup'), false, 'not before every entrant has its frozen version');
    // Seeding order: beta first.
    assert.equal(await store.freezeEntry('spring-cup', b.id, { kind: 'upload', sha256: 'ab'.repeat(32) }, 0), true);
    assert.equal(await store.freezeEntry('spring-cup', a.id, { kind: 'url', doctor: { ok: true } }, 1), true);
    assert.equal(await store.freezeEntry('spring-cup', a.id, { kind: 'url', doctor: { ok: false } }, 1), false, 'a frozen version is written once');
    const entries = await store.contestEntries('spring-cup');
    assert.deepEqual(
      entries.map((x) => [x.name, x.place, x.frozen]),
      [
        ['beta', 0, { kind: 'upload', sha256: 'ab'.repeat(32) }],
        ['alpha', 1, { kind: 'url', doctor: { ok: true } }],
      ],
    );
    assert.equal(await store.startContest('spring-cup'), true);
    assert.equal((await store.getContest('spring-cup'))!.status, 'running');
  });

  it('entries and the freeze at once: every entry the freeze lets in is there when it reads them, none after', async () => {
    const { store, url } = await stores.fresh();
    const second = target.twoStores ? await stores.open(url) : store;
    const bots = await Promise.all(Array.from({ length: 12 }, (_, i) => activeBot(store, `bot-${i}`)));
    await store.createContest(contest());
    const entering = bots.map((b, i) =>
      (i % 2 ? second : store).enterContest('spring-cup', b.id).then(
        () => 'in',
        (err: Error) => (err instanceof ConflictError ? 'closed' : Promise.reject(err)),
      ),
    );
    const closed = store.closeEntries('spring-cup');
    const outcomes = await Promise.all(entering);
    assert.equal(await closed, true);
    const entries = await store.contestEntries('spring-cup');
    assert.equal(entries.length, outcomes.filter((o) => o === 'in').length, 'an entry is accepted exactly when it is kept');
  });

  it('creates a planned match once per key, whatever repeats, never rated, only while the contest runs', async () => {
    const { store } = await stores.fresh();
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    await store.createContest(contest('early'));
    await assert.rejects(
      store.createContestMatch('early', 'r0:c0:0-1:g0', 0, contestMatch(a, b)),
      (err: Error) => err instanceof ConflictError && /is entry/.test(err.message),
    );
    await runningContest(store, [a, b]);
    await assert.rejects(store.createContestMatch('spring-cup', 'k', 0, contestMatch(a, b, { rated: true })), /never rated/);
    await assert.rejects(store.createContestMatch('spring-cup', 'k', 0, contestMatch(a, b, { kind: 'ladder' })), /kind "contest"/);
    const first = await store.createContestMatch('spring-cup', 'r0:c0:0-1:g0', 0, contestMatch(a, b));
    assert.equal(first.created, true);
    assert.deepEqual([first.match.kind, first.match.rated, first.match.status], ['contest', false, 'queued']);
    const again = await store.createContestMatch('spring-cup', 'r0:c0:0-1:g0', 0, contestMatch(a, b, { seed: 99 }));
    assert.equal(again.created, false);
    assert.equal(again.match.id, first.match.id, 'the key gives back the match made before');
    assert.equal(again.match.seed, 11);
    const second = await store.createContestMatch('spring-cup', 'r0:c0:0-1:g1', 1, contestMatch(b, a));
    assert.equal(await store.countMatches({ kind: 'contest' }), 2);
    assert.deepEqual(await store.contestMatchCounts('spring-cup'), { queued: 2, running: 0, finished: 0, aborted: 0 });
    assert.ok(await store.startMatch(first.match.id));
    assert.ok(await store.finishMatch(first.match.id, finishOf(first.match, [1, 2])));
    const listed = await store.contestMatches('spring-cup');
    assert.deepEqual(
      listed.map((m) => [m.key, m.position, m.match.id, m.match.status, m.match.seats.map((s) => s.name)]),
      [
        ['r0:c0:0-1:g0', 0, first.match.id, 'finished', ['alpha', 'beta']],
        ['r0:c0:0-1:g1', 1, second.match.id, 'queued', ['beta', 'alpha']],
      ],
    );
    assert.equal(listed[0]!.match.result?.winner, 0);
    // Played again: only the key's aborted match is replaced, and only once (the key then holds the new one).
    const third = await store.createContestMatch('spring-cup', 'r0:c0:0-1:g2', 2, contestMatch(a, b, { id: 'cm-g2' }));
    const notAborted = await store.createContestMatch('spring-cup', 'r0:c0:0-1:g2', 2, contestMatch(a, b, { id: 'cm-g2.r1' }), 'cm-g2');
    assert.deepEqual([notAborted.created, notAborted.match.id], [false, 'cm-g2'], 'a queued match is not replaced');
    assert.ok(await store.abortMatch('cm-g2', 'the server restarted'));
    const replaced = await store.createContestMatch('spring-cup', 'r0:c0:0-1:g2', 2, contestMatch(a, b, { id: 'cm-g2.r1' }), 'cm-g2');
    assert.deepEqual([replaced.created, replaced.match.id, replaced.match.status], [true, 'cm-g2.r1', 'queued']);
    const twice = await store.createContestMatch('spring-cup', 'r0:c0:0-1:g2', 2, contestMatch(a, b, { id: 'cm-g2.r1b' }), 'cm-g2');
    assert.deepEqual([twice.created, twice.match.id], [false, 'cm-g2.r1'], 'replacing the same match again gives the replacement back');
    assert.deepEqual(
      (await store.contestMatches('spring-cup')).map((m) => m.match.id),
      [first.match.id, second.match.id, 'cm-g2.r1'],
    );
    assert.equal(third.match.id, 'cm-g2');
    assert.ok(await store.abortMatch('cm-g2.r1', 'done with it'));
    assert.deepEqual(await store.ratingsOf(a.id), [], "a contest's match moves no rating");
    assert.equal(await store.finishContest('spring-cup', { standings: [] }), true);
    assert.equal(await store.finishContest('spring-cup', { standings: [1] }), false);
    assert.deepEqual((await store.getContest('spring-cup'))!.results, { standings: [] });
    await assert.rejects(store.createContestMatch('spring-cup', 'r0:c0:0-1:g3', 3, contestMatch(a, b)), /is done/);
  });

  it('two planners creating the same matches at once make each once', async () => {
    const { store, url } = await stores.fresh();
    const second = target.twoStores ? await stores.open(url) : store;
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    await runningContest(store, [a, b]);
    const keys = Array.from({ length: 10 }, (_, i) => `r0:c0:0-1:g${i}`);
    const made = await Promise.all(keys.flatMap((k, i) => [store, second].map((s) => s.createContestMatch('spring-cup', k, i, contestMatch(a, b)))));
    assert.equal(made.filter((m) => m.created).length, 10, 'one creation per key');
    assert.equal(await store.countMatches({ kind: 'contest' }), 10, 'and one matches row per key');
    assert.equal(new Set(made.map((m) => m.match.id)).size, 10);
  });
}
