import type { Vec } from './rules.js';

/**
 * A board file: a game state in the wire form (keys in any order; `obstacles` only for the variant). A
 * board with `previous_actions` is a match under way: those turns were played, `turns_left` remain.
 */
export interface BoardFile {
  width: number;
  height: number;
  player_positions: Record<string, Vec>;
  colors: (string | null)[][];
  previous_actions: unknown[];
  turns_left: number;
  obstacles?: Vec[];
}

/**
 * The reference boards of the "AI Competition" (see SOURCE.md beside this file for their origin and
 * licence), copied here as data so the game needs no file system (it also runs in a browser).
 * Each is a game state in the wire form, coordinates [row, column].
 */
export const BOARDS: Record<string, BoardFile> = {
  '10x10': {
    width: 10,
    height: 10,
    player_positions: { alice: [0, 0], bob: [9, 9] },
    colors: [
      ['alice', null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, 'bob'],
    ],
    previous_actions: [],
    turns_left: 100,
  },
  '11x5': {
    width: 11,
    height: 5,
    player_positions: { alice: [2, 3], bob: [2, 7] },
    colors: [
      [null, null, null, null, null, null, null, null, null, null, null],
      [null, 'alice', 'alice', null, null, null, null, null, null, null, null],
      [null, 'alice', 'alice', 'alice', null, null, null, 'bob', 'bob', 'bob', null],
      [null, null, null, null, null, null, null, null, 'bob', 'bob', null],
      [null, null, null, null, null, null, null, null, null, null, null],
    ],
    previous_actions: [],
    turns_left: 110,
  },
  '7x13': {
    width: 13,
    height: 7,
    player_positions: { alice: [3, 1], bob: [3, 11] },
    colors: [
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
      [null, 'alice', null, null, null, null, null, null, null, null, null, 'bob', null],
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
    ],
    previous_actions: [],
    turns_left: 130,
  },
  '7x13b': {
    width: 13,
    height: 7,
    player_positions: { alice: [5, 5], bob: [1, 7] },
    colors: [
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, 'bob', null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
      [null, null, null, null, null, 'alice', null, null, null, null, null, null, null],
      [null, null, null, null, null, null, null, null, null, null, null, null, null],
    ],
    previous_actions: [],
    turns_left: 130,
  },
};
