import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { ROOT } from './run-cli.js';

/** The rule ids and messages ESLint gives `code` as if it were the file `filePath` of the repository. */
async function lint(code: string, filePath: string): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath: join(ROOT, filePath) });
  return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

describe('the pure layers stay pure', () => {
  const violations: [string, string, RegExp][] = [
    ['a Node module', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n", /no Node modules here/],
    ['a bare Node module name', "import { createHash } from 'crypto';\nexport const h = createHash;\n", /no Node modules here/],
    ['process', 'export const home = process.env.HOME;\n', /no Node globals, timers or clocks/],
    ['Buffer', "export const b = Buffer.from('x');\n", /no Node globals/],
    ['a timer', 'setTimeout(() => {}, 1);\n', /no Node globals, timers or clocks/],
    ['Math.random', 'export const r = Math.random();\n', /seeded generator/],
    ['Date.now', 'export const t = Date.now();\n', /never read the clock/],
    ['new Date', 'export const d = new Date();\n', /never read the clock/],
    ['the runner', "import { runMatch } from '../../arena/run-match.js';\nexport const r = runMatch;\n", /the layer table in ARCHITECTURE\.md/],
    ['a transport', "import { parseBotSpec } from '../../bots/index.js';\nexport const p = parseBotSpec;\n", /the layer table in ARCHITECTURE\.md/],
    ['a test helper', "import { playScript } from '../botsarena/driver.kit.js';\nexport const p = playScript;\n", /test helper/],
  ];
  for (const [what, code, message] of violations) {
    it(`lint refuses ${what} in a game's shipped file, saying why`, async () => {
      const found = await lint(code, 'src/games/tictactoe/bad.ts');
      assert.ok(
        found.some((m) => message.test(m.message)),
        JSON.stringify(found),
      );
      const core = await lint(code, 'src/core/bad.ts');
      assert.ok(
        core.some((m) => message.test(m.message)),
        `src/core too: ${JSON.stringify(core)}`,
      );
    });
  }

  it("lint allows Node outside the pure layers, and in the pure layers' tests", async () => {
    const code =
      "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\nexport const home = process.env.HOME;\nexport const t = Date.now();\n";
    assert.deepEqual(await lint(code, 'src/cli/fine.ts'), []);
    assert.deepEqual(await lint(code, 'src/games/tictactoe/fine.test.ts'), []);
  });

  it('lint refuses a kit import from shipped code outside the pure layers', async () => {
    const found = await lint("import { sumGame } from './sum-game.kit.js';\nexport const g = sumGame;\n", 'src/arena/bad.ts');
    assert.ok(
      found.some((m) => /test helper/.test(m.message)),
      JSON.stringify(found),
    );
  });

  it('the pure tsconfig has no Node types: `process` does not compile there, plain code does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-pure-'));
    try {
      const check = (code: string) => {
        writeFileSync(join(dir, 'probe.ts'), code);
        writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(ROOT, 'tsconfig.pure.json'), include: [], files: [join(dir, 'probe.ts')] }));
        return spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
      };
      const bad = check('export const home: string | undefined = process.env.HOME;\nexport const b = Buffer.from("x");\n');
      assert.notEqual(bad.status, 0);
      assert.match(bad.stdout, /error TS25(80|91): Cannot find name 'process'/);
      assert.match(bad.stdout, /Cannot find name 'Buffer'/);
      const good = check('export const twice = (n: number): number => n * 2;\nexport const copy = structuredClone({ a: 1 });\n');
      assert.equal(good.status, 0, good.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the build ships no test files and no test helpers', () => {
    const listed = spawnSync('find', [join(ROOT, 'dist'), '-name', '*.kit.*', '-o', '-name', '*.test.*'], { encoding: 'utf8' });
    assert.equal(listed.status, 0, listed.stderr);
    assert.equal(listed.stdout.trim(), '', `in dist/:\n${listed.stdout}`);
  });
});
