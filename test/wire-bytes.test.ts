import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { ROOT, runCli } from './run-cli.js';
// @ts-expect-error: a plain .mjs fixture script, without types
import { MATCHES, playArgs, wireOf } from './fixtures/wire/record.mjs';

/**
 * The wire, byte for byte, against recordings made before issue 33 (commit 295b5c8): for each game a Node
 * starter played seat 0 over stdio against a built-in bot with a fixed seed, and its transcript was kept
 * (test/fixtures/wire/record.mjs). The same match is played again with a bot that answers exactly as the
 * recorded one did (tap.mjs), and every line the arena sends must be the recorded line.
 */
const DIR = join(ROOT, 'test/fixtures/wire');
const tmp = mkdtempSync(join(tmpdir(), 'botarena-wire-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('the wire is the recorded wire', () => {
  for (const name of Object.keys(MATCHES as Record<string, unknown>)) {
    it(`${name}: every message the arena sends is the recorded one`, async () => {
      const golden = join(DIR, `${name}.json.gz`);
      const recorded = JSON.parse(gunzipSync(readFileSync(golden)).toString('utf8')) as { sent: string[]; answers: string[][] };
      const out = join(tmp, `${name}.json`);
      const run = await runCli((playArgs as (n: string, s: string, r: string) => string[])(name, `stdio:node ${join(DIR, 'tap.mjs')} ${golden}`, out), {
        timeoutMs: 120_000,
      });
      assert.equal(run.code, 0, run.stderr);
      const now = (wireOf as (r: unknown) => { sent: string[]; answers: string[][] })(JSON.parse(readFileSync(out, 'utf8')));
      const first = now.sent.findIndex((text, i) => text !== recorded.sent[i]);
      assert.equal(
        first,
        now.sent.length === recorded.sent.length ? -1 : Math.min(now.sent.length, recorded.sent.length),
        `message ${first} differs:\nrecorded: ${recorded.sent[first]}\nnow:      ${now.sent[first]}`,
      );
      assert.equal(now.sent.length, recorded.sent.length, 'as many messages as recorded');
      assert.deepEqual(now.answers, recorded.answers, 'the bot answered as recorded (the tap bot kept in step)');
    });
  }
});
