// The contests' service on a real store (a SQLite file): a final whose creation is cut off by a crash is taken
// up by a new process from what the store has, and planners at once create nothing twice.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { openStore, type Store } from '../store/index.js';
import { Contests, CONTEST_REPLAYS, isContestMatchId } from './service.js';

const dir = mkdtempSync(join(tmpdir(), 'botarena-contests-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const log = { info: () => {}, warn: () => {} };
let n = 0;

/** A store with a running-to-be contest of `entrants` bots (a double round robin on two boards: n(n−1)·2 matches). */
async function arena(entrants: number): Promise<{ store: Store; url: string }> {
  const url = join(dir, `db-${n++}.sqlite`);
  const store = await openStore(url);
  const hour = 3_600_000;
  const contests = new Contests({ store, log, enqueue: async () => {} });
  await contests.create({
    id: 'cup',
    name: 'Cup',
    game: 'tictactoe',
    configs: [
      { label: 'empty', config: {} },
      { label: 'corner', config: { board: 'X../.../...' } },
    ],
    format: 'double-round-robin',
    gamesPerPairing: 1,
    timeRules: {},
    seed: 1,
    opensAt: new Date(Date.now() - hour).toISOString(),
    closesAt: new Date(Date.now() + hour).toISOString(),
  });
  for (let i = 0; i < entrants; i++) {
    const bot = await store.createBot({
      game: 'tictactoe',
      name: `bot-${i}`,
      endpoint: `http://127.0.0.1:9/${i}`,
      status: 'active',
      tokenHash: 'x',
      capacity: 2,
    });
    await contests.enter('cup', bot);
  }
  return { store, url };
}

it('a crash while the final is being created: the next process creates only the missing matches, each once', async () => {
  const { store, url } = await arena(5);
  // The first process dies after creating 7 matches (its store fails it from then on, as a killed process would stop).
  let made = 0;
  const dying = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'createContestMatch')
        return async (...args: Parameters<Store['createContestMatch']>) => {
          if (++made > 7) throw new Error('killed');
          return target.createContestMatch(...args);
        };
      const v = Reflect.get(target, key, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const first: string[] = [];
  await assert.rejects(new Contests({ store: dying, log, enqueue: async (id) => void first.push(id) }).start('cup'), /killed/);
  assert.equal(first.length, 7);
  assert.equal((await store.getContest('cup'))!.status, 'running');
  await store.close();

  // The next process, on the same store: its tick carries on.
  const again = await openStore(url);
  try {
    const second: string[] = [];
    const contests = new Contests({ store: again, log, enqueue: async (id) => void second.push(id) });
    await contests.tick();
    assert.equal(second.length, 40 - 7, 'only the missing ones were created (and enqueued)');
    await contests.tick();
    assert.equal(second.length, 33, 'a second look creates nothing');
    const matches = await again.contestMatches('cup');
    assert.equal(matches.length, 40);
    assert.equal(new Set(matches.map((m) => m.key)).size, 40);
    assert.equal(await again.countMatches({ kind: 'contest' }), 40);
    assert.deepEqual(new Set([...first, ...second]), new Set(matches.map((m) => m.match.id)), 'every match was enqueued by one process or the other');
    assert.deepEqual(
      matches.map((m) => m.position),
      matches.map((_, i) => i),
    );
  } finally {
    await again.close();
  }
});

// (Two connections at once are the store contract's on Postgres: "two planners creating the same matches at once".)
it('planners advancing one final at once create each match once', async () => {
  const { store } = await arena(4);
  const other = store;
  try {
    const enqueued: string[] = [];
    const a = new Contests({ store, log, enqueue: async (id) => void enqueued.push(id) });
    const b = new Contests({ store: other, log, enqueue: async (id) => void enqueued.push(id) });
    await a.freeze('cup');
    assert.equal(await store.startContest('cup'), true);
    await Promise.all([a.advance('cup'), b.advance('cup'), a.tick(), b.tick()]);
    assert.equal(await store.countMatches({ kind: 'contest' }), 24);
    assert.equal(enqueued.length, 24, 'each created, and enqueued, by one of them');
    assert.equal(new Set(enqueued).size, 24);
  } finally {
    await store.close();
  }
});

it('an aborted match of the final is played again under a new id, in its place, up to CONTEST_REPLAYS times; then it counts as an error', async () => {
  const { store } = await arena(3);
  try {
    const enqueued: string[] = [];
    const contests = new Contests({ store, log, enqueue: async (id) => void enqueued.push(id) });
    await contests.start('cup');
    assert.equal(enqueued.length, 12);
    const key = (await store.contestMatches('cup'))[0]!.key;
    const linked = async () => (await store.contestMatches('cup')).find((m) => m.key === key)!.match;
    const first = await linked();
    for (let r = 1; r <= CONTEST_REPLAYS; r++) {
      // The server restarted without a queue (or the bot was deleted): the match is aborted.
      const now = await linked();
      assert.equal(await store.abortMatch(now.id, 'the server restarted while it played'), true);
      await contests.tick();
      const next = await linked();
      assert.equal(next.id, `${first.id}.r${r}`, `played again as .r${r}`);
      assert.equal(next.status, 'queued');
      assert.deepEqual((next.job as { seats: unknown }).seats, (first.job as { seats: unknown }).seats, 'the same seats');
      assert.equal(enqueued.at(-1), next.id, 'and enqueued');
      await contests.tick();
      assert.equal((await linked()).id, next.id, 'once: a second look does not play it again');
    }
    // Aborted once more: it is given up, and counts as played (an error nobody is blamed for).
    assert.equal(await store.abortMatch((await linked()).id, 'again'), true);
    const before = enqueued.length;
    await contests.tick();
    assert.equal(enqueued.length, before, 'not played a fifth time');
    assert.equal((await store.contestMatches('cup')).length, 12, 'the final still has one match per key');
  } finally {
    await store.close();
  }
});

it('a freeze a crash cut off is finished with the places left: every entrant a place of its own', async () => {
  const { store } = await arena(5);
  try {
    const contests = new Contests({ store, log, enqueue: async () => {} });
    // The first freeze wrote two entrants' versions, out of order (its checks run side by side), then stopped.
    assert.equal(await store.closeEntries('cup'), true);
    const entries = await store.contestEntries('cup');
    const idOf = (name: string) => entries.find((e) => e.name === name)!.botId;
    await store.freezeEntry('cup', idOf('bot-3'), { kind: 'url', spec: 'http://127.0.0.1:9/3', doctor: null, at: new Date().toISOString() }, 4);
    await store.freezeEntry('cup', idOf('bot-1'), { kind: 'url', spec: 'http://127.0.0.1:9/1', doctor: null, at: new Date().toISOString() }, 1);
    await contests.freeze('cup');
    const places = (await store.contestEntries('cup')).map((e) => [e.name, e.place]);
    assert.deepEqual(
      places.sort((a, b) => (a[1] as number) - (b[1] as number)),
      [
        ['bot-0', 0],
        ['bot-1', 1],
        ['bot-2', 2],
        ['bot-4', 3],
        ['bot-3', 4],
      ],
      'the places written stay; the others fill the gaps in rating then entry order',
    );
  } finally {
    await store.close();
  }
});

it("the final's match ids are told from the others' (so only they wake the contests' runner)", async () => {
  const { store } = await arena(2);
  try {
    const contests = new Contests({ store, log, enqueue: async () => {} });
    await contests.start('cup');
    const ids = (await store.contestMatches('cup')).map((m) => m.match.id);
    assert.ok(ids.length > 0 && ids.every(isContestMatchId), ids.join(' '));
    assert.ok(isContestMatchId(`${ids[0]}.r2`));
    assert.ok(!isContestMatchId('6a7d08db-28f6-447b-aac0-d8bd2046d129'), 'a ladder match id');
    assert.ok(!isContestMatchId('12345'), 'a CLI match id (its seed)');
  } finally {
    await store.close();
  }
});
