import type { BuiltinBotFactory } from '../../core/game.js';
import { rngCreate, rngPick } from '../../core/rng.js';
import { cellsOfBoard } from './render.js';
import { CELLS, lineOf } from './rules.js';
import type { TicTacToeMessage } from './wire.js';

const empties = (cells: readonly string[]) => cells.flatMap((v, i) => (v === '' ? [i] : []));

/** The original stupid bot: a uniformly random empty cell. */
const random: BuiltinBotFactory<TicTacToeMessage> = {
  description: 'a random empty cell (the original stupid bot)',
  create({ seed }) {
    const rng = rngCreate(seed);
    return {
      act(view) {
        if (view.action === 'init') return { name: 'random' };
        return { play: CELLS[rngPick(rng, empties(cellsOfBoard(view.board)))] };
      },
    };
  },
};

/**
 * The value of the position for the player to move (`me`), by exhaustive negamax: a win is worth more
 * the sooner it comes, so the bot wins fast and loses late. Memoised on the board.
 */
function negamax(cells: string[], me: string, other: string, memo: Map<string, number>): number {
  const key = cells.join(',') + me;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const free = empties(cells);
  let best = free.length === 0 ? 0 : -Infinity;
  for (const i of free) {
    cells[i] = me;
    const value = lineOf(cells, me) ? 1 + free.length : -negamax(cells, other, me, memo);
    cells[i] = '';
    if (value > best) best = value;
  }
  memo.set(key, best);
  return best;
}

/** Perfect play: never loses, wins whenever the opponent allows it; equal moves chosen at random. */
const minimax: BuiltinBotFactory<TicTacToeMessage> = {
  description: 'perfect play (exhaustive minimax)',
  create({ seed }) {
    const rng = rngCreate(seed);
    const memo = new Map<string, number>();
    return {
      act(view) {
        if (view.action === 'init') return { name: 'minimax' };
        const cells = cellsOfBoard(view.board);
        const me = view.you;
        const other = me === 'X' ? 'O' : 'X';
        let best = -Infinity;
        let choices: number[] = [];
        for (const i of empties(cells)) {
          cells[i] = me;
          const value = lineOf(cells, me) ? 100 : -negamax(cells, other, me, memo);
          cells[i] = '';
          if (value > best) [best, choices] = [value, [i]];
          else if (value === best) choices.push(i);
        }
        return { play: CELLS[rngPick(rng, choices)] };
      },
    };
  },
};

/** The built-in tic-tac-toe bots. */
export const bots = { random, minimax };
