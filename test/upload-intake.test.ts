// Uploads are hostile input: each refused with a message that says what was wrong and what is expected, and
// with a bounded cost, asserted by what was inflated before the reading stopped (never by the clock).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { canonicalBytes, parseCanonical, readUpload, UPLOAD_LIMITS, UploadError } from '../src/registry/upload/intake.js';
import { tarBytes, tarGz, zipBytes } from './archives.kit.js';

const refused = async (name: string, bytes: Buffer, pattern: RegExp, limits = UPLOAD_LIMITS): Promise<UploadError> => {
  const err = await readUpload(name, bytes, limits).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof UploadError, `expected an UploadError, got ${String(err)}`);
  assert.match(err.message, pattern);
  return err;
};

test('a single file, a .tar.gz and a .zip of the same folder give the same package and sha256', async () => {
  const single = await readUpload('bot.py', Buffer.from('print(1)\n'));
  assert.deepEqual(
    single.files.map((f) => f.path),
    ['bot.py'],
  );
  const files = [
    { path: 'mybot/main.js', data: 'require("./node_modules/left/index.js")\n', mode: 0o755 },
    { path: 'mybot/node_modules/left/index.js', data: 'module.exports = 1\n' },
  ];
  const tgz = await readUpload('bot.tar.gz', tarGz([{ path: 'mybot/', type: 'Directory' }, ...files.reverse()]));
  const zip = await readUpload('bot.zip', zipBytes(files.map((f) => ({ name: f.path, data: f.data, deflate: true, mode: 0o100000 | (f.mode ?? 0o644) }))));
  // The one top folder is taken off; the exec bit is kept; the order is the paths'.
  assert.deepEqual(
    tgz.files.map((f) => [f.path, f.exec]),
    [
      ['main.js', true],
      ['node_modules/left/index.js', false],
    ],
  );
  assert.equal(tgz.sha256, zip.sha256);
  assert.deepEqual(parseCanonical(tgz.bytes), tgz.files);
  assert.deepEqual(canonicalBytes(parseCanonical(zip.bytes)), zip.bytes);
});

test('a zip bomb is refused once the expanded cap is reached: what was inflated stays within the cap', async () => {
  const tenMiB = deflateRawSync(Buffer.alloc(10 * 1024 * 1024));
  // 40 entries of 10 MiB of zeros each (400 MiB once expanded) in a zip of well under 1 MiB.
  const bomb = zipBytes(Array.from({ length: 40 }, (_, i) => ({ name: `z${i}`, raw: tenMiB, declared: 10 * 1024 * 1024, crc: 0 })));
  assert.ok(bomb.length < 1024 * 1024);
  const err = await refused('bomb.zip', bomb, /expands to more than 50 MiB.*at most 50 MiB of files once expanded/);
  assert.ok(err.inflated <= UPLOAD_LIMITS.expandedBytes, `inflated ${err.inflated} bytes, more than the cap`);
  // An entry that lies about its size (says 100 bytes, holds 10 MiB) is stopped at the size it said.
  const liar = await refused('liar.zip', zipBytes([{ name: 'a', raw: tenMiB, declared: 100 }]), /expands to more than its declared 100 bytes/);
  assert.ok(liar.inflated <= 128 * 1024, `inflated ${liar.inflated} bytes of a 100-byte entry`);
  // One entry that says it is 4 GiB: refused before a byte is inflated.
  const big = await refused('big.zip', zipBytes([{ name: 'a', raw: tenMiB, declared: 0xfffffff0 }]), /expands to more than 50 MiB/);
  assert.equal(big.inflated, 0);
});

test('a .tar.gz bomb stops inflating at the cap', async () => {
  // A header that says 1 GiB, then gzip members of zeros: refused at the header.
  const header = Buffer.alloc(512);
  new Header({ path: 'huge', type: 'File', size: 1024 * 1024 * 1024, mode: 0o644, mtime: new Date(0) }).encode(header, 0);
  const zeros = gzipSync(Buffer.alloc(16 * 1024 * 1024));
  const bomb = Buffer.concat([gzipSync(header), ...Array.from({ length: 64 }, () => zeros)]);
  const err = await refused('bomb.tar.gz', bomb, /expands to more than 50 MiB \(at "huge"\)/);
  assert.ok(err.inflated <= 1024 * 1024, `inflated ${err.inflated} bytes`);
  // Many honest-looking 8 MiB files: stopped once their sum passes the cap.
  const eight = tarBytes([{ path: 'f', data: Buffer.alloc(8 * 1024 * 1024) }]).subarray(0, 512 + 8 * 1024 * 1024);
  const many = Buffer.concat([...Array.from({ length: 20 }, (_, i) => gzipSync(Buffer.concat([renamed(eight, `f${i}`)]))), gzipSync(Buffer.alloc(1024))]);
  const e2 = await refused('many.tar.gz', many, /expands to more than 50 MiB/);
  assert.ok(e2.inflated <= UPLOAD_LIMITS.expandedBytes + 10 * 1024 * 1024, `inflated ${e2.inflated} bytes`);
});

