// How an upload's run is decided from the languages the operator enabled, and how an operator adds one.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { UsageError } from '../src/core/errors.js';
import { UploadError, type PackageFile } from '../src/registry/upload/intake.js';
import { enabledLanguages, planRun, uploadSpec } from '../src/registry/upload/languages.js';
import { runCli } from './run-cli.js';

const files = (...paths: [string, string?][]): PackageFile[] => paths.map(([path, data]) => ({ path, exec: false, data: Buffer.from(data ?? '') }));
const langs = enabledLanguages(['python3', 'node']);

test('the language and entry are found by convention, given, or read from botarena.json', () => {
  assert.deepEqual(planRun(files(['mybot.py']), {}, langs), { language: 'python3', entry: 'mybot.py' });
  assert.deepEqual(planRun(files(['main.js'], ['lib/x.js']), {}, langs), { language: 'node', entry: 'main.js' });
  assert.deepEqual(planRun(files(['a.py'], ['b.py']), { entry: 'b.py' }, langs), { language: 'python3', entry: 'b.py' });
  assert.deepEqual(planRun(files(['botarena.json', '{"language": "node", "run": "node src/start.js --fast"}'], ['src/start.js']), {}, langs), {
    language: 'node',
    run: 'node src/start.js --fast',
  });
  assert.equal(uploadSpec('ab'.repeat(32), { language: 'python3', entry: 'bot.py' }), `upload:python3:${'ab'.repeat(32)} entry=bot.py`);
});

test('what cannot be run is refused, saying what is expected', () => {
  assert.throws(
    () => planRun(files(['a.txt'], ['b.txt']), {}, langs),
    (e: unknown) => e instanceof UploadError && /language is not known: give one/.test(e.message),
  );
  assert.throws(
    () => planRun(files(['a.rb']), { language: 'ruby' }, langs),
    /language "ruby" is not enabled on this server; the languages here: python3, node/,
  );
  assert.throws(
    () => planRun(files(['a.py'], ['b.py']), { language: 'python3' }, langs),
    /no entry file: a python3 bot's package holds one of bot\.py, main\.py/,
  );
  assert.throws(() => planRun(files(['bot.py']), { entry: 'nope.py' }, langs), /the entry file "nope\.py" is not in the upload/);
  assert.throws(() => planRun(files(['bot.py']), { entry: 'bot.py; rm -rf /' }, langs), /not a plain relative path/);
  assert.throws(() => planRun(files(['botarena.json', '{"cmd": 1}'], ['bot.py']), {}, langs), /unknown key "cmd"/);
});

test('an operator adds a language with a file; one whose program is missing is refused at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'langs-'));
  const file = join(dir, 'languages.json');
  writeFileSync(
    file,
    JSON.stringify({ shell: { command: 'sh {entry}', entries: ['bot.sh'], extensions: ['.sh'] }, cobol: { command: 'no-such-cobol {entry}' } }),
  );
  const table = enabledLanguages(['python3', 'shell'], file);
  assert.deepEqual(Object.keys(table), ['python3', 'shell']);
  assert.deepEqual(planRun(files(['bot.sh']), {}, table), { language: 'shell', entry: 'bot.sh' });
  assert.throws(
    () => enabledLanguages(['cobol'], file),
    (e: unknown) => e instanceof UsageError && /its program no-such-cobol is not installed here/.test(e.message),
  );
  assert.throws(() => enabledLanguages(['ruby']), /no language "ruby"; the known ones are python3, node/);
});

test('serve --uploads where the sandbox cannot run (no bwrap in PATH) does not start, saying uploads run only in it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'no-bwrap-'));
  const r = await runCli(['serve', '--uploads', 'python3', '--port', '0', '--no-gateway', '--database', join(dir, 'a.sqlite')], { env: { PATH: dir } });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--uploads runs uploaded code only in the sandbox, which cannot run here: needs bwrap \(Debian package bubblewrap/);
});
