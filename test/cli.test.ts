import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { isGone } from './processes.js';
import { ROOT, runCli } from './run-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'botarena-cli-'));

describe('botarena play', () => {
  it('--json prints exactly one result of the documented shape', async () => {
    const r = await runCli(['play', 'connect4', 'random', 'minimax', '--seed', '11', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const j = JSON.parse(lines[0]!);
    assert.deepEqual(Object.keys(j), ['game', 'seed', 'turns', 'winner', 'draw', 'reason', 'error', 'players', 'durationMs']);
    assert.equal(j.game, 'connect4');
    assert.equal(j.seed, 11);
    assert.ok(j.turns >= 7 && j.turns <= 42);
    assert.equal(j.winner, 1);
    assert.equal(j.draw, false);
    assert.deepEqual(Object.keys(j.players[0]), ['slot', 'name', 'bot', 'rank', 'score', 'fault', 'note']);
    assert.deepEqual(
      j.players.map((p: { name: string; bot: string; rank: number; fault: unknown }) => [p.name, p.bot, p.rank, p.fault]),
      [
        ['random', 'random', 2, null],
        ['minimax', 'minimax', 1, null],
      ],
    );
    assert.equal(typeof j.durationMs, 'number');
  });

  it('the readable summary shows the board, the winner, why, and per-bot timing', async () => {
    const r = await runCli(['play', 'tictactoe', 'minimax', 'minimax', '--seed', '3', '--name', '0=alice', '--name', '1=bob']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /tictactoe · seed 3 · 9 turns/);
    assert.match(r.stdout, /Draw/);
    assert.match(r.stdout, /slot\s+name\s+bot\s+rank\s+(score\s+)?answers\s+median\s+worst\s+fault/);
    assert.match(r.stdout, /0 X\s+alice\s+minimax\s+1/);
    assert.match(r.stdout, /1 O\s+bob\s+minimax\s+1/);
  });

  it('a bot that forfeits still ends the match with exit 0, the fault named in the result', async () => {
    const r = await runCli(['play', 'tictactoe', 'stdio:echo nonsense', 'random', '--seed', '1', '--json', '--init-timeout', '2000', '--timeout', '2000']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.winner, 1);
    assert.equal(j.players[0].fault.turn, 1);
    assert.ok(['crash', 'not-json'].includes(j.players[0].fault.kind), j.players[0].fault.kind);
  });

  it('a bot that faults every turn of a game that goes on shows how many times, beside its last fault', async () => {
    // Lighthouses goes on after an illegal move: the summary showed the 20th fault alone, as if it were the only one.
    const r = await runCli(['play', 'lighthouses', 'stdio:node test/fixtures/lighthouses/far.mjs', 'random', '--seed', '1', '--set', 'rounds=20']);
    assert.equal(r.code, 0, r.stderr);
    const row = r.stdout.split('\n').find((l) => /^0 \S+ +far /.test(l));
    assert.match(row ?? r.stdout, /turn 20: illegal-move: .* \(20 turns faulted\)/);
    assert.match(r.stdout.split('\n').find((l) => /^1 \S+ +random /.test(l)) ?? r.stdout, / -$/, 'a bot without a fault: -');
  });

  it('--log prints every message sent and received, per bot, with timing, on stderr', async () => {
    const r = await runCli(['play', 'tictactoe', 'stdio:python3 test/fixtures/cli/first-empty.py', 'random', '--seed', '5', '--log']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^first-empty \(0\) +[\d.]+m?s → \{"game-id":"5","action":"init","game":"tictactoe","players":2,"board":"","player-index":0\}$/m);
    assert.match(r.stderr, /^first-empty \(0\) +[\d.]+m?s ← \{"play": "0-0"\}$/m); // Python's json.dumps spacing, passed through verbatim
    assert.match(r.stderr, /^first-empty \(0\) +[\d.]+m?s ! thinking about turn$/m); // the bot's stderr is in its log
    assert.match(r.stderr, /^random \(1\) +[\d.]+m?s ← \{"play":"\d-\d"\}$/m);
    assert.match(r.stdout, /tictactoe · seed 5/, 'the summary stays on stdout');
    assert.doesNotMatch(r.stdout, /→ \{/, 'and the messages are not repeated there');
    // Built-in bots only: the match ends before the log is delivered; it is printed all the same.
    const builtins = await runCli(['play', 'tron', 'stupid', 'voronoi', '--seed', '2', '--set', 'width=10', '--set', 'height=8', '--log']);
    assert.equal(builtins.code, 0, builtins.stderr);
    const lastLap = /· (\d+) turns/.exec(builtins.stdout)![1];
    assert.match(builtins.stderr, /^voronoi \(1\) +[\d.]+m?s → \{"game-id":"2","action":"init","game":"tron","board":"","width":10,"height":8/m);
    assert.match(builtins.stderr, new RegExp(`^stupid \\(0\\) +[\\d.]+m?s ← \\{"play":"[xy][+-]"\\}$`, 'm'));
    assert.equal((builtins.stderr.match(/^stupid \(0\) .* → \{"game-id":"2","action":"play-turn"/gm) ?? []).length, Number(lastLap), 'every lap is logged');
  });

  it("--log shows a hung bot's last lines while it hangs, not after the match", async () => {
    const child = spawn(
      process.execPath,
      ['bin/botarena', 'play', 'tictactoe', 'stdio:python3 test/fixtures/cli/hangs.py', 'random', '--log', '--timeout', '60000'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const t0 = performance.now();
    const seen = new Promise<void>((resolve) => child.stderr.on('data', (d: Buffer) => ((stderr += d), /stuck on turn 1/.test(stderr) && resolve())));
    const deadline = new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`not shown within 20 s: ${stderr}`)), 20_000));
    try {
      await Promise.race([seen, deadline]);
      assert.ok(performance.now() - t0 < 20_000);
      assert.match(stderr, /^hangs \(0\) +[\d.]+m?s ! stuck on turn 1$/m);
      assert.match(stderr, /^hangs \(0\) +[\d.]+m?s → \{"game-id":"\d+","action":"play-turn"/m, 'the message it is stuck on is shown too');
    } finally {
      child.kill('SIGINT');
      await once(child, 'close');
    }
  });

  it('--watch prints the board after every turn', async () => {
    const r = await runCli(['play', 'tictactoe', 'minimax', 'minimax', '--seed', '2', '--watch']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((r.stdout.match(/── turn \d+ \(play\)/g) ?? []).length, 9);
  });

  it('--watch --delay MS paces the boards, at least MS apart; --delay alone is a usage error', async () => {
    const t0 = performance.now();
    const r = await runCli(['play', 'tictactoe', 'minimax', 'minimax', '--seed', '2', '--watch', '--delay', '150']);
    const ms = performance.now() - t0;
    assert.equal(r.code, 0, r.stderr);
    assert.equal((r.stdout.match(/── turn \d+ \(play\)/g) ?? []).length, 9);
    assert.ok(ms >= 10 * 150, `11 boards 150 ms apart took only ${ms.toFixed(0)} ms`);
    assert.match(r.stdout, /── turn 9 \(play\)[\s\S]*Draw — the board is full/, 'the summary comes after the last board');
    const alone = await runCli(['play', 'tictactoe', 'random', 'random', '--delay', '10']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--delay paces the boards of --watch: give --watch too/);
  });

  it('a human at the terminal is re-asked after a typo and an illegal move', async () => {
    // X = human: 0-0, a typo, 0-0 again (taken), then 1-1 and 2-2; O = a bot that takes the first empty cell.
    const r = await runCli(['play', 'tictactoe', 'human', 'stdio:python3 test/fixtures/cli/first-empty.py', '--seed', '1', '--json'], {
      input: '0-0\nhello\n0-0\n1-1\n2-2\n',
    });
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.winner, 0, r.stderr);
    assert.match(r.stderr, /try again/);
    assert.match(r.stderr, /taken/);
  });

  it('a human places a Battleship fleet at the prompt (re-asked after a bad one), and greets paint as ready', async () => {
    // A bad fleet first (one ship), then an empty line: a random legal fleet; then shots until stdin ends.
    const shots = Array.from({ length: 100 }, (_, i) => `${i % 10},${Math.floor(i / 10)}`).join('\n');
    const b = await runCli(['play', 'battleship', 'human', 'random', '--seed', '2', '--json'], { input: `0,0-4,0\n\n${shots}\n` });
    assert.equal(b.code, 0, b.stderr);
    assert.match(b.stderr, /ships: x1,y1-x2,y2/);
    assert.match(b.stderr, /wrong number of ships.* — try again/);
    const bj = JSON.parse(b.stdout);
    assert.equal(bj.players[0].fault, null, 'the human fleet is accepted and every shot counts');
    assert.equal(bj.winner, 0, 'sweeping the grid sinks the fleet before random does');
    const p = await runCli(['play', 'paint', 'human', 'random', '--seed', '2', '--set', 'board=10x10', '--set', 'turns=2', '--json'], {
      input: 'walk e\nshoot s\n',
    });
    assert.equal(p.code, 0, p.stderr);
    assert.equal(JSON.parse(p.stdout).players[0].fault, null, 'the ready handshake is answered for the person');
  });

  it('Ctrl-C stops the match and every bot, and exits 130', async () => {
    const child = spawn(
      process.execPath,
      ['bin/botarena', 'play', 'connect4', 'stdio:node test/fixtures/runner/sleepy-bot.mjs 60000 ' + join(tmp, 'sigint.pid') + ' ignore-term', 'random'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const pidfile = join(tmp, 'sigint.pid');
    for (let i = 0; i < 200 && !existsSync(pidfile); i++) await new Promise((r) => setTimeout(r, 50)); // until the bot runs
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    const [code] = (await once(child, 'close')) as [number];
    assert.equal(code, 130, stderr);
    assert.match(stderr, /match cancelled on turn 0; every bot was stopped/);
    assert.ok(isGone(Number(readFileSync(join(tmp, 'sigint.pid'), 'utf8'))), 'the bot survived Ctrl-C');
  });

  it('usage errors exit 2 with a message saying what was wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['play', 'chess', 'a', 'b'], /unknown game "chess"; the games are: tictactoe, connect4, tron, battleship/],
      [['play', 'tictactoe', 'random'], /tictactoe is played by 2 bots, got 1/],
      [['play', 'tictactoe', 'random', 'nobody'], /tictactoe has no built-in bot "nobody"; its built-in bots are: random, minimax/],
      // A built-in bot's name mistyped or capitalised: the nearest name (it used to be "cannot read bot spec").
      [
        ['play', 'tictactoe', 'random', 'Minimax'],
        /tictactoe has no built-in bot "Minimax" \(did you mean minimax\?\); its built-in bots are: random, minimax/,
      ],
      [['play', 'tron', 'voronio', 'random'], /tron has no built-in bot "voronio" \(did you mean voronoi\?\)/],
      [['play', 'tictactoe', 'random', './bot.py'], /to run a program, write stdio:\.\/bot\.py or exec:\.\/bot\.py/],
      [['play', 'tictactoe', 'random', 'random', '--set', 'size=4'], /unknown config key "size" for tictactoe/],
      [['play', 'tictactoe', 'random', 'random', '--seed', 'abc'], /--seed must be a whole number/],
      [['play', 'tictactoe', 'random', 'random', '--name', '5=x'], /the slot must be 0..1/],
      [['replay', 'verify', join(tmp, 'missing.json')], /cannot read replay .*missing\.json: ENOENT/],
      [['frobnicate'], /unknown command/],
      [[], /Usage: botarena/],
      // Subcommands' own usage errors exit 2 too (not commander's 1, kept for "verify found a difference").
      [['replay', 'show'], /missing required argument 'file'/],
      [['replay', 'position', join(tmp, 'x.json')], /required option '--turn <n>' not specified/],
      [['smartdog', 'serve', '--port', 'x'], /--port must be a whole number from 0 to 65535/],
      // One range, whatever was wrong with the value.
      [['play', 'tictactoe', 'random', 'random', '--timeout', 'abc'], /--timeout must be a whole number from 1 to 3600000, got "abc"/],
      [['play', 'tictactoe', 'random', 'random', '--timeout', '0'], /--timeout must be a whole number from 1 to 3600000, got "0"/],
      [['play', 'tictactoe', 'random', 'random', '--init-timeout', '99999999'], /--init-timeout must be a whole number from 1 to 3600000/],
      // Seats a game cannot have are refused before anything starts.
      [['play', 'smartdog', 'human', 'random'], /smartdog has no terminal play/],
      [['play', 'tictactoe', 'tcp', 'random'], /tictactoe bots cannot connect in over tcp \(only smart-dog's do\)/],
      // A replay path that cannot be written is refused before the match, not after it.
      [['play', 'tictactoe', 'random', 'random', '--replay', join(tmp, 'no-such-folder', 'm.json')], /the folder .*no-such-folder does not exist/],
      [['play', 'tictactoe', 'random', 'random', '--replay', tmp], /is a folder; give a file name/],
      [['play', 'lighthouses', 'random', 'random', '--set', 'map=maps/nowhere.txt'], /--set map=maps\/nowhere\.txt: no such file/],
      // Options are checked whole, and unknown keys refused, before a match or a server starts.
      [['play', 'smartdog', 'random', '--set', 'options={"turnsLimt":5}'], /hub options: unknown option "turnsLimt"; the options are turnsLimit, waitForTurn/],
      [['smartdog', 'serve', '--port', '0', '--option', 'turnsLimit=abc'], /hub default \(2 players\): .*option turnsLimit is "abc"; expected a number/],
      [['smartdog', 'serve', '--port', '0', '--option', 'barkR=2'], /unknown option "barkR"/],
      // Deadlines a timer cannot count are refused (past 2³¹−1 ms every answer used to time out at once).
      [['play', 'tictactoe', 'random', 'random', '--timeout', '3000000000'], /--timeout must be a whole number from 1 to 3600000/],
      [['play', 'smartdog', 'random', '--set', 'options={"waitForTurn":3000000000}'], /option waitForTurn is 3000000000; it must be at most 3600000/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { timeoutMs: 15_000 });
      assert.equal(r.code, 2, `${args.join(' ')} → ${r.code}\n${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
    }
  });

  it('an unknown command is refused with exit 2 and the nearest command, --help or not', async () => {
    // `botarena submit --help` used to print the main help and exit 0, as if submit were a command (submit is one
    // now, issue 36: the unknown command is another word).
    const cases: [string[], string][] = [
      [
        ['upgrade', '--help'],
        "botarena: unknown command 'upgrade'; the commands of botarena are: play, games, replay, smartdog, new, doctor, tournament, ab, rate, serve, worker, submit, connect, contest (botarena --help says what each does)\n",
      ],
      [
        ['--help', 'upgrade'],
        "botarena: unknown command 'upgrade'; the commands of botarena are: play, games, replay, smartdog, new, doctor, tournament, ab, rate, serve, worker, submit, connect, contest (botarena --help says what each does)\n",
      ],
      [['plya', 'tictactoe', '--help'], "botarena: unknown command 'plya'; did you mean play? (botarena --help says what each does)\n"],
      [['Doctor', 'tron', 'x'], "botarena: unknown command 'Doctor'; did you mean doctor? (botarena --help says what each does)\n"],
      [['replay', 'shw', '-h'], "botarena: unknown command 'replay shw'; did you mean replay show? (botarena replay --help says what each does)\n"],
      // `help WORDS` as `WORDS --help` (it printed the main help on stderr, with no "did you mean").
      [['help', 'plya'], "botarena: unknown command 'plya'; did you mean play? (botarena --help says what each does)\n"],
      [['help', 'replay', 'shw'], "botarena: unknown command 'replay shw'; did you mean replay show? (botarena replay --help says what each does)\n"],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { timeoutMs: 15_000 });
      assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', message], args.join(' '));
    }
    // What is a command still gets its help.
    for (const args of [['--help'], ['help'], ['help', 'play'], ['help', 'replay', 'show'], ['replay', 'show', '--help']]) {
      const r = await runCli(args, { timeoutMs: 15_000 });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /^Usage: botarena/, args.join(' '));
    }
  });
});

describe('botarena games', () => {
  it('lists the games with player counts, config and built-in bots', async () => {
    const r = await runCli(['games']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /tictactoe — .*\(2 players\)/);
    assert.match(r.stdout, /connect4 — .*\(2 players\)/);
    assert.match(r.stdout, /built-in bots: random .*minimax/);
    assert.match(r.stdout, /tron — .*\(2–12 players\)/);
    assert.match(r.stdout, /width\s+100\s+grid width/);
    const j = JSON.parse((await runCli(['games', '--json'])).stdout);
    assert.deepEqual(
      j.map((g: { id: string }) => g.id),
      ['tictactoe', 'connect4', 'tron', 'battleship', 'lighthouses', 'paint', 'smartdog'],
    );
    assert.match(r.stdout, /map\s+bay\s+a shipped map \(islet, bay, cross, continent\) \(or a FILE path\)/);
  });

  it("shows one game's page: its facts, then a real message of each phase and a built-in bot's answer", async () => {
    const r = await runCli(['games', 'tron']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^tron — Tron \(botsarena\) \(2–12 players\)/);
    assert.match(r.stdout, /timeouts: hello 10000 ms, turn 10000 ms/);
    assert.match(r.stdout, /^ {2}voronoi {4}territory/m);
    assert.match(r.stdout, /^ {2}width +100 +grid width/m);
    assert.match(r.stdout, /the hello \(init\), before the first turn: the bot receives\n {4}\{"game-id":"example","action":"init","game":"tron"/);
    assert.match(
      r.stdout,
      /turn 1: the bot receives\n {4}\{"game-id":"example","action":"play-turn","game":"tron","board":\[\[\[\d+,\d+\]\],\[\[\d+,\d+\]\]\]/,
    );
    assert.match(r.stdout, /and answers\n {4}\{"play":"[xy][+-]"\}/);
    assert.doesNotMatch(r.stdout, /^paint/m, 'only the game asked for');

    // Every game has a page; the JSON form carries the messages as the wire sends them.
    for (const id of ['tictactoe', 'connect4', 'tron', 'battleship', 'lighthouses', 'paint', 'smartdog']) {
      const j = await runCli(['games', id, '--json']);
      assert.equal(j.code, 0, j.stderr);
      const page = JSON.parse(j.stdout) as { id: string; examples: { phase: string; message: string; answer: string }[] };
      assert.equal(page.id, id);
      assert.ok(
        page.examples.some((e) => e.phase === 'play'),
        `${id}: a turn's message`,
      );
      for (const e of page.examples) {
        if (id === 'smartdog') assert.match(e.message, /^start /);
        else assert.doesNotThrow(() => JSON.parse(e.message), `${id} ${e.phase}: the message is JSON`);
        assert.ok(e.answer.length > 0);
      }
    }
    const bad = await runCli(['games', 'chess']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown game "chess"; the games are: tictactoe, connect4, tron, battleship, lighthouses, paint, smartdog/);
  });

  it("--schema prints a game's JSON Schemas (the files of schemas/); a text game or no game is exit 2", async () => {
    const r = await runCli(['games', 'lighthouses', '--schema']);
    assert.equal(r.code, 0, r.stderr);
    const schemas = JSON.parse(r.stdout) as Record<string, { $id: string }>;
    assert.deepEqual(Object.keys(schemas), ['init-answer', 'init', 'result', 'turn-answer', 'turn']);
    assert.equal(schemas.turn!.$id, 'https://botarena.dev/schemas/lighthouses/turn.schema.json');
    const text = await runCli(['games', 'smartdog', '--schema']);
    assert.equal(text.code, 2);
    assert.match(text.stderr, /smartdog speaks text lines, not JSON: its lines and their grammar are in docs\/games\/smartdog\.md/);
    const none = await runCli(['games', '--schema']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--schema goes with a game's id/);
  });

  it('ends quietly when its reader stops early (`botarena games | head -1`)', async () => {
    const child = spawn(process.execPath, ['bin/botarena', 'games'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    // Read one chunk and close the pipe, as `head` does.
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = await once(child, 'close');
    assert.equal(stderr, '', 'no stack trace');
    assert.equal(code, 0);
  });

  it('loads neither the runner, the transports, zlib nor child_process to list the games (they load when a match runs)', async () => {
    const probe = `const before = new Set(process.moduleLoadList);
      const { cli } = require('./bin/load-cli.cjs').loadCli();
      process.stdout.write = () => true;
      cli.main(['node', 'botarena', 'games']).then(() => console.error(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m)))));`;
    const child = spawn(process.execPath, ['-e', probe], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    await once(child, 'close');
    const loaded: string[] = JSON.parse(stderr);
    // child_process (and with it net and dgram) is what commander requires as it loads: the bundle defers it.
    for (const heavy of ['NativeModule zlib', 'NativeModule crypto', 'NativeModule http', 'NativeModule readline', 'NativeModule child_process'])
      assert.ok(!loaded.includes(heavy), `${heavy} was loaded`);
  });
});

describe("the command's code cache (bin/load-cli.cjs)", () => {
  const { loadCli } = createRequire(import.meta.url)('../bin/load-cli.cjs') as {
    loadCli(bundle?: string): { cli: { main(argv?: string[]): unknown }; script: { createCachedData(): Buffer }; cacheRejected: boolean | null };
  };

  it('starts from the cache the build wrote (V8 takes it)', () => {
    // Asked in a process of its own: the test runner's flags (--import tsx) would make V8 refuse it. Its
    // environment is the build's (npm test builds first), NODE_OPTIONS included: V8 flags there are in both.
    const probe = "process.stdout.write(String(require('./bin/load-cli.cjs').loadCli().cacheRejected))";
    const child = spawnSync(process.execPath, ['-e', probe], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(child.stdout, 'false', `a cache was built and taken (null: none; true: refused): ${child.stderr}`);
  });

  it('says how to build when dist/ is missing, and exits 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-unbuilt-'));
    try {
      // The command as a checkout has it before `npm install`: bin/ and no dist/.
      cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
      const run = spawnSync(process.execPath, [join(dir, 'bin/botarena'), 'games'], { encoding: 'utf8' });
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stderr, 'botarena: dist/ is missing; run `npm install` (or `npm run build`) in the botarena folder first\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the bundle in strict mode, as the ES modules it was made from ran', () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-strict-'));
    try {
      // The bundle's own top level, with one more line at its end that says whether `this` is undefined there.
      const copy = join(dir, 'main.cjs');
      writeFileSync(
        copy,
        `${readFileSync(join(ROOT, 'dist/cli-bundle/main.cjs'), 'utf8')}\n;globalThis.__botarenaStrict = (function () { return this === undefined; })();`,
      );
      loadCli(copy);
      assert.equal((globalThis as { __botarenaStrict?: boolean }).__botarenaStrict, true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ignores a cache older than its bundle, which V8 would run instead of the new code when the lengths match', () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-cache-'));
    try {
      const bundle = join(dir, 'main.cjs');
      writeFileSync(bundle, "exports.main = () => 'old';");
      const first = loadCli(bundle);
      assert.equal(first.cli.main(), 'old');
      writeFileSync(`${bundle}.cache`, first.script.createCachedData());
      assert.equal(loadCli(bundle).cacheRejected, false, 'a fresh cache is used');
      // The bundle changes, same length, after its cache was written.
      writeFileSync(bundle, "exports.main = () => 'new';");
      const later = new Date(Date.now() + 60_000);
      utimesSync(bundle, later, later);
      const again = loadCli(bundle);
      assert.equal(again.cacheRejected, null, 'the stale cache is not given to V8');
      assert.equal(again.cli.main(), 'new');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('botarena replay', () => {
  it('records a replay that verifies, plays back, and fails at the tampered turn', async () => {
    const file = join(tmp, 'c4.json');
    const play = await runCli(['play', 'connect4', 'random', 'minimax', '--seed', '21', '--replay', file, '--json']);
    assert.equal(play.code, 0, play.stderr);
    const ok = await runCli(['replay', 'verify', file]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^ok: connect4 seed 21, \d+ steps reproduce exactly/);

    const show = await runCli(['replay', 'show', file]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /── turn 1 \(play\) random: \d/);
    assert.match(show.stdout, /wins/);

    // Change the column X played on turn 3: the state after turn 3 no longer matches.
    const replay = JSON.parse(readFileSync(file, 'utf8'));
    const step = replay.turns.find((t: { turn: number; phase: string }) => t.turn === 3 && t.phase === 'play');
    step.moves[0].action = (step.moves[0].action + 1) % 7;
    const tampered = join(tmp, 'tampered.json.gz');
    writeFileSync(tampered, gzipSync(JSON.stringify(replay)));
    const bad = await runCli(['replay', 'verify', tampered]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /does not reproduce: turn 3 /);
  });

  it('rejects a file that is not a replay with exit 2', async () => {
    const file = join(tmp, 'not-a-replay.json');
    writeFileSync(file, '{"hello":1}');
    const r = await runCli(['replay', 'verify', file]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not a Botarena replay: "format" is undefined/);
  });
});

describe('botarena play: what a new user runs into', () => {
  it('paint seats are labelled by their player ids in the text result', async () => {
    const r = await runCli(['play', 'paint', 'painter', 'random', '--seed', '3', '--set', 'width=4', '--set', 'height=3', '--set', 'ids=ann,bo']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^0 ann +painter/m);
    assert.match(r.stdout, /^1 bo +random/m);
  });

  it('a bot whose first answer times out gets a hint naming doctor; a bot that answers, none', async () => {
    // Its answers are held in Python's buffer until it exits (run without PYTHONUNBUFFERED, as users' are).
    const bot = 'stdio:env -u PYTHONUNBUFFERED python3 test/fixtures/doctor/ttt.py unflushed';
    const r = await runCli(['play', 'tictactoe', bot, 'random', '--seed', '1', '--init-timeout', '500', '--timeout', '500']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /turn 1: timeout: no answer within 500 ms/);
    assert.match(
      r.stderr,
      /^botarena: hint: ttt \(slot 0\): its first answer \(turn 1\) timed out: if it answers only when its input closes, it does not flush stdout; `botarena doctor tictactoe 'stdio:env -u PYTHONUNBUFFERED python3 test\/fixtures\/doctor\/ttt\.py unflushed'` checks why$/m,
    );
    const good = await runCli(['play', 'tictactoe', 'stdio:python3 test/fixtures/doctor/ttt.py good', 'random', '--seed', '1', '--json']);
    assert.equal(good.code, 0, good.stderr);
    assert.doesNotMatch(good.stderr, /hint/);
    // Silent at the hello, which the tic-tac-toe rules ignore, then answering every turn: nothing to hint at.
    const silent = await runCli([
      'play',
      'tictactoe',
      'stdio:node test/fixtures/bots/hello-modes.mjs silent',
      'random',
      '--seed',
      '1',
      '--init-timeout',
      '1000',
    ]);
    assert.equal(silent.code, 0, silent.stderr);
    assert.match(silent.stdout, /^Winner: hello-modes \(slot 0\)/m);
    assert.doesNotMatch(silent.stderr, /hint/);
  });

  it('a hub option the map overrides is warned about, and the match plays', async () => {
    const r = await runCli(['play', 'smartdog', 'random', '--set', 'map=training', '--set', 'options={"turnsLimit":5}', '--seed', '1', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: option turnsLimit=5 is overridden by the map's own options line \(turnsLimit=100\)/);
    assert.equal(JSON.parse(r.stdout).turns, 100);
  });

  it('a port in use is a clear usage error; play smartdog tcp gives up after --init-timeout', async () => {
    const { createServer } = await import('node:net');
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const port = String((busy.address() as { port: number }).port);
    try {
      const serve = await runCli(['smartdog', 'serve', '--port', port], { timeoutMs: 15_000 });
      assert.equal(serve.code, 2, serve.stderr);
      assert.match(serve.stderr, new RegExp(`port ${port} is in use on 127\\.0\\.0\\.1; choose another with --port`));
      assert.doesNotMatch(serve.stderr, /internal error|at /);
    } finally {
      busy.close();
    }
    const t0 = Date.now();
    const wait = await runCli(['play', 'smartdog', 'tcp', 'tcp', '--port', '0', '--init-timeout', '400'], { timeoutMs: 15_000 });
    assert.equal(wait.code, 2, wait.stderr);
    assert.match(wait.stderr, /only 0 of 2 bots joined on 127\.0\.0\.1:\d+ within 400 ms; nothing was played/);
    assert.ok(Date.now() - t0 < 10_000);
  });

  it('Tron at a 120×45 terminal shows the whole 20×12 grid and takes arrow keys', async () => {
    // It showed a 21×11 window around the head, and an arrow key was '" is not a direction'.
    const t = await runCli(['play', 'tron', 'human', 'stupid', '--seed', '2', '--set', 'width=20', '--set', 'height=12', '--json'], {
      input: '\x1b[A\n\x1b[A\n\x1b[A\n',
      env: { COLUMNS: '120', LINES: '45' },
    });
    assert.equal(t.code, 0, t.stderr);
    const frame = t.stderr.split('turn 1\n')[1]!.split('\nyou are')[0]!.split('\n');
    assert.deepEqual(
      frame.map((r) => r.length),
      Array(14).fill(22),
      frame.join('\n'),
    );
    assert.doesNotMatch(t.stderr, /is not a direction/);
    const result = JSON.parse(t.stdout) as { players: { fault: unknown }[] };
    assert.equal(result.players[0]!.fault, null);
  });

  it('the Tron prompt shows walls on all four sides; Battleship shows both grids and the ship lengths', async () => {
    const t = await runCli(['play', 'tron', 'human', 'stupid', '--seed', '2', '--set', 'width=8', '--set', 'height=6', '--json'], { input: 'up\nup\n' });
    assert.equal(t.code, 0, t.stderr);
    const frame = t.stderr.split('turn 1\n')[1]!.split('\nyou are')[0]!.split('\n');
    assert.equal(frame.length, 8, 'the whole 8×6 grid and its walls');
    assert.ok(
      frame.every((row) => row.startsWith('#') && row.endsWith('#')),
      'walls beyond both sides of the 8 columns',
    );
    assert.ok(frame.some((row) => /^#+\.+/.test(row)) && frame.some((row) => /^#+$/.test(row)), 'rows beyond the grid are all wall');
    const cells = frame.join('').replace(/#/g, '').length;
    assert.ok(cells <= 48, `at most the 8×6 grid shows as cells, got ${cells}`);
    const b = await runCli(['play', 'battleship', 'human', 'random', '--seed', '2', '--json'], { input: '\n0,0\n' });
    assert.match(b.stderr, /place ships of lengths 5, 4, 3, 3, 2/);
    assert.match(b.stderr, /your fleet +your shots/);
    assert.match(b.stderr, /^0 [.#oX]{10} +0 o\.{9}$/m, 'after one shot, the miss at 0,0 shows on the shots grid');
    assert.match(b.stderr, /^\d [.#]*[oX][.#oX]* +\d/m, "the opponent's shot shows on the fleet grid");
  });
});

describe('botarena replay: results, turns, refeed', () => {
  const file = join(tmp, 'c4-result.json');

  it('verify compares the whole result: an edited winner, draw, reason or fault is a difference', async () => {
    const play = await runCli(['play', 'connect4', 'random', 'minimax', '--seed', '5', '--replay', file, '--json']);
    assert.equal(play.code, 0, play.stderr);
    const original = JSON.parse(readFileSync(file, 'utf8'));
    const edits: [string, (r: { result: Record<string, unknown> }) => void][] = [
      ['winner', (r) => (r.result.winner = r.result.winner === 0 ? 1 : 0)],
      ['draw', (r) => (r.result.draw = !r.result.draw)],
      ['reason', (r) => (r.result.reason = 'random wins, really')],
      ['faults', (r) => (r.result.faults = [{ turn: 1, kind: 'timeout', detail: 'made up' }, null])],
    ];
    for (const [key, edit] of edits) {
      const copy = structuredClone(original);
      edit(copy);
      const path = join(tmp, `edited-${key}.json`);
      writeFileSync(path, JSON.stringify(copy));
      const v = await runCli(['replay', 'verify', path]);
      assert.equal(v.code, 1, `${key}: ${v.stdout}${v.stderr}`);
      assert.match(v.stderr, new RegExp(`the result differs: recorded ${key} `));
    }
  });

  it('show --turn N shows the board before turn N, its moves and the board after; past the end is exit 2', async () => {
    const show = await runCli(['replay', 'show', file, '--turn', '3']);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /── before turn 3\n[\s\S]*── turn 3 \(play\) /);
    assert.doesNotMatch(show.stdout, /── turn [124] /);
    const late = await runCli(['replay', 'show', file, '--turn', '999']);
    assert.equal(late.code, 2, late.stderr);
    assert.match(late.stderr, /--turn 999: the match has turns 0\.\.\d+/);
  });

  it('show --from N --to M: the board before turn N, then each turn to M with what each bot did; bad ranges are exit 2', async () => {
    const show = await runCli(['replay', 'show', file, '--from', '2', '--to', '4']);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /── before turn 2\n[\s\S]*── turn 2 \(play\) [\s\S]*── turn 3 \(play\) [\s\S]*── turn 4 \(play\) /);
    assert.doesNotMatch(show.stdout, /── turn [15] /);
    assert.match(show.stdout, /── turn 2 \(play\) (random|minimax): \d in [\d.]+ ms\n/, 'each move names its bot, its action and its time');
    for (const [args, message] of [
      [['--from', '4', '--to', '2'], /--to 2 is before --from 4/],
      [['--turn', '2', '--to', '3'], /--turn N is --from N --to N: give one or the other/],
      [['--from', '999'], /--from 999: the match has turns 0\.\.\d+/],
    ] as const) {
      const r = await runCli(['replay', 'show', file, ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    }
  });

  it('refeed: a new name in the greeting is no difference; a bot it cannot reach is a failure (exit 3), not a difference', async () => {
    const lh = join(tmp, 'lh.json');
    const bot = (mode: string) => `stdio:node test/fixtures/lighthouses/fickle.mjs ${mode}`;
    const play = await runCli(['play', 'lighthouses', bot('v1'), 'random', '--seed', '4', '--set', 'rounds=3', '--replay', lh, '--json']);
    assert.equal(play.code, 0, play.stderr);
    const renamed = await runCli(['replay', 'refeed', lh, '--slot', '0', bot('v2')]);
    assert.equal(renamed.code, 0, renamed.stdout + renamed.stderr);
    assert.match(renamed.stdout, /every answer is the recorded one/);
    const gone = await runCli(['replay', 'refeed', lh, '--slot', '0', 'http://127.0.0.1:1/']);
    assert.equal(gone.code, 3, gone.stdout + gone.stderr);
    assert.match(gone.stderr, /refeed failed: turn 0 \(init\): could not get an answer from http:\/\/127\.0\.0\.1:1\/: /);
  });

  it('refeed: a mistyped interpreter could not be started (exit 3, one line); one answer that differs is "1 answer differs"', async () => {
    // It used to exit 1 with a "crash" difference for every message, and say "1 answers differ".
    const lh = join(tmp, 'lh-refeed.json');
    const bot = (mode: string) => `stdio:node test/fixtures/lighthouses/fickle.mjs ${mode}`;
    assert.equal((await runCli(['play', 'lighthouses', bot('v1'), 'random', '--seed', '4', '--set', 'rounds=3', '--replay', lh, '--json'])).code, 0);
    const typo = await runCli(['replay', 'refeed', lh, '--slot', '0', 'stdio:nodee-not-here test/fixtures/lighthouses/fickle.mjs v1']);
    assert.equal(typo.code, 3, typo.stdout + typo.stderr);
    assert.equal(typo.stdout, '');
    assert.match(
      typo.stderr,
      /^botarena: refeed failed: turn 0 \(init\): stdio:nodee-not-here .* could not be started: process exited with code 127 \(command not found\?\)[^\n]*nodee-not-here[^\n]*\n$/,
    );
    const crash = await runCli(['replay', 'refeed', lh, '--slot', '0', bot('crash')]);
    assert.equal(crash.code, 1, crash.stdout + crash.stderr);
    assert.match(crash.stdout, /^slot 0 \(fickle\): 4 messages sent again to stdio:.*; 1 answer differs:\n/);
  });

  it('refeed: an exec: bot that fails only the hello the rules ignore was started: its answers are compared (not exit 3)', async () => {
    // Only a program that never ran (not spawned, exit 126/127) "could not be started"; this one exits 1 at the
    // hello, as the original Go tic-tac-toe bot panics at init, and then plays (issue 32, second review, item 2).
    const ttt = join(tmp, 'ttt-refeed.json');
    assert.equal(
      (await runCli(['play', 'tictactoe', 'stdio:python3 test/fixtures/doctor/ttt.py good', 'random', '--seed', '1', '--replay', ttt, '--json'])).code,
      0,
    );
    const panic = await runCli(['replay', 'refeed', ttt, '--slot', '0', 'exec:python3 test/fixtures/doctor/ttt-exec-panic.py']);
    assert.equal(panic.code, 1, panic.stdout + panic.stderr);
    assert.doesNotMatch(panic.stderr, /could not be started/);
    assert.match(panic.stdout, /; 1 answer differs:\n/);
    assert.match(panic.stdout, /^0 +init +null +crash: process exited with code 1; last stderr: "panic: runtime error: index out of range"$/m);
  });

  it('a replay that cannot be written after the match still prints the result and says where it could not go', async () => {
    // The folder is there when the match starts (checked) and removed while the bot thinks.
    const folder = mkdtempSync(join(tmp, 'vanishing-'));
    const pidfile = join(tmp, 'vanishing.pid');
    const run = runCli([
      'play',
      'tictactoe',
      `stdio:node test/fixtures/runner/sleepy-bot.mjs 1500 ${pidfile}`,
      'random',
      '--seed',
      '1',
      '--replay',
      join(folder, 'm.json'),
      '--json',
    ]);
    for (let i = 0; i < 200 && !existsSync(pidfile); i++) await new Promise((r) => setTimeout(r, 50));
    rmSync(folder, { recursive: true });
    const r = await run;
    assert.equal(r.code, 73, r.stderr);
    assert.equal(JSON.parse(r.stdout).game, 'tictactoe', 'the result is printed');
    assert.match(r.stderr, /the replay could not be written to .*vanishing-.*m\.json: ENOENT/);
    assert.doesNotMatch(r.stderr, /internal error/);
  });
});
