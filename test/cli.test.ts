import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    assert.deepEqual(Object.keys(j), ['game', 'seed', 'turns', 'winner', 'draw', 'players', 'durationMs']);
    assert.equal(j.game, 'connect4');
    assert.equal(j.seed, 11);
    assert.ok(j.turns >= 7 && j.turns <= 42);
    assert.equal(j.winner, 1);
    assert.equal(j.draw, false);
    assert.deepEqual(Object.keys(j.players[0]), ['slot', 'name', 'bot', 'rank', 'score', 'fault']);
    assert.deepEqual(j.players.map((p: { name: string; bot: string; rank: number; fault: unknown }) => [p.name, p.bot, p.rank, p.fault]), [
      ['random', 'random', 2, null],
      ['minimax', 'minimax', 1, null],
    ]);
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

  it('--log prints every message sent and received per bot, with timing', async () => {
    const r = await runCli(['play', 'tictactoe', 'stdio:python3 test/fixtures/cli/first-empty.py', 'random', '--seed', '5', '--log']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /── first-empty \(slot 0\)/);
    assert.match(r.stdout, /→ \{"game-id":"5","action":"init","game":"tictactoe","players":2,"board":"","player-index":0\}/);
    assert.match(r.stdout, /← \{"play": "0-0"\}/); // Python's json.dumps spacing, passed through verbatim
    assert.match(r.stdout, /! thinking about turn/); // the bot's stderr is in its log
    assert.match(r.stdout, /── random \(slot 1\)/);
  });

  it('--watch prints the board after every turn', async () => {
    const r = await runCli(['play', 'tictactoe', 'minimax', 'minimax', '--seed', '2', '--watch']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((r.stdout.match(/── turn \d+ \(play\)/g) ?? []).length, 9);
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
    const p = await runCli(['play', 'paint', 'human', 'random', '--seed', '2', '--set', 'board=10x10', '--set', 'turns=2', '--json'], { input: 'walk e\nshoot s\n' });
    assert.equal(p.code, 0, p.stderr);
    assert.equal(JSON.parse(p.stdout).players[0].fault, null, 'the ready handshake is answered for the person');
  });

  it('Ctrl-C stops the match and every bot, and exits 130', async () => {
    const child = spawn(process.execPath, ['bin/botarena', 'play', 'connect4', 'stdio:node test/fixtures/runner/sleepy-bot.mjs 60000 ' + join(tmp, 'sigint.pid') + ' ignore-term', 'random'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
      [['play', 'tictactoe', 'random', './bot.py'], /to run a program, write stdio:\.\/bot\.py or exec:\.\/bot\.py/],
      [['play', 'tictactoe', 'random', 'random', '--set', 'size=4'], /unknown config key "size" for tictactoe/],
      [['play', 'tictactoe', 'random', 'random', '--seed', 'abc'], /--seed must be a whole number/],
      [['play', 'tictactoe', 'random', 'random', '--timeout', '0'], /--timeout must be at least 1/],
      [['play', 'tictactoe', 'random', 'random', '--name', '5=x'], /the slot must be 0..1/],
      [['replay', 'verify', join(tmp, 'missing.json')], /cannot read replay .*missing\.json: ENOENT/],
      [['frobnicate'], /unknown command/],
      [[], /Usage: botarena/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args);
      assert.equal(r.code, 2, `${args.join(' ')} → ${r.code}\n${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
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
    assert.deepEqual(j.map((g: { id: string }) => g.id), ['tictactoe', 'connect4', 'tron', 'battleship', 'lighthouses', 'paint', 'smartdog']);
    assert.match(r.stdout, /map\s+bay\s+a shipped map \(islet, bay, cross, continent\) \(or a FILE path\)/);
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
