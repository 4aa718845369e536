import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { playBuiltins } from '../../core/self-play.js';
import { playScript } from '../botsarena/driver.kit.js';
import type { AnyGame } from '../../core/game.js';
import { tictactoe as typed } from './index.js';

const tictactoe: AnyGame = typed;

const INIT = { name: 'x' };
const play = (cell: unknown) => ({ play: cell });

describe('tic-tac-toe wire', () => {
  it('replays the docs transcript (9-move draw) message by message, byte for byte', () => {
    const lines = readFileSync(new URL('./docs-transcript.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'));
    const sentInDocs = lines.filter((l) => l.includes('"action"'));
    const answers = lines.filter((l) => !l.includes('"action"')).map((l) => JSON.parse(l));
    const m = playScript(tictactoe, answers, { matchId: '1126' });
    assert.deepEqual(m.sent, sentInDocs);
    assert.deepEqual(m.outcome.ranks, [1, 1]);
    assert.equal(m.outcome.reason, 'draw: the board is full');
  });

  it('sends init with an empty-string board and no "you"; play-turn with "you" and every key', () => {
    const m = playScript(tictactoe, [INIT, INIT, play('9-9')]);
    assert.equal(m.sent[0], '{"game-id":"1","action":"init","game":"tictactoe","players":2,"board":"","player-index":0}');
    assert.equal(m.sent[1], '{"game-id":"1","action":"init","game":"tictactoe","players":2,"board":"","player-index":1}');
    assert.match(
      m.sent[2]!,
      /^\{"game-id":"1","action":"play-turn","game":"tictactoe","players":2,"board":\{"0-0":"","0-1":"",.*"2-2":""\},"you":"X","player-index":0\}$/,
    );
  });

  it('ignores init answers and init failures', () => {
    const m = playScript(tictactoe, [
      { fault: { kind: 'timeout', detail: 'no answer' } },
      'garbage',
      play('0-0'),
      play('1-0'),
      play('0-1'),
      play('1-1'),
      play('0-2'),
    ]);
    assert.deepEqual(m.outcome.ranks, [1, 2]);
    assert.equal(m.outcome.reason, 'X wins: three in a row 0-0, 0-1, 0-2');
  });
});

describe('tic-tac-toe rules', () => {
  it('a line completed on move 9 wins (checked before the full-board draw)', () => {
    // X: 0-0 0-2 1-1 2-1 2-2 (diagonal on move 9); O: 0-1 1-0 1-2 2-0
    const m = playScript(tictactoe, [INIT, INIT, ...['0-0', '0-1', '0-2', '1-0', '1-1', '1-2', '2-1', '2-0', '2-2'].map(play)]);
    assert.deepEqual(m.outcome.ranks, [1, 2]);
    assert.equal(m.outcome.reason, 'X wins: three in a row 0-0, 1-1, 2-2');
    assert.equal(m.engine.lastTurn(), 9);
  });

  it('O wins a column', () => {
    const m = playScript(tictactoe, [INIT, INIT, ...['0-0', '0-1', '2-2', '1-1', '1-0', '2-1'].map(play)]);
    assert.deepEqual(m.outcome.ranks, [2, 1]);
    assert.equal(m.outcome.reason, 'O wins: three in a row 0-1, 1-1, 2-1');
  });

  const forfeits: [string, unknown, RegExp][] = [
    ['an occupied cell', play('0-0'), /illegal-move: cell 0-0 is taken by X/],
    ['a number instead of a key', play(12), /bad-answer: "play" must be a cell key "row-col" from "0-0" to "2-2", got 12/],
    ['x-y with spaces', play('1 - 1'), /bad-answer: .*got "1 - 1"/],
    ['an off-board key', play('3-0'), /bad-answer: .*got "3-0"/],
    ['no play field', { move: '1-1' }, /bad-answer: the answer has no "play" field/],
    ['an array', ['1-1'], /bad-answer: expected a JSON object/],
    ['a timeout', { fault: { kind: 'timeout', detail: 'no answer within 10000 ms' } }, /timeout: no answer within 10000 ms/],
  ];
  for (const [what, answer, reason] of forfeits) {
    it(`${what} on O's first move forfeits: X wins at once`, () => {
      const m = playScript(tictactoe, [INIT, INIT, play('0-0'), answer]);
      assert.deepEqual(m.outcome.ranks, [1, 2]);
      assert.match(m.outcome.reason, /^X wins: O forfeited on turn 2 \(/);
      assert.match(m.outcome.reason, reason);
    });
  }

  it('extra keys in the answer are ignored', () => {
    const m = playScript(tictactoe, [
      INIT,
      INIT,
      { play: '0-0', comment: 'hi', name: 'x' },
      { ...play('1-0'), error: 'none' },
      play('0-1'),
      play('1-1'),
      play('0-2'),
    ]);
    assert.deepEqual(m.outcome.ranks, [1, 2]);
  });
});

let lastRecords = '';

/** Plays a full game between two built-in bots (a bad move fails the test); returns the ranks. */
function duel(x: string, o: string, seed: number): number[] {
  const engine = playBuiltins(tictactoe, [x, o], seed, { onFault: (slot, detail) => assert.fail(`${[x, o][slot]} made a bad move: ${detail}`) });
  lastRecords = JSON.stringify(engine.records);
  return engine.outcome().ranks;
}

describe('tic-tac-toe bots', () => {
  it('minimax never loses to random in either seat, and wins most games', () => {
    let wins = 0;
    for (let seed = 0; seed < 200; seed++) {
      const asX = duel('minimax', 'random', seed);
      const asO = duel('random', 'minimax', seed);
      assert.equal(asX[0], 1, `minimax lost as X with seed ${seed}`);
      assert.equal(asO[1], 1, `minimax lost as O with seed ${seed}`);
      wins += Number(asX[1] === 2) + Number(asO[0] === 2);
    }
    assert.ok(wins > 300, `minimax won only ${wins} of 400`);
  });

  it('minimax draws against itself; random plays only legal moves', () => {
    for (let seed = 0; seed < 20; seed++) assert.deepEqual(duel('minimax', 'minimax', seed), [1, 1]);
    for (let seed = 0; seed < 200; seed++) duel('random', 'random', seed);
  });

  it('the same seed gives the same game, another seed another game', () => {
    const game = (seed: number) => (duel('random', 'random', seed), lastRecords);
    assert.equal(game(9), game(9));
    assert.notEqual(game(9), game(10));
  });
});
