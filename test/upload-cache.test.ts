// Placement of uploaded code on the process that plays it: fetched from the store (a real SQLite file) when the
// cache lacks it, its sha256 checked, unpacked read-only, evicted least recently used by size (never while held);
// and what a worker without a seat's language says instead of playing it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { newJob } from '../src/arena/match-job.js';
import { uploadRefusal, UploadCache } from '../src/registry/upload/cache.js';
import { readUpload } from '../src/registry/upload/intake.js';
import { KNOWN_LANGUAGES, uploadSpec } from '../src/registry/upload/languages.js';
import { openStore } from '../src/store/index.js';
import { tarGz } from './archives.kit.js';

const dir = mkdtempSync(join(tmpdir(), 'upload-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a version is fetched once, checked, unpacked read-only, and evicted least recently used past the size (held ones stay)', async () => {
  const store = await openStore(join(dir, 'a.sqlite'));
  try {
    const bot = await store.createBot({ game: 'lighthouses', name: 'b', endpoint: 'http://127.0.0.1:9/', tokenHash: 'x', capacity: 1 });
    const add = async (text: string) => {
      const pkg = await readUpload(
        'v.tar.gz',
        tarGz([
          { path: 'bot.py', data: text, mode: 0o755 },
          { path: 'lib/data.txt', data: 'd' },
        ]),
      );
      await store.addBotVersion(bot.id, {
        sha256: pkg.sha256,
        code: pkg.bytes,
        expanded: pkg.expandedBytes,
        language: 'python3',
        spec: uploadSpec(pkg.sha256, { language: 'python3', entry: 'bot.py' }),
      });
      return pkg.sha256;
    };
    const [a, b, c, d] = [await add('a'.repeat(1000)), await add('b'.repeat(1000)), await add('c'.repeat(1000)), await add('d'.repeat(1000))];
    const cache = new UploadCache(store, { dir: join(dir, 'cache'), maxBytes: 2500, languages: { python3: KNOWN_LANGUAGES.python3! } });
    await cache.place(a);
    await cache.place(a);
    assert.equal(cache.fetched, 1, 'the second placement finds it in the cache');
    assert.equal(readFileSync(join(cache.dir, a, 'bot.py'), 'utf8'), 'a'.repeat(1000));
    assert.equal(statSync(join(cache.dir, a, 'bot.py')).mode & 0o777, 0o555, 'read-only, its exec bit kept');
    assert.equal(statSync(join(cache.dir, a, 'lib/data.txt')).mode & 0o777, 0o444);
    await sleep(5);
    await cache.place(b);
    await sleep(5);
    await cache.place(c);
    assert.deepEqual(cache.contents().versions.sort(), [b, c].sort(), 'a, the least recently used, went past 2500 bytes');
    assert.ok(!existsSync(join(cache.dir, a)));
    await sleep(5);
    await cache.place(b); // b is used again: c is now the least recently used
    await sleep(5);
    const release = await cache.hold(d);
    assert.deepEqual(cache.contents().versions.sort(), [b, d].sort());
    await sleep(5);
    await cache.place(a); // b is older than the held d: b goes
    assert.deepEqual(cache.contents().versions.sort(), [a, d].sort(), 'the held version stays');
    release();
    assert.ok(cache.contents().bytes <= 2500);
    // A new process on the same folder knows what is there.
    const again = new UploadCache(store, { dir: join(dir, 'cache'), maxBytes: 2500, languages: {} });
    await again.place(a);
    assert.equal(again.fetched, 0);
  } finally {
    await store.close();
  }
});

test('bytes that do not match their sha256 are refused, not run; a version the store lacks is named', async () => {
  const store = await openStore(join(dir, 'b.sqlite'));
  try {
    const bot = await store.createBot({ game: 'lighthouses', name: 'b', endpoint: 'http://127.0.0.1:9/', tokenHash: 'x', capacity: 1 });
    const pkg = await readUpload('bot.py', Buffer.from('print(1)'));
    const forged = 'f'.repeat(64);
    await store.addBotVersion(bot.id, { sha256: forged, code: pkg.bytes, expanded: 8, language: 'python3', spec: `upload:python3:${forged} entry=bot.py` });
    const cache = new UploadCache(store, { dir: join(dir, 'cache-b'), languages: {} });
    await assert.rejects(cache.place(forged), new RegExp(`the store's bytes for version ${forged} have sha256 ${pkg.sha256}: refused, not run`));
    assert.ok(!existsSync(join(cache.dir, forged)));
    await assert.rejects(cache.place('0'.repeat(64)), /the store has no uploaded code with sha256 0{64}/);
  } finally {
    await store.close();
  }
});

test("a worker without a seat's language (or without uploads) says so instead of playing it", () => {
  const sha = 'a'.repeat(64);
  const job = newJob({ game: 'paint', seats: [{ bot: `upload:node:${sha} entry=main.js` }, { bot: 'greedy' }] });
  assert.match(uploadRefusal(job, null)!, /seat 0 is uploaded node code and this process runs no uploaded code: start it with --uploads node/);
  assert.match(uploadRefusal(job, { languages: ['python3'] })!, /does not run node \(its languages: python3\): a worker with it plays the match/);
  assert.equal(uploadRefusal(job, { languages: ['python3', 'node'] }), null);
  assert.equal(uploadRefusal(newJob({ game: 'paint', seats: [{ bot: 'greedy' }, { bot: 'greedy' }] }), null), null);
});