/** A tar entry's header block with another path (the checksum made again). */
function renamed(entry: Buffer, path: string): Buffer {
  const h = new Header(entry.subarray(0, 512));
  h.path = path;
  const block = Buffer.alloc(512);
  h.encode(block, 0);
  return Buffer.concat([block, entry.subarray(512)]);
}

test('paths out of the folder, links and devices are refused, naming the entry', async () => {
  await refused(
    'up.tar.gz',
    tarGz([{ path: '../evil.py', data: 'x' }]),
    /entry "\.\.\/evil\.py" goes up a folder \(\.\.\): every path must stay inside the bot's folder/,
  );
  await refused('up.zip', zipBytes([{ name: 'a/../../evil.py', data: 'x' }]), /goes up a folder/);
  await refused('abs.zip', zipBytes([{ name: '/etc/cron.d/x', data: 'x' }]), /is an absolute path/);
  await refused(
    'link.tar.gz',
    tarGz([
      { path: 'bot.py', data: 'x' },
      { path: 'passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' },
    ]),
    /entry "passwd" is a symbolic link \(to "\/etc\/passwd"\): a bot's package holds files and folders only/,
  );
  await refused('link.zip', zipBytes([{ name: 'passwd', data: '/etc/passwd', mode: 0o120777 }]), /entry "passwd" is a symbolic link/);
  await refused('hard.tar.gz', tarGz([{ path: 'p', type: 'Link', linkpath: '/etc/passwd' }]), /is a hard link/);
  await refused('dev.tar.gz', tarGz([{ path: 'null', type: 'CharacterDevice' }]), /entry "null" is a device: a bot's package holds files and folders only/);
  await refused('fifo.tar.gz', tarGz([{ path: 'pipe', type: 'FIFO' }]), /is a fifo/);
  await refused('dev.zip', zipBytes([{ name: 'sda', mode: 0o060644 }]), /not a regular file/);
  await refused('../bot.py', Buffer.from('x'), /is not one the bot can be run by/);
  await refused('deep.tar.gz', tarGz([{ path: `${'d/'.repeat(20)}f`, data: 'x' }]), /is 21 folders deep; at most 16/);
  await refused(
    'twice.zip',
    zipBytes([
      { name: 'a', data: '1' },
      { name: 'a', data: '2' },
    ]),
    /holds "a" twice/,
  );
  await refused('notgz.tar.gz', Buffer.from('hello'), /is not gzip data/);
  await refused('empty.zip', zipBytes([]), /holds no file/);
});

test('100 000 tiny files are refused at the file cap, having read no more than the cap', async () => {
  const entries = Array.from({ length: 100_000 }, (_, i) => ({ path: `f/${i}`, data: 'x' }));
  const tgz = tarGz(entries);
  const err = await refused('many.tar.gz', tgz, /has more than 5000 files; at most 5000/);
  // Each entry is 1 KiB of tar: the reading stopped near the 5001st, not at the 100 000th.
  assert.ok(err.inflated <= (UPLOAD_LIMITS.files + 200) * 1024, `inflated ${err.inflated} bytes of ${100_000 * 1024}`);
  // A zip says its count first: refused before any entry is read (65 535 is the most a zip without zip64 holds).
  const zip = zipBytes(Array.from({ length: 65_535 }, (_, i) => ({ name: `f${i}` })));
  const z = await refused('many.zip', zip, /has 65535 entries; at most 5000 files/);
  assert.equal(z.inflated, 0);
});

test('the compressed size is capped before anything is read', async () => {
  await refused('big.py', Buffer.alloc(UPLOAD_LIMITS.compressedBytes + 1), /the upload is 10 MiB; at most 10 MiB/);
});

test("a folder packed from inside (tar czf - -C DIR .) reads as the folder's files", async () => {
  const pkg = await readUpload(
    'bot.tar.gz',
    tarGz([
      { path: './', type: 'Directory' },
      { path: './main.js', data: 'x' },
      { path: './lib/', type: 'Directory' },
      { path: './lib/a.js', data: 'y' },
    ]),
  );
  assert.deepEqual(
    pkg.files.map((f) => f.path),
    ['lib/a.js', 'main.js'],
  );
});
