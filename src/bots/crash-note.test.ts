import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { runMatch } from '../arena/run-match.js';
import { sumGame } from '../arena/sum-game.kit.js';
import { errorLine } from './process-group.js';

/** What a program writes to stderr when run with `input` on its stdin. */
function stderrOf(file: string, args: string[], input = ''): string {
  const r = spawnSync(file, args, { input, encoding: 'utf8', timeout: 10_000 });
  assert.notEqual(r.status, 0, `${file} ${args.join(' ')} should fail`);
  return r.stderr;
}

const node = (code: string) => stderrOf('node', ['-e', code]);
const python = (code: string) => stderrOf('python3', ['-c', code]);
const sh = (script: string) => stderrOf('/bin/sh', ['-c', script]);

/** Asserts that `stderr` gives `expected` (or a line matching it), showing the whole text when not. */
function check(stderr: string, expected: string | RegExp): void {
  const line = errorLine(stderr);
  if (typeof expected === 'string') assert.equal(line, expected, stderr);
  else assert.match(line, expected, stderr);
  assert.doesNotMatch(line, /^Node\.js v/, stderr);
}

describe('errorLine: the stderr line a crash fault quotes', () => {
  it('for Node, the thrown error, not the stack or the version line after it', () => {
    check(node("throw new Error('boom')"), 'Error: boom');
    check(stderrOf('node', ['test/fixtures/crash/boom.mjs'], '{}\n{}\n'), 'Error: boom'); // thrown in a readline handler of an ES module
    check(node('null.x'), "TypeError: Cannot read properties of null (reading 'x')");
    check(node("Promise.reject(new Error('rejected'))"), 'Error: rejected');
    check(node("async function main() { await null; throw new RangeError('async boom'); } main()"), 'RangeError: async boom');
    check(node("require('./no-such-module')"), "Error: Cannot find module './no-such-module'");
    check(node("throw new Error('outer', { cause: new TypeError('inner') })"), 'Error: outer');
    check(node("const e = new Error('with props'); e.code = 'E_X'; throw e"), 'Error: with props');
  });

  it("for Node, the error's own name, and its first line when its message has blank lines in it", () => {
    check(node("const e = new Error('named'); e.name = 'BoomFailure'; throw e"), 'BoomFailure: named');
    check(node("require('node:assert').strictEqual(1, 2)"), 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:');
    check(node("throw new Error('first\\n\\nsecond')"), 'Error: first');
  });

  it('for Node, a thrown string, number or object as Node prints it', () => {
    check(node("throw 'text'"), 'text');
    check(node('throw 42'), '42');
    check(node('throw {a: 1}'), '{ a: 1 }');
    check(node("Promise.reject('plain')"), /^UnhandledPromiseRejection: .*"plain"/);
  });

  it('for Node, an error from code it has no source line for (no ^ line): the error still', () => {
    check(node("JSON.parse('{')"), /^SyntaxError: Expected property name/);
  });

  it('for Node, skips what the bot wrote before the crash, even when it looks like an error', () => {
    check(
      node("console.error('debug: Error: not this one'); console.error(new Error('logged')); setTimeout(() => { throw new Error('this one'); }, 1)"),
      'Error: this one',
    );
  });

  it('for Python, the exception line; for SystemExit, its message', () => {
    check(python("raise ValueError('bad')"), 'ValueError: bad');
    check(stderrOf('python3', ['test/fixtures/crash/bad.py'], '{}\n{}\n'), 'ValueError: bad');
    check(python("try:\n    1/0\nexcept Exception as e:\n    raise ValueError('bad') from e"), 'ValueError: bad');
    check(python("raise SystemExit('msg')"), 'msg');
  });

  it('for anything else, the last non-empty line, as before', () => {
    check(node("console.error('first'); console.error('my message'); process.exit(3)"), 'my message');
    check(sh('echo debug >&2; echo giving up >&2; printf "\\n  \\n" >&2; exit 1'), 'giving up');
    check(sh('no-such-bot-command --fast'), /no-such-bot-command.*not found/);
    assert.equal(errorLine(''), '');
    assert.equal(errorLine('\n  \n'), '');
    assert.equal(errorLine('one\r\ntwo\r\n'), 'two');
  });
});

describe('a crash fault quotes the error', () => {
  /** Plays the test game between `bot` (which answers once, then crashes) and a built-in bot; returns the crash's detail. */
  async function crashDetail(bot: string): Promise<string> {
    const { replay } = await runMatch({ game: 'sum-test', seats: [{ bot }, { bot: 'one' }], seed: 1, config: { turns: 3 } }, { game: sumGame });
    const fault = replay.result.faults[0];
    assert.equal(fault?.kind, 'crash', JSON.stringify(replay.result));
    assert.deepEqual(replay.result.scores, [1, 3], 'the bot answered the first turn, then crashed');
    return fault.detail;
  }

  it("a Node bot that throws: the error, not Node's version line", async () => {
    const detail = await crashDetail('stdio:node test/fixtures/crash/boom.mjs');
    assert.match(detail, /^process exited with code 1 .*; last stderr: "Error: boom"$/);
    assert.doesNotMatch(detail, /Node\.js v/);
  });

  it('a Python bot that raises: the exception line', async () => {
    const detail = await crashDetail('stdio:python3 test/fixtures/crash/bad.py');
    assert.match(detail, /^process exited with code 1 .*; last stderr: "ValueError: bad"$/);
  });
});
