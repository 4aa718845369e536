import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readReplay } from '../src/cli/replay-file.js';
import { resolveConfig } from '../src/core/config.js';
import { ReplayMismatchError, UsageError } from '../src/core/errors.js';
import type { Replay } from '../src/core/replay.js';
import { assertReplayShape, MAX_REPLAY_DEPTH } from '../src/core/replay-shape.js';
import { getGame } from '../src/games/index.js';
import { ROOT, runCli, type CliRun } from './run-cli.js';

/**
 * Hostile or broken input to the CLI: crafted replay files, names that are Object.prototype's own
 * (`__proto__`, `constructor`, `toString`), replays whose seats run commands, position files holding secrets.
 * Every case is a clear usage error (exit 2) or a replay that does not reproduce (exit 1), never exit 70.
 */

const tmp = mkdtempSync(join(tmpdir(), 'botarena-crafted-'));
const FIXTURES = join(ROOT, 'test/fixtures/replays');
/** A real replay (tictactoe: 2 seats, inits then play turns), parsed afresh for each case. */
const base = (file = 'tictactoe.json'): Replay => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Replay;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

let n = 0;
/** Writes a file in the test folder and returns its path. */
function file(name: string, content: string | Buffer): string {
  const path = join(tmp, `${n++}-${name}`);
  writeFileSync(path, content);
  return path;
}

/** A CLI run that ended as a usage error (exit 2) with a sentence, not a crash. */
function usageError(r: CliRun, message: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, message);
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
}

/** Crafted replays: each breaks one field, and the message names it by its path. */
const CRAFTED: [string, (r: Loose) => void, RegExp][] = [
  ['a turn that is null', (r) => (r.turns[3] = null), /"turns\[3\]" must be a step .*, got null/],
  [
    'moves that are not an array',
    (r) => (r.turns[3].moves = { slot: 0, action: '1-1' }),
    /"turns\[3\]\.moves" must be an array, got \{"slot":0,"action":"1-1"\}/,
  ],
  ['a slot out of range', (r) => (r.turns[3].moves[0].slot = 7), /"turns\[3\]\.moves\[0\]\.slot" must be an integer 0\.\.1\b.*, got 7/],
  ['a slot that is null', (r) => (r.turns[3].moves[0].slot = null), /"turns\[3\]\.moves\[0\]\.slot" must be an integer 0\.\.1\b.*, got null/],
  ['a move with neither action nor fault', (r) => delete r.turns[3].moves[0].action, /"turns\[3\]\.moves\[0\]" must have an "action" or a "fault"/],
  [
    'a fault without its detail',
    (r) => (r.turns[3].moves[0].fault = { kind: 'timeout' }),
    /"turns\[3\]\.moves\[0\]\.fault\.detail" must be a string, got nothing/,
  ],
  ['a phase that is not asked', (r) => (r.turns[0].phase = 'end'), /"turns\[0\]\.phase" must be "init" or "play", got "end"/],
  ['config null', (r) => (r.config = null), /"config" must be a JSON object, got null/],
  ['config an array', (r) => (r.config = ['board']), /"config" must be a JSON object, got \["board"\]/],
  ['a config value that is an object', (r) => (r.config = { board: { a: 1 } }), /"config\.board" must be a string, a number or true\/false, got \{"a":1\}/],
  ['seed -1', (r) => (r.seed = -1), /"seed" must be an integer 0\.\.4294967295, got -1/],
  ['seed 2**32', (r) => (r.seed = 2 ** 32), /"seed" must be an integer 0\.\.4294967295, got 4294967296/],
  ['a seed that is a string', (r) => (r.seed = '7'), /"seed" must be an integer 0\.\.4294967295, got "7"/],
  ['ranks of the wrong length', (r) => (r.result.ranks = [1]), /"result\.ranks" must have 2 items \(one per seat\), got 1/],
  ['a rank of 0', (r) => (r.result.ranks = [0, 1]), /"result\.ranks\[0\]" must be an integer ≥ 1, got 0/],
  ['scores of the wrong type', (r) => (r.result.scores = 'none'), /"result\.scores" must be null or an array of 2/],
  ['a winner that is no seat', (r) => (r.result.winner = 2), /"result\.winner" must be null or 0\.\.1/],
  ['faults of the wrong length', (r) => (r.result.faults = []), /"result\.faults" must have 2 items/],
  ['a seat without its bot', (r) => delete r.seats[1].bot, /"seats\[1\]\.bot" must be a string, got nothing/],
  ['seats out of order', (r) => (r.seats[1].slot = 0), /"seats\[1\]\.slot" must be an integer 1 \(its place in the list\), got 0/],
  ['a deadline of 0', (r) => (r.timeouts.turnMs = 0), /"timeouts\.turnMs" must be an integer 1\.\.3600000, got 0/],
  [
    'a transcript entry of the wrong shape',
    (r) => (r.transcripts = [[{ dir: 'sideways', t: 0, text: '' }], []]),
    /"transcripts\[0\]\[0\]\.dir" must be "send", "recv", "stderr", "note", got "sideways"/,
  ],
  ['forkedFrom without its fingerprint', (r) => (r.forkedFrom = { matchId: 'm', seed: 1, turn: 2 }), /"forkedFrom\.fingerprint" must be a string, got nothing/],
  ['an unknown fingerprint scheme', (r) => (r.hashes = 'md5'), /"hashes" must be "chain" \(or no "hashes" at all: whole-state fingerprints\), got "md5"/],
  [
    'the fingerprints of a development version',
    (r) => (r.hashes = 'steps'),
    /"hashes" is "steps": the replay was written by a development version .* play the match again with the same bots and seed/,
  ],
  [
    'a result inherited through __proto__',
    (r) => (r.result = JSON.parse('{"__proto__":{"ranks":[2,1]}}')),
    /"result\.ranks" must be an array of 2 \(one per seat\), got nothing/,
  ],
];

