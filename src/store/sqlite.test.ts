import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { storeContract } from './contract.kit.js';
import { StoreError } from './errors.js';
import { activeBot, finishOf, plusOne, running } from './fixtures.kit.js';
import { openStore } from './open.js';

const dir = mkdtempSync(join(tmpdir(), 'botarena-store-'));
let n = 0;
const newDatabase = async () => join(dir, `db-${n++}`, 'botarena.sqlite');
after(() => rmSync(dir, { recursive: true, force: true }));

describe('store on SQLite (a real file)', () => {
  storeContract({ newDatabase, twoStores: false });
});

describe('SQLite specifics', () => {
  it('makes the folder, and opens the file in WAL mode with its schema, its indexes and table statistics', async () => {
    const file = await newDatabase();
    const store = await openStore(`sqlite:${file}`);
    assert.equal(store.describe(), `SQLite ${file}`);
    await store.close();
    const raw = new BetterSqlite3(file, { readonly: true });
    try {
      assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
      const tables = raw.prepare("select name from sqlite_master where type = 'table' order by name").pluck().all();
      assert.deepEqual(
        tables.filter((t) => !/^sqlite_stat/.test(t as string)),
        [
          'arena',
          'bot_versions',
          'botarena_migrations',
          'botarena_migrations_lock',
          'bots',
          'contest_entries',
          'contest_matches',
          'contests',
          'match_logs',
          'match_seats',
          'matches',
          'pair_results',
          'rating_history',
          'ratings',
          'replays',
        ],
      );
      assert.ok(tables.includes('sqlite_stat1'), 'the planner has statistics');
      const indexes = raw.prepare("select name from sqlite_master where type = 'index' and name like 'matches_%' order by name").pluck().all();
      assert.deepEqual(indexes, ['matches_created', 'matches_game_created', 'matches_game_kind_created', 'matches_status', 'matches_status_created']);
    } finally {
      raw.close();
    }
  });

  it('says which file it could not use', async () => {
    const notADatabase = join(dir, 'notes.txt');
    writeFileSync(notADatabase, 'these are notes, not a database\n'.repeat(100));
    await assert.rejects(
      openStore(notADatabase),
      (e: Error) =>
        e instanceof StoreError && e.kind === 'unavailable' && e.message === `cannot use the SQLite database ${notADatabase}: file is not a database`,
    );
    await assert.rejects(
      openStore(join(notADatabase, 'inside.sqlite')),
      (e: Error) => e instanceof StoreError && e.message.startsWith(`cannot open the SQLite database ${join(notADatabase, 'inside.sqlite')}: `),
    );
  });

  it('two processes finishing the same matches at once: each match once, every rating from the one before', { timeout: 60_000 }, async () => {
    const url = await newDatabase();
    const store = await openStore(url);
    try {
      const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
      const ms = [];
      for (let i = 0; i < 30; i++) ms.push(await running(store, [a, b]));
      // The child goes from the last match back, this process from the first on: they meet in the middle.
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'finisher.kit.ts'), url, ...ms.map((m) => m.id).reverse()], {
        stdio: ['pipe', 'pipe', 'inherit'],
        env: { ...process.env, NODE_TEST_CONTEXT: undefined },
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      assert.equal((await lines.next()).value, 'ready');
      child.stdin!.end('go\n');
      const theirs = new Map<string, boolean>();
      const read = async () => {
        for (let l = await lines.next(); !l.done; l = await lines.next()) {
          const { id, stored } = JSON.parse(l.value as string) as { id: string; stored: boolean };
          theirs.set(id, stored);
        }
      };
      let over = false;
      const reading = read().finally(() => (over = true));
      while (!theirs.size && !over) await new Promise((r) => setTimeout(r, 1)); // under way before this process starts
      const mine: boolean[] = [];
      for (const m of ms) mine.push(await store.finishMatch(m.id, finishOf(m, [1, 2], { rate: plusOne([a.id, b.id]) })));
      await reading;
      assert.equal(await exited, 0);
      assert.ok(
        ms.every((m, i) => theirs.get(m.id) === !mine[i]),
        `each match finished by exactly one process: ${JSON.stringify({ mine, theirs: ms.map((m) => theirs.get(m.id)) })}`,
      );
      for (const [i, m] of ms.entries())
        assert.deepEqual(
          (await store.getMatch(m.id))!.seats.map((s) => s.rank),
          mine[i] ? [1, 2] : [2, 1],
        );
      assert.deepEqual(
        (await store.ratingsOf(a.id)).map((r) => [r.rating, r.games]),
        [[1530, 30]],
        'no rating lost between the processes',
      );
      assert.equal((await store.ratingHistory(b.id, 'elo')).length, 30);
    } finally {
      await store.close();
    }
  });

  it('opens ./data/botarena.sqlite under the working folder when given no database', async () => {
    const cwd = process.cwd();
    const work = mkdtempSync(join(dir, 'cwd-'));
    process.chdir(work);
    try {
      const store = await openStore();
      assert.equal(store.describe(), `SQLite ${join(work, 'data', 'botarena.sqlite')}`);
      await store.close();
      assert.ok(existsSync(join(work, 'data', 'botarena.sqlite')));
    } finally {
      process.chdir(cwd);
    }
  });
});
