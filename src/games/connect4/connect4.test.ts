import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { playBuiltins } from '../../core/self-play.js';
import { playScript } from '../botsarena/driver.kit.js';
import type { AnyGame } from '../../core/game.js';
import { connect4 as typed } from './index.js';

const connect4: AnyGame = typed;

const INIT = { name: 'x' };
const cols = (...c: unknown[]) => c.map((play) => ({ play }));

describe('Connect Four wire', () => {
  it("sends the original fields in the original order, with the opponent's name", () => {
    const m = playScript(connect4, [INIT, INIT, ...cols(3, 3)].slice(0, 4).concat(cols('x')), { matchId: '77', names: ['alpha', 'beta'] });
    assert.equal(m.sent[0], '{"game-id":"77","action":"init","game":"connectfour","players":2,"board":"","player-index":0}');
    assert.equal(m.sent[1], '{"game-id":"77","action":"init","game":"connectfour","players":2,"board":"","player-index":1}');
    const empty = JSON.stringify(Array.from({ length: 6 }, () => Array(7).fill('')));
    assert.equal(
      m.sent[2],
      `{"game-id":"77","action":"play-turn","game":"connectfour","players":2,"opponent":"beta","you":"X","board":${empty},"player-index":0}`,
    );
    const turn2 = JSON.parse(m.sent[3]!);
    assert.equal(turn2.opponent, 'alpha');
    assert.equal(turn2.you, 'O');
    assert.equal(turn2.board[0][3], 'X', 'row 0 is the bottom');
    assert.equal(turn2.board[5][3], '');
  });

  it('accepts a column as an integer, as 3.0 (the integer 3), or as a one-character string', () => {
    const m = playScript(connect4, [INIT, INIT, ...cols(0, '1', 0, 1, 0, JSON.parse('{"p":1.0}').p, 0)]);
    assert.deepEqual(m.outcome.ranks, [1, 2]);
    assert.match(m.outcome.reason, /X wins: four in a row \(vertical\) at row 0 col 0, row 1 col 0, row 2 col 0, row 3 col 0/);
  });

  for (const bad of [true, false, 2.7, null, '03', ' 3', '3.0', '-1', -1, 7, '7', 'x', [3], { c: 3 }]) {
    it(`refuses ${JSON.stringify(bad)} as a column: a forfeit`, () => {
      const m = playScript(connect4, [INIT, INIT, ...cols(bad)]);
      assert.deepEqual(m.outcome.ranks, [2, 1]);
      assert.match(m.outcome.reason, /^O wins: X forfeited on turn 1 \(bad-answer: "play" must be a column 0..6, as an integer or a one-digit string, got /);
    });
  }

  it('a missing play field forfeits', () => {
    const m = playScript(connect4, [INIT, INIT, { column: 3 }]);
    assert.match(m.outcome.reason, /X forfeited on turn 1 \(bad-answer: the answer has no "play" field/);
  });
});

describe('Connect Four rules', () => {
  it('wins horizontally', () => {
    const m = playScript(connect4, [INIT, INIT, ...cols(0, 0, 1, 1, 2, 2, 3)]);
    assert.match(m.outcome.reason, /^X wins: four in a row \(horizontal\) at row 0 col 0, row 0 col 1, row 0 col 2, row 0 col 3$/);
  });

  it('wins on the rising diagonal', () => {
    // X: 0, 1, 2, 2, 3, 3(…) building / ; O fills beneath.
    const m = playScript(connect4, [INIT, INIT, ...cols(0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3)]);
    assert.match(m.outcome.reason, /^X wins: four in a row \(diagonal\) at row 0 col 0, row 1 col 1, row 2 col 2, row 3 col 3$/);
  });

  it('wins on the falling diagonal, for O', () => {
    // O builds row3 col0, row2 col1, row1 col2, row0 col3.
    const m = playScript(connect4, [INIT, INIT, ...cols(0, 3, 0, 2, 1, 2, 0, 1, 6, 1, 6, 0)]);
    assert.deepEqual(m.outcome.ranks, [2, 1]);
    assert.match(m.outcome.reason, /^O wins: four in a row \(diagonal\) at row 0 col 3, row 1 col 2, row 2 col 1, row 3 col 0$/);
  });

  it('a full column is an illegal move and forfeits', () => {
    const m = playScript(connect4, [INIT, INIT, ...cols(4, 4, 4, 4, 4, 4, 4)]);
    assert.deepEqual(m.outcome.ranks, [2, 1]);
    assert.match(m.outcome.reason, /^O wins: X forfeited on turn 7 \(illegal-move: column 4 is full/);
  });

  it('a full board after 42 moves without four in a row is a draw', () => {
    const order = [3, 3, 0, 2, 5, 4, 5, 6, 4, 2, 2, 3, 3, 5, 5, 2, 2, 4, 3, 3, 1, 1, 2, 1, 5, 5, 0, 4, 0, 4, 4, 6, 6, 6, 6, 0, 1, 0, 6, 0, 1, 1];
    const m = playScript(connect4, [INIT, INIT, ...cols(...order)]);
    assert.equal(m.engine.lastTurn(), 42);
    assert.deepEqual(m.outcome.ranks, [1, 1], m.outcome.reason);
    assert.equal(m.outcome.reason, 'draw: the board is full');
  });
});

/** Plays a full game between two built-in bots (a bad move fails the test); returns the ranks. */
function duel(x: string, o: string, seed: number): number[] {
  const engine = playBuiltins(connect4, [x, o], seed, { onFault: (slot, detail) => assert.fail(`${[x, o][slot]} made a bad move: ${detail}`) });
  return engine.outcome().ranks;
}

describe('Connect Four bots', () => {
  it('minimax beats random in at least 99 of 100 games, alternating seats', () => {
    let wins = 0;
    for (let seed = 0; seed < 50; seed++) {
      wins += Number(duel('minimax', 'random', seed).join() === '1,2');
      wins += Number(duel('random', 'minimax', seed).join() === '2,1');
    }
    assert.ok(wins >= 99, `minimax won ${wins} of 100`);
  });

  it('random plays only legal moves over many games', () => {
    for (let seed = 0; seed < 200; seed++) duel('random', 'random', seed);
  });
});
