import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'botarena-pos-'));
const BOT = 'stdio:python3 test/fixtures/cli/first-empty.py';

describe('botarena replay position, fork and refeed', () => {
  const original = join(dir, 'match.json');

  it('position prints the board before a turn, and a match started from it plays like the original from there', async () => {
    const play = await runCli(['play', 'tictactoe', BOT, 'random', '--seed', '11', '--replay', original, '--json']);
    assert.equal(play.code, 0, play.stderr);
    const pos = await runCli(['replay', 'position', original, '--turn', '3']);
    assert.equal(pos.code, 0, pos.stderr);
    assert.match(pos.stdout, /^board=[XO.]{3}\/[XO.]{3}\/[XO.]{3}\n$/);
    assert.match(pos.stderr, /start there: botarena play tictactoe <bots…> --set 'board=…'/);
    const board = pos.stdout.trim().slice('board='.length);
    assert.equal(board.replace(/[^XO]/g, '').length, 2, 'two moves were played before turn 3');
    const fromBoard = await runCli(['play', 'tictactoe', BOT, 'random', '--seed', '11', '--set', `board=${board}`, '--json']);
    const a = JSON.parse(play.stdout);
    const b = JSON.parse(fromBoard.stdout);
    assert.deepEqual([b.winner, b.turns], [a.winner, a.turns], 'the same bots from the same position end the same way');
    const late = await runCli(['replay', 'position', original, '--turn', '40']);
    assert.equal(late.code, 2);
    assert.match(late.stderr, /the match never reached turn 40: its play turns are 1\.\.\d/);
  });

  it('fork plays on from turn N with other bots; the new replay says where it came from and verifies', async () => {
    const forked = join(dir, 'fork.json');
    const r = await runCli(['replay', 'fork', original, '--turn', '3', 'minimax', 'minimax', '--replay', forked, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const replay = JSON.parse(readFileSync(forked, 'utf8'));
    assert.deepEqual({ ...replay.forkedFrom, fingerprint: 'x' }, { matchId: '11', seed: 11, turn: 3, fingerprint: 'x' });
    assert.equal(replay.turns.find((t: { phase: string }) => t.phase === 'play').turn, 3, 'turns go on from 3');
    const v = await runCli(['replay', 'verify', forked]);
    assert.equal(v.code, 0, v.stderr);
    const same = await runCli(['replay', 'fork', original, '--turn', '3', '--same-bots', '--json']);
    assert.equal(JSON.parse(same.stdout).players[0].bot, BOT, 'the same seats by default (a command seat with --same-bots)');
  });

  it('refeed finds no difference for the same bot, and names the turn a changed bot answers otherwise', async () => {
    const same = await runCli(['replay', 'refeed', original, '--slot', '0', BOT]);
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /^slot 0 \(first-empty\): \d+ messages sent again to .*; every answer is the recorded one\n$/);
    const changed = await runCli(['replay', 'refeed', original, '--slot', '0', `${BOT} 2`]);
    assert.equal(changed.code, 1, changed.stderr);
    const rows = changed.stdout.split('\n').filter((l) => /^\d+ +play/.test(l));
    assert.equal(rows.length, 1, changed.stdout);
    assert.match(rows[0]!, /^3 +play +"0-[0-2]" +"2-2"/, 'its second move (turn 3) is the last empty cell now');
  });

  it('prints JSON positions on one line, and --out writes the file keys with the flags that use them', async () => {
    const lh = join(dir, 'lh.json');
    assert.equal(
      (await runCli(['play', 'lighthouses', 'planner', 'random', '--seed', '4', '--set', 'rounds=12', '--set', 'map=islet', '--replay', lh])).code,
      0,
    );
    const pos = await runCli(['replay', 'position', lh, '--turn', '6']);
    assert.equal(pos.code, 0, pos.stderr);
    assert.deepEqual(
      pos.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('=')[0]),
      ['map', 'rounds', 'position'],
    );
    assert.equal(
      JSON.parse(
        pos.stdout
          .split('\n')
          .find((l) => l.startsWith('position='))!
          .slice(9),
      ).round,
      6,
    );
    const out = join(dir, 'pos');
    const files = await runCli(['replay', 'position', lh, '--turn', '6', '--out', out]);
    assert.equal(files.stdout.trim(), `botarena play lighthouses <bots…> --set 'map=islet' --set 'rounds=12' --set position=${join(out, 'position.txt')}`);
    const again = await runCli([
      'play',
      'lighthouses',
      'planner',
      'random',
      '--seed',
      '4',
      '--set',
      'map=islet',
      '--set',
      'rounds=12',
      '--set',
      `position=${join(out, 'position.txt')}`,
      '--json',
    ]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).turns, 12);
  });
});
