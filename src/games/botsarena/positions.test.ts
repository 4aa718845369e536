import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import type { AnyGame } from '../../core/game.js';
import { checkPositionRoundTrip } from '../../core/position.kit.js';
import { playBuiltins } from '../../core/self-play.js';
import { connect4 } from '../connect4/index.js';
import { tictactoe } from '../tictactoe/index.js';

const games: AnyGame[] = [tictactoe, connect4];

describe('tic-tac-toe and Connect Four start from a chosen board', () => {
  it('a position written at any turn starts the same game, which then plays out identically', () => {
    for (const game of games) {
      for (const seed of [1, 2, 3, 4]) {
        const last = playBuiltins(game, ['random', 'random'], seed).lastTurn();
        for (const turn of [1, 2, 4, 6, 9, 12].filter((t) => t <= last)) checkPositionRoundTrip(game, ['random', 'random'], seed, turn);
      }
    }
  });

  it('tic-tac-toe: X to play with two in a row wins at once; turns go on from the board', () => {
    const e = playBuiltins(tictactoe, ['minimax', 'minimax'], 1, { config: { board: 'XX./OO./...' } });
    assert.equal(e.outcome().reason, 'X wins: three in a row 0-0, 0-1, 0-2');
    assert.deepEqual(
      e.records.filter((r) => r.phase === 'play').map((r) => [r.turn, r.moves[0]!.action]),
      [[5, '0-2']],
    );
    const o = playBuiltins(tictactoe, ['minimax', 'minimax'], 1, { config: { board: 'X../.O./..X' } });
    assert.equal(o.records.find((r) => r.phase === 'play')!.moves[0]!.slot, 1, 'three pieces: O plays next');
  });

  it('Connect Four: the board is written top row first and X completes a column', () => {
    const board = ['.......', '.......', '.......', 'X......', 'XO.....', 'XO.O...'].join('/');
    const e = playBuiltins(connect4, ['minimax', 'random'], 1, { config: { board } });
    assert.match(e.outcome().reason, /^X wins: four in a row \(vertical\)/);
  });

  for (const [game, board, problem] of [
    [tictactoe, 'XXX/OO./...', /X already has three in a row \(0-0, 0-1, 0-2\)/],
    [tictactoe, 'XX./.../...', /X has 2 pieces and O has 0: X moves first/],
    [tictactoe, 'XOX/XOO/OXX', /the board is full/],
    [tictactoe, 'X../..', /expected 3 rows separated by "\/", got 2/],
    [tictactoe, 'X../.Z./...', /row 2, cell 2 is "Z": use X, O or \. \(empty\)/],
    [connect4, '......./......./......./......./X....../.......', /the X in column 0, row 1 floats over an empty cell/],
    [connect4, '......./......./X....../X....../X....../XOOO...', /X already has four in a row \(vertical, through row 0, column 0\)/],
    [connect4, '......./......./......./......./......./XXO', /row 6 "XXO" has 3 cells, expected 7/],
  ] as const) {
    it(`${game.id}: refuses ${board} with the reason`, () => {
      assert.throws(
        () => new MatchEngine(game, { config: { board }, seed: 1, players: 2 }),
        (err: Error) => /^bad config for /.test(err.message) && problem.test(err.message),
      );
    });
  }
});
