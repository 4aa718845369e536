import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generateStarters, staleStarters } from '../scripts/gen-starters.mjs';
import { GENERATED_LINE, writeStarter } from '../src/cli/new-command.js';
import { ROOT } from './run-cli.js';

// starters/LANG/GAME-TRANSPORT/ are written by scripts/gen-starters.mts from starters/src/ (a game part per
// language and game, a shim per language and transport) and the games' JSON Schemas: these tests say when the
// written files are not what the sources make, and that one change in a source reaches every starter it feeds.

const tmp = mkdtempSync(join(tmpdir(), 'botarena-gen-starters-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('the generated starters', () => {
  it('are what starters/src/ and schemas/ make (else: npm run generate:starters)', async () => {
    const problems = await staleStarters();
    assert.deepEqual(problems, [], `${problems.join('\n')}\nthe starters are not current: run npm run generate:starters`);
  });

  it('the check names a hand-edited file, a missing one and a stray one, and the command that rewrites them', () => {
    const copy = join(tmp, 'starters');
    cpSync(join(ROOT, 'starters'), copy, { recursive: true, filter: (p) => !/[/\\](src|__pycache__|node_modules)$/.test(p) });
    writeFileSync(join(copy, 'python', 'tron-http', 'bot.py'), readFileSync(join(copy, 'python', 'tron-http', 'bot.py'), 'utf8').replace('"play"', '"move"'));
    rmSync(join(copy, 'ts', 'paint-stdio', 'README.md'));
    writeFileSync(join(copy, 'node', 'tron-stdio', 'extra.mjs'), '');
    const check = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/gen-starters.mts', '--check', '--starters', copy], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(check.status, 1, check.stderr);
    assert.match(check.stderr, /python\/tron-http\/bot\.py is not what starters\/src\/ makes/);
    assert.match(check.stderr, /ts\/paint-stdio\/README\.md is missing/);
    assert.match(check.stderr, /node\/tron-stdio\/extra\.mjs comes from no source in starters\/src\//);
    assert.match(check.stderr, /the starters are not current: run npm run generate:starters$/m);
    assert.equal(check.stderr.split('\n').filter((l) => l.includes('tron-stdio/bot.mjs')).length, 0, 'the files that are current are not named');
  });

  it("a message's description, changed once in its JSON Schema, reaches the README of every starter of the game", async () => {
    const schemas = join(tmp, 'schemas');
    cpSync(join(ROOT, 'schemas'), schemas, { recursive: true });
    const file = join(schemas, 'tron', 'turn.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { properties: Record<string, { description?: string }> };
    schema.properties['player-index']!.description = 'Your seat, said a new way.';
    writeFileSync(file, JSON.stringify(schema));
    const made = await generateStarters(schemas);
    const readmes = [...made.keys()].filter((p) => /\/tron-[a-z]+\/README\.md$/.test(p));
    assert.equal(readmes.length, 6, readmes.join(', ')); // python, node and ts; stdio and http
    for (const p of readmes) assert.match(made.get(p)!, /^- `player-index`: .*Your seat, said a new way\.$/m, p);
    const others = [...made.keys()].filter((p) => p.endsWith('README.md') && !p.includes('/tron-'));
    for (const p of others) assert.doesNotMatch(made.get(p)!, /said a new way/, p);
  });

  it('share their message loop: each transport shim is written into the starters of every game', async () => {
    const made = await generateStarters();
    const loops = (pattern: RegExp) =>
      [...made.entries()]
        .filter(([p]) => pattern.test(p))
        .map(([, text]) =>
          text.slice(text.indexOf('// ---------------------------------------------------------------------------------------------------\n')),
        );
    const http = loops(/^node\/[a-z0-9]+-http\/bot\.mjs$/);
    assert.equal(http.length, 4);
    assert.equal(new Set(http).size, 1, 'the four Node HTTP starters end in the same loop');
    assert.match(http[0]!, /the port is taken \(is this bot already running\?\)/);
  });

  it("carry one generated-from line in the repository, which a user's copy from botarena new goes without", () => {
    for (const file of [
      'python/tron-http/bot.py',
      'node/smartdog-tcp/bot.mjs',
      'ts/paint-stdio/bot.ts',
      'ts/paint-stdio/README.md',
      'python/tron-http/test_bot.py',
    ]) {
      const text = readFileSync(join(ROOT, 'starters', file), 'utf8');
      assert.equal(text.match(new RegExp(GENERATED_LINE.source, 'gm'))?.length, 1, `${file}: one generated-from line`);
    }
    assert.match(
      readFileSync(join(ROOT, 'starters/python/tron-http/bot.py'), 'utf8'),
      /^#!\/usr\/bin\/env python3\n# Generated from starters\/src\/python\/games\/tron\/bot\.py \+ python\/shims\/json-http\.txt by npm run generate:starters/,
    );
    const dir = join(tmp, 'user-copy');
    const files = writeStarter(join(ROOT, 'starters', 'python', 'tron-http'), dir, 'botarena');
    for (const f of files) assert.doesNotMatch(readFileSync(join(dir, f), 'utf8'), /Generated from starters\/src\//, f);
    assert.ok(readFileSync(join(dir, 'bot.py'), 'utf8').startsWith('#!/usr/bin/env python3\n"""A Tron starter bot'), 'the shebang, then the docstring');
  });
});
