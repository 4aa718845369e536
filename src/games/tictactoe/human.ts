import type { HumanPlay } from '../../core/game.js';
import { cellsOfBoard, renderBoard } from './render.js';
import type { TicTacToeMessage } from './wire.js';

/** Terminal play: shows the board, reads "row-col" (also "1 2", "12", "1,2"). */
export const human: HumanPlay<TicTacToeMessage> = {
  hello: (_view, name) => ({ name }),
  prompt(view) {
    if (view.action !== 'play-turn') return '';
    return `${renderBoard(cellsOfBoard(view.board))}\nyou are ${view.you}; your move (row-col, e.g. 1-2):`;
  },
  parse(line) {
    const m = /^([0-2])\s*[-, ]?\s*([0-2])$/.exec(line);
    if (!m) return { error: `"${line}" is not a cell: type row-col, e.g. 1-2 (rows and columns 0..2)` };
    return { answer: { play: `${m[1]}-${m[2]}` } };
  },
};
