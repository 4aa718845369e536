import assert from 'node:assert/strict';
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
import { runCli } from './run-cli.js';

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
    assert.deepEqual(faults(3), Array.from({ length: 10 }, (_, i) => `${i + 3}:crash`));
    assert.match(replay.result.faults[3]!.detail, /exited with code 1.*boom: out of ideas/);

    const [python, late, garbage] = replay.transcripts!;
    assert.ok(sent(late!).includes('{"success":false,"message":"Timeout"}'));
    assert.ok(late!.some((e) => e.dir === 'note' && /dropped a late answer .*"x":9/.test(e.text)));
    assert.equal(sent(late!).filter((t) => t === '{"success":true}').length, 11, 'it caught up: every other command succeeded');
    assert.ok(sent(garbage!).includes('{"success":false,"message":"Invalid JSON"}'));
    assert.ok(python!.some((e) => e.dir === 'stderr' && e.text.includes('[python-example]')), "the bot's stderr is in its log");
    assert.deepEqual((state as LighthousesState).players.map((p) => p.name), ['python-example', 'late', 'Player 2', 'crash'], 'a greeting without a name keeps the default');
    verifyReplay(getGame('lighthouses'), replay);
    assert.deepEqual(livePidsWith(marker), [], 'no bot process is left');
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
});
