/**
 * The botsarena messages a bot receives, as types (the same objects the built-in bots get).
 * Field names are the wire's own: `'game-id'`, `'player-index'`.
 */
export type { TicTacToeInit, TicTacToeMessage, TicTacToeTurn } from '../games/tictactoe/index.js';
export type { ConnectFourInit, ConnectFourMessage, ConnectFourTurn } from '../games/connect4/index.js';

/** The answer to an init message (ignored by tic-tac-toe and Connect Four; a blank answer is fine). */
export interface InitAnswer {
  name?: string;
}

/** A tic-tac-toe move: a "row-col" key of an empty cell. */
export interface TicTacToeAnswer {
  play: `${0 | 1 | 2}-${0 | 1 | 2}`;
}

/** A Connect Four move: a column 0..6, as a number or a one-digit string. */
export interface ConnectFourAnswer {
  play: number | `${0 | 1 | 2 | 3 | 4 | 5 | 6}`;
}
