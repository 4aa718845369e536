import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import type { TranscriptEntry } from '../src/core/replay.js';
import { verifyReplay } from '../src/core/replay.js';
import { getGame } from '../src/games/index.js';
import type { LighthousesState } from '../src/games/lighthouses/rules.js';
import { livePidsWith } from './processes.js';
import { ROOT, runCli } from './run-cli.js';

const sent = (t: TranscriptEntry[]) => t.filter((e) => e.dir === 'send').map((e) => e.text);

describe('a lighthouses match between real bots', () => {
  it('a late, a garbage and a crashing bot each lose only their own commands; the match plays every round', async () => {
    const marker = `lh-${process.pid}`;
    const fickle = (mode: string) => ({ bot: `stdio:node test/fixtures/lighthouses/fickle.mjs ${mode} ${marker}`, name: mode });
    const { replay, state } = await runMatch({
      game: 'lighthouses',
      seed: 5,
      config: { map: 'cross', rounds: 12 },
      timeouts: { initMs: 3000, turnMs: 1000 },
      transcripts: true,
      seats: [{ bot: `stdio:python3 examples/lighthouses-python/bot.py ${marker}`, name: 'python' }, fickle('late'), fickle('garbage'), fickle('crash')],
    });
    const plays = replay.turns.filter((t) => t.phase === 'play');
    assert.equal(plays.length, 12 * 4, 'every seat is asked every round');
    const faults = (slot: number) => plays.flatMap((t) => t.moves.filter((m) => m.slot === slot && m.fault).map((m) => `${t.turn}:${m.fault!.kind}`));
    assert.deepEqual(faults(0), []);
    assert.deepEqual(faults(1), ['2:timeout'], 'the late answer to round 2 is never taken for round 3');
    assert.deepEqual(faults(2), ['1:not-json']);
    assert.deepEqual(
      faults(3),
      Array.from({ length: 10 }, (_, i) => `${i + 3}:crash`),
    );
    assert.match(replay.result.faults[3]!.detail, /exited with code 1.*boom: out of ideas/);

    const [python, late, garbage] = replay.transcripts!;
    assert.ok(sent(late!).includes('{"success":false,"message":"Timeout"}'));
    assert.ok(late!.some((e) => e.dir === 'note' && /dropped a late answer .*"x":9/.test(e.text)));
    assert.equal(sent(late!).filter((t) => t === '{"success":true}').length, 11, 'it caught up: every other command succeeded');
    assert.ok(sent(garbage!).includes('{"success":false,"message":"Invalid JSON"}'));
    assert.ok(
      python!.some((e) => e.dir === 'stderr' && e.text.includes('[python-example]')),
      "the bot's stderr is in its log",
    );
    assert.deepEqual(
      (state as LighthousesState).players.map((p) => p.name),
      ['python-example', 'late', 'Player 2', 'crash'],
      'a greeting without a name keeps the default',
    );
    assert.equal(replay.result.faults[3]!.turn, 3, 'the crash is reported where it happened, not at the last ask of the dead process');
    verifyReplay(getGame('lighthouses'), replay);
    // A replay written before (it reported each seat's latest fault: the crash at round 12) still verifies.
    const latest = plays[plays.length - 1]!.moves.find((m) => m.slot === 3)!.fault!;
    verifyReplay(getGame('lighthouses'), {
      ...replay,
      result: { ...replay.result, faults: replay.result.faults.map((f, i) => (i === 3 ? { turn: 12, ...latest } : f)) },
    });
    assert.deepEqual(livePidsWith(marker), [], 'no bot process is left');
  });

  it("a Python bot's raw answers get the reference's results: 5.0 is not an integer, true is 1, values quoted as Python quotes them", async () => {
    // Each expected result is what the reference's BotPlayer.turn (marcan/lighthouses_aicontest, engine/botplayer.py)
    // sends for the line: it reads it with json.loads, checks `isinstance(move["energy"], int)` and quotes an
    // unknown command with %r. A starts at (3,4) on TRIO, L0 is at (3,2).
    const dir = mkdtempSync(join(tmpdir(), 'lh-raw-'));
    const script = join(dir, 'lines.txt');
    const lines = [
      '{"command": "attack", "energy": 5.0}',
      '{"command": "move", "x": false, "y": true}',
      '{"command": "move", "x": 0, "y": -1}',
      '{"command": "move", "x": 0, "y": -1}',
      '{"command": "move", "x": 0, "y": -1}',
      '{"command": "attack", "energy": true}',
      '{"command": null}',
      '{"command": ["pass"]}',
      '{"command": {"a": 1}}',
      '{"command": "it\'s"}',
    ];
    writeFileSync(script, lines.join('\n') + '\n');
    const none = join(dir, 'none.txt');
    writeFileSync(none, '');
    const { replay, state } = await runMatch({
      game: 'lighthouses',
      seed: 1,
      config: { map: ['#######', '#!   !#', '#  A  #', '#     #', '#  !  #', '#B    #', '#######'].join('\n'), rounds: lines.length },
      timeouts: { initMs: 5000, turnMs: 5000 },
      transcripts: true,
      seats: [
        { bot: `stdio:python3 test/fixtures/lighthouses/scripted.py ${script}`, name: 'scripted' },
        { bot: `stdio:python3 test/fixtures/lighthouses/scripted.py ${none}`, name: 'passer' },
      ],
    });
    assert.deepEqual(
      sent(replay.transcripts![0]!).filter((t) => t.includes('"success"')),
      [
        '{"success":false,"message":"Attack command requires integer energy"}',
        '{"success":true}',
        '{"success":true}',
        '{"success":true}',
        '{"success":true}',
        '{"success":true}',
        '{"success":false,"message":"Invalid command None"}',
        `{"success":false,"message":"Invalid command ['pass']"}`,
        `{"success":false,"message":"Invalid command {'a': 1}"}`,
        `{"success":false,"message":"Invalid command \\"it's\\""}`,
      ],
    );
    // (false, true) moved A up to (3,5); three steps down brought it onto L0, and the attack of true (1)
    // took L0 for that round: 2 points, the only ones of the match (an attack of 0 would have been a pass).
    const s = state as LighthousesState;
    assert.deepEqual([s.players[0]!.x, s.players[0]!.y], [3, 2]);
    assert.deepEqual(
      s.players.map((p) => p.score),
      [2, 0],
    );
  });

  it('the CLI plays a map from a file, and a bad map file is a usage error naming the problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lh-'));
    const good = join(dir, 'ring.txt');
    writeFileSync(good, ['#########', '#!  A  !#', '#  ###  #', '#  !B   #', '#########', ''].join('\n'));
    const ok = await runCli(['play', 'lighthouses', 'planner', 'random', '--set', `map=${good}`, '--set', 'rounds=20', '--seed', '3', '--json']);
    assert.equal(ok.code, 0, ok.stderr);
    const result = JSON.parse(ok.stdout) as { turns: number; players: { score: number }[] };
    assert.equal(result.turns, 20);
    const bad = join(dir, 'split.txt');
    writeFileSync(bad, ['#########', '#!  A#!##', '#B  #####', '#########'].join('\n'));
    const err = await runCli(['play', 'lighthouses', 'planner', 'random', '--set', `map=${bad}`]);
    assert.equal(err.code, 2);
    assert.match(err.stderr, /bad config for lighthouses: bad map: the island is split: cell x=6, y=2 \(line 2, column 7\) cannot be reached from x=1, y=1/);
    const unknown = await runCli(['play', 'lighthouses', 'planner', 'random', '--set', 'map=nowhere.txt']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--set map=nowhere\.txt: no such file/);
    const typo = await runCli(['play', 'lighthouses', 'planner', 'random', '--set', 'map=bayy']);
    assert.match(typo.stderr, /unknown map "bayy": the shipped maps are islet, bay, cross, continent; or give the path of a map file/);
  });

  it('a bot that exits on round 3 of 12 is reported at round 3, with 2 answers and its faults counted apart (--json and the table)', async () => {
    const args = [
      'play',
      'lighthouses',
      'stdio:node test/fixtures/lighthouses/fickle.mjs crash',
      'random',
      '--set',
      'map=cross',
      '--set',
      'rounds=12',
      '--seed',
      '5',
    ];
    const json = await runCli([...args, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const fault = (JSON.parse(json.stdout) as { players: { fault: { turn: number; kind: string; detail: string } }[] }).players[0]!.fault;
    // Before: turn 12, "process exited with code 1 before this message" (a later ask of the dead process).
    assert.deepEqual({ turn: fault.turn, kind: fault.kind }, { turn: 3, kind: 'crash' });
    assert.match(fault.detail, /before answering/);
    const text = await runCli(args);
    assert.equal(text.code, 0, text.stderr);
    const row = text.stdout.split('\n').find((l) => l.startsWith('0 A'))!;
    // answers, median, worst, CPU median and worst, then the fault: 2 answers (rounds 1 and 2), not 12.
    assert.match(row, /\s2\s+\S+\s+\S+\s+\S+\s+\S+\s+turn 3: crash: .*before answering.* \(10 turns faulted\)$/);
  });

  it('an HTTP bot whose server goes away after round 3 of 12 is reported at round 4, where its connection was first refused', async () => {
    const bot = spawn(process.execPath, ['test/fixtures/lighthouses/http-gone.mjs', '3'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [port] = ((await once(bot.stdout!, 'data')) as [Buffer])[0].toString().trim().split('\n');
      const dir = mkdtempSync(join(tmpdir(), 'botarena-lh-gone-'));
      const file = join(dir, 'gone.json');
      const r = await runCli([
        'play',
        'lighthouses',
        `http://127.0.0.1:${port}/`,
        'random',
        '--set',
        'map=cross',
        '--set',
        'rounds=12',
        '--seed',
        '5',
        '--json',
        '--replay',
        file,
      ]);
      assert.equal(r.code, 0, r.stderr);
      const fault = (JSON.parse(r.stdout) as { players: { fault: { turn: number; kind: string; detail: string } }[] }).players[0]!.fault;
      // Before: turn 12, the last of the refused requests that followed.
      assert.deepEqual(fault, { turn: 4, kind: 'transport', detail: `connection refused at http://127.0.0.1:${port}/` });
      const verify = await runCli(['replay', 'verify', file]);
      assert.equal(verify.code, 0, verify.stderr);
      // A replay written before (its fault the latest refusal, turn 12) still verifies.
      const replay = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8')) as Parameters<typeof verifyReplay>[1];
      assert.deepEqual(
        replay.turns.flatMap((t) => t.moves.filter((m) => m.slot === 0 && m.fault).map(() => t.turn)),
        [4, 5, 6, 7, 8, 9, 10, 11, 12],
        'asked again after it went, refused each time',
      );
      replay.result.faults[0] = { ...replay.result.faults[0]!, turn: 12 };
      verifyReplay(getGame('lighthouses'), replay);
    } finally {
      bot.kill();
    }
  });
});
