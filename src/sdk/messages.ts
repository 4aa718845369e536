/**
 * The messages a bot receives, as types (the same objects the built-in bots get), for every game; field
 * names are the wire's own (`'game-id'`, `'player-index'`, `turns_left`). Each game's page in docs/games
 * shows real ones.
 */
export type { TicTacToeInit, TicTacToeMessage, TicTacToeTurn } from '../games/tictactoe/index.js';
export type { ConnectFourInit, ConnectFourMessage, ConnectFourTurn } from '../games/connect4/index.js';
export type { TronInit, TronMessage, TronTurn } from '../games/tron/index.js';
export type { BattleshipInit, BattleshipMessage, BattleshipTurn } from '../games/battleship/index.js';
export type { LighthousesInit, LighthousesMessage, LighthousesResult, LighthousesTurn, LighthouseView } from '../games/lighthouses/index.js';
export type { PaintInit, PaintMessage, PaintTurn } from '../games/paint/index.js';

/** The answer to an init message: its content is ignored by tic-tac-toe, Connect Four and Tron, but it must be one line of JSON (anything else is noted as a fault at turn 0, which costs nothing there). */
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

/** A Tron move: one cell along x or y (x+ is x+1). */
export interface TronAnswer {
  play: 'x+' | 'x-' | 'y+' | 'y-';
}

/** Battleship's init answer: the fleet, each ship from one end to the other as "x1,y1-x2,y2". */
export interface BattleshipInitAnswer {
  name?: string;
  boats: `${number},${number}-${number},${number}`[];
}

/** A Battleship shot: "x,y". */
export interface BattleshipAnswer {
  play: `${number},${number}`;
}

/** Lighthouses' init answer: the bot's name. */
export interface LighthousesInitAnswer {
  name: string;
}

/** A lighthouses command: stay, step to a neighbouring island cell, put energy into the lighthouse you stand on, or link it to another you own and hold the key of. */
export type LighthousesAnswer =
  | { command: 'pass' }
  | { command: 'move'; x: -1 | 0 | 1; y: -1 | 0 | 1 }
  | { command: 'attack'; energy: number }
  | { command: 'connect'; destination: [number, number] };

/** Paint's answer to the hello. */
export interface PaintInitAnswer {
  ready: true;
}

/** A paint action: walk or shoot in one of the 8 directions [drow, dcol]; `turns_left` copied from the turn's message. */
export interface PaintAnswer {
  turns_left: number;
  type: 'walk' | 'shoot';
  direction: [-1 | 0 | 1, -1 | 0 | 1];
}

/**
 * A smart-dog command line (the game speaks text lines over TCP, not JSON): move or bark with one of your
 * dogs, then `end` to finish your turn.
 */
export type SmartDogCommand = `do ${number} move ${'up' | 'down' | 'left' | 'right'}` | `do ${number} bark` | 'end';