describe('assertReplayShape checks the whole replay', () => {
  for (const [name, change, message] of CRAFTED) {
    it(`refuses ${name}, naming the field by its path`, () => {
      const r = base() as Loose;
      change(r);
      assert.throws(
        () => assertReplayShape(JSON.parse(JSON.stringify(r))),
        (e: Error) => e instanceof ReplayMismatchError && /^not a Botarena replay: /.test(e.message) && message.test(e.message),
      );
    });
  }

  it('passes every replay of the fixtures, old and new, with their optional fields', () => {
    for (const f of ['battleship', 'connect4', 'lighthouses', 'paint', 'smartdog', 'tictactoe-fault', 'tictactoe', 'tron']) {
      const r = base(`${f}.json`) as Loose;
      assertReplayShape(r);
      Object.assign(r, { durationMs: 12.5, transcripts: [[{ dir: 'send', t: 0, text: '{}' }], [{ dir: 'note', t: 1.5, text: 'exit 0' }]] });
      r.timeouts.turnSet = true;
      r.forkedFrom = { matchId: 'm', seed: 1, turn: 2, fingerprint: 'abcd' };
      assertReplayShape(r);
    }
  });

  it(`refuses nesting deeper than ${MAX_REPLAY_DEPTH} levels anywhere, without recursion, quoting a short path`, () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    const r = { ...base(), config: { board: deep } };
    assert.throws(() => assertReplayShape(r), /"config\.board\[0\]\[0\]\[0\]\[0\]" nests arrays and objects deeper than 64 levels \(below this path\)/);
    // 64 levels are fine (the replay itself is level 1): only the config's own key type is then wrong.
    let ok: unknown = 1;
    for (let i = 0; i < MAX_REPLAY_DEPTH - 2; i++) ok = [ok];
    assert.throws(() => assertReplayShape({ ...base(), config: { board: ok } }), /"config\.board" must be a string, a number or true\/false, got \[\[\[/);
  });

  it('quotes at most a short part of a bad value', () => {
    const r = { ...base(), game: ['x'.repeat(100_000)] };
    assert.throws(
      () => assertReplayShape(r),
      (e: Error) => /"game" must be a string, got \["x+…$/.test(e.message) && e.message.length < 200,
    );
  });
});

describe('readReplay caps what it reads', () => {
  const text = JSON.stringify(base());

  it('refuses a file larger than the cap, naming the file and the limit', () => {
    const path = file('big.json', text + ' '.repeat(2000));
    assert.throws(
      () => readReplay(path, { file: 1024 }),
      (e: Error) => e instanceof UsageError && e.message === `replay ${path} is larger than 1024 bytes, the most a replay file may hold`,
    );
    assert.equal(readReplay(file('fits.json', text)).game, 'tictactoe');
  });

  it('refuses a gzip file that unpacks to more than the cap', () => {
    const path = file('big.json.gz', gzipSync(text + ' '.repeat(5000)));
    assert.throws(
      () => readReplay(path, { json: 4096 }),
      (e: Error) => e instanceof UsageError && e.message === `replay ${path} unpacks to more than 4096 bytes, the most a replay may hold`,
    );
    assert.equal(readReplay(path).game, 'tictactoe');
  });

  it('a broken gzip or a file that is not JSON is a usage error', () => {
    assert.throws(
      () => readReplay(file('broken.json.gz', Buffer.from([0x1f, 0x8b, 1, 2, 3]))),
      (e: Error) => e instanceof UsageError && /is not valid gzip/.test(e.message),
    );
    assert.throws(
      () => readReplay(file('secret.json', 'SECRET-hunter2 and much more text')),
      (e: Error) => e instanceof UsageError && /is not valid JSON/.test(e.message) && !/hunter2/.test(e.message),
    );
  });
});

describe('botarena replay with crafted files', () => {
  /** The tictactoe replay with one change, written to a file. */
  const crafted = (change: (r: Loose) => void): string => {
    const r = base() as Loose;
    change(r);
    return file('crafted.json', JSON.stringify(r));
  };

  const cases: [string, string, RegExp][] = [
    ['a turn null', crafted((r) => (r.turns[3] = null)), /"turns\[3\]" must be a step/],
    ['moves not an array', crafted((r) => (r.turns[3].moves = 'X')), /"turns\[3\]\.moves" must be an array, got "X"/],
    ['a slot out of range', crafted((r) => (r.turns[3].moves[0].slot = 5)), /"turns\[3\]\.moves\[0\]\.slot" must be an integer 0\.\.1/],
    ['config null', crafted((r) => (r.config = null)), /"config" must be a JSON object, got null/],
    ['seed -1', crafted((r) => (r.seed = -1)), /"seed" must be an integer 0\.\.4294967295, got -1/],
    ['seed 2**32', crafted((r) => (r.seed = 2 ** 32)), /"seed" must be an integer 0\.\.4294967295, got 4294967296/],
    ['ranks of the wrong length', crafted((r) => (r.result.ranks = [1, 2, 3])), /"result\.ranks" must have 2 items \(one per seat\), got 3/],
    ['a game named __proto__', crafted((r) => (r.game = '__proto__')), /unknown game "__proto__"; the games are: tictactoe/],
    ['a game named constructor', crafted((r) => (r.game = 'constructor')), /unknown game "constructor"/],
    [
      'a config key __proto__',
      file('proto-key.json', JSON.stringify(base()).replace('"config":{', '"config":{"__proto__":"1",')),
      /unknown config key "__proto__" for tictactoe/,
    ],
    ['a config key toString', crafted((r) => (r.config.toString = 'x')), /unknown config key "toString" for tictactoe/],
    // 10 000 levels of arrays inside a real replay: JSON.parse takes it, nothing may stringify it.
    [
      '10 000-deep nesting',
      file('deep.json', JSON.stringify(base()).replace('"config":{"board":""}', `"config":{"board":${'['.repeat(10_000)}${']'.repeat(10_000)}}`)),
      /"config\.board\[0\]\[0\]\[0\]\[0\]" nests arrays and objects deeper than 64 levels/,
    ],
  ];
  for (const [name, path, message] of cases) {
    it(`replay verify: ${name} is a usage error naming the field`, async () => usageError(await runCli(['replay', 'verify', path]), message));
  }

  it('replay show, position and fork read the file the same way', async () => {
    const path = cases[0]![1];
    for (const args of [
      ['show', path],
      ['position', path, '--turn', '1'],
      ['fork', path, '--turn', '1', 'random', 'random'],
      ['refeed', path, 'random', '--slot', '0'],
    ]) {
      usageError(await runCli(['replay', ...args]), /"turns\[3\]" must be a step/);
    }
  });

  it('a recorded action of a type the rules never produce does not reproduce (exit 1), it does not crash', async () => {
    const r = base('smartdog.json') as Loose;
    r.turns[1].moves[0].action = { lines: 'x' };
    const v = await runCli(['replay', 'verify', file('smartdog-action.json', JSON.stringify(r))]);
    assert.equal(v.code, 1, v.stderr);
    assert.match(v.stderr, /does not reproduce: turn 2 \(step 2 of 8\): the rules cannot play the recorded moves \(slot 0: \{"lines":"x"\}/);
    assert.doesNotMatch(v.stderr, /internal error/);
  });

  it('position and fork of a replay with a crafted action say it does not reproduce (exit 1), and --key looks up own keys', async () => {
    const r = base('smartdog.json') as Loose;
    r.turns[1].moves[0].action = { lines: 'x' };
    const path = file('smartdog-action-2.json', JSON.stringify(r));
    for (const args of [
      ['position', path, '--turn', '5'],
      ['fork', path, '--turn', '5', 'random', 'random'],
    ]) {
      const v = await runCli(['replay', ...args]);
      assert.equal(v.code, 1, `${args[0]}: ${v.stderr}`);
      assert.match(v.stderr, /the replay does not reproduce: turn 2 .*the rules cannot play the recorded moves/);
      assert.doesNotMatch(v.stderr, /internal error/);
    }
    usageError(
      await runCli(['replay', 'position', file('ok.json', JSON.stringify(base())), '--turn', '1', '--key', 'constructor']),
      /tictactoe has no config key "constructor"/,
    );
  });

  it('a 300 KB gzip bomb (300 MiB of spaces) is refused at 256 MiB unpacked', async () => {
    const member = gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 });
    const bomb = file('bomb.json.gz', Buffer.concat(Array.from({ length: 300 }, () => member))); // gzip members unpack one after another
    assert.ok(readFileSync(bomb).length < 400_000);
    usageError(await runCli(['replay', 'verify', bomb]), new RegExp(`replay ${bomb} unpacks to more than 256 MiB, the most a replay may hold`));
  });

  it('/dev/zero is refused quickly at 64 MiB read, not read until memory runs out', { skip: !existsSync('/dev/zero') }, async () => {
    const t0 = Date.now();
    const r = await runCli(['replay', 'verify', '/dev/zero'], { timeoutMs: 20_000 });
    usageError(r, /replay \/dev\/zero is larger than 64 MiB, the most a replay file may hold/);
    assert.ok(Date.now() - t0 < 10_000, `took ${Date.now() - t0} ms`);
  });
});

describe('names that are Object.prototype properties', () => {
  it('getGame and resolveConfig look names up as own keys only', () => {
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      assert.throws(
        () => getGame(id),
        (e: Error) => e instanceof UsageError && e.message.startsWith(`unknown game "${id}"`),
      );
      const game = getGame('tictactoe');
      // JSON.parse makes "__proto__" an own key, as a replay's config would have it.
      assert.throws(
        () => resolveConfig(game.id, game.config, JSON.parse(`{${JSON.stringify(id)}:"1"}`)),
        (e: Error) => e instanceof UsageError && e.message.startsWith(`unknown config key "${id}" for tictactoe`),
      );
    }
  });

  const cases: [string, string[], RegExp][] = [
    ['game __proto__', ['play', '__proto__', 'random', 'random'], /unknown game "__proto__"/],
    ['game constructor', ['play', 'constructor', 'random', 'random'], /unknown game "constructor"/],
    ['game toString', ['play', 'toString', 'random', 'random'], /unknown game "toString"/],
    ['bot toString', ['play', 'tictactoe', 'toString', 'random'], /cannot read bot spec "toString"/],
    ['bot constructor', ['play', 'tictactoe', 'constructor', 'random'], /tictactoe has no built-in bot "constructor"; its built-in bots are: random, minimax/],
    ['bot builtin:__proto__', ['play', 'tictactoe', 'builtin:__proto__', 'random'], /tictactoe has no built-in bot "__proto__"/],
    ['bot builtin:hasOwnProperty', ['play', 'connect4', 'random', 'builtin:hasOwnProperty'], /connect4 has no built-in bot "hasOwnProperty"/],
    [
      'config key __proto__',
      ['play', 'tictactoe', 'random', 'random', '--set', '__proto__=1'],
      /unknown config key "__proto__" for tictactoe; known keys: board/,
    ],
    ['config key constructor', ['play', 'tictactoe', 'random', 'random', '--set', 'constructor=1'], /unknown config key "constructor" for tictactoe/],
    ['config key toString', ['play', 'tron', 'random', 'random', '--set', 'toString=1'], /unknown config key "toString" for tron/],
    ['lighthouses map constructor', ['play', 'lighthouses', 'random', 'random', '--set', 'map=constructor'], /unknown map "constructor": the shipped maps are/],
    ['lighthouses map __proto__', ['play', 'lighthouses', 'random', 'random', '--set', 'map=__proto__'], /unknown map "__proto__": the shipped maps are/],
    ['smart-dog map toString', ['play', 'smartdog', 'random', 'random', '--set', 'map=toString'], /unknown map "toString": the shipped maps are/],
    ['paint board constructor', ['play', 'paint', 'random', 'random', '--set', 'board=constructor'], /"constructor" is not a shipped board/],
    ['dialect constructor', ['play', 'battleship', 'stdio+constructor:cat', 'random'], /battleship has no wire dialect "constructor"; it has: json, form/],
    ['a device as a map file', ['play', 'lighthouses', 'random', 'random', '--set', 'map=/dev/zero'], /--set map=\/dev\/zero: that is not a regular file/],
  ];
  for (const [name, args, message] of cases) {
    it(`${name} is a usage error`, async () => usageError(await runCli(args), message));
  }
});

describe("replay fork runs a replay's commands only when told to", () => {
  /** The tictactoe fault replay, its stdio seat replaced by a command that leaves a mark when it runs. */
  const replayWithCommand = (marker: string): string => {
    const r = base('tictactoe-fault.json') as Loose;
    r.seats[1].bot = `stdio:touch ${marker}; echo junk`;
    return file('commands.json', JSON.stringify(r));
  };

  it('without bots and without --same-bots: exit 2 naming the commands, and nothing runs', async () => {
    const marker = join(tmp, 'ran-without');
    const r = await runCli(['replay', 'fork', replayWithCommand(marker), '--turn', '2']);
    usageError(r, /the replay's seats run commands \(slot 1: "stdio:touch .*; echo junk"\): pass --same-bots to run them, or give the bots/);
    assert.equal(existsSync(marker), false, 'the command did not run');
  });

  it('with --same-bots the recorded seats play, commands included', async () => {
    const marker = join(tmp, 'ran-with');
    const r = await runCli(['replay', 'fork', replayWithCommand(marker), '--turn', '2', '--same-bots', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(marker), true, 'the command ran');
    assert.equal(JSON.parse(r.stdout).players[1].bot, `stdio:touch ${marker}; echo junk`);
  });

  it('with bots given, or with built-in seats only, no flag is needed', async () => {
    const marker = join(tmp, 'ran-given');
    const given = await runCli(['replay', 'fork', replayWithCommand(marker), '--turn', '2', 'random', 'random', '--json']);
    assert.equal(given.code, 0, given.stderr);
    assert.equal(existsSync(marker), false);
    const builtins = await runCli(['replay', 'fork', join(FIXTURES, 'tictactoe.json'), '--turn', '2', '--json']);
    assert.equal(builtins.code, 0, builtins.stderr);
  });
});

describe('a position file that is not in the expected format is not echoed', () => {
  const SECRET = 'SECRET-hunter2-do-not-print';
  /** Text a secret's owner would not want printed: long, the secret well past the first 60 characters. */
  const secretText = `${'password file of the admin account, keep it private! '.repeat(2)}${SECRET}\nline two ${SECRET}\n`;
  const secret = file('secret.txt', secretText);
  const secretJson = file('secret-string.json', JSON.stringify(secretText));

  const cases: [string, string[], RegExp][] = [
    ['lighthouses, text', ['play', 'lighthouses', 'random', 'random', '--set', `position=${secret}`], /bad position: not JSON \(/],
    [
      'lighthouses, an unknown key',
      ['play', 'lighthouses', 'random', 'random', '--set', `position=${file('lh.json', JSON.stringify({ [secretText]: 1 }))}`],
      /the position has an unknown key "password file/,
    ],
    ['smart-dog, text', ['play', 'smartdog', 'random', 'random', '--set', `position=${secret}`], /position: not valid JSON \(/],
    [
      'smart-dog, a JSON string',
      ['play', 'smartdog', 'random', 'random', '--set', `position=${secretJson}`],
      /position: "password file of the admin.*… is not a JSON object/,
    ],
    [
      'smart-dog, a field',
      ['play', 'smartdog', 'random', 'random', '--set', `position=${file('sd.json', JSON.stringify({ dogs: secretText }))}`],
      /position: "dogs" is "password file.*; expected a JSON array/,
    ],
    ['tron, a JSON string', ['play', 'tron', 'random', 'random', '--set', `trails=${secretJson}`], /trails: the trails are "password file/],
    [
      'tron, unknown keys',
      ['play', 'tron', 'random', 'random', '--set', `trails=${file('tron.json', JSON.stringify({ [secretText]: 1 }))}`],
      /trails has unknown key "password file/,
    ],
    [
      'paint, a field',
      ['play', 'paint', 'random', 'random', '--set', `board=${file('paint.json', JSON.stringify({ width: secretText }))}`],
      /bad board: width must be a positive integer, got "password file/,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: a short quote at most`, async () => {
      const r = await runCli(args);
      usageError(r, message);
      assert.doesNotMatch(r.stderr, new RegExp(SECRET));
    });
  }
});
