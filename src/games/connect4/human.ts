import type { HumanPlay } from '../../core/game.js';
import { renderBoard } from './render.js';
import type { ConnectFourMessage } from './wire.js';

/** Terminal play: shows the board, reads a column digit 0..6. */
export const human: HumanPlay<ConnectFourMessage> = {
  hello: (_view, name) => ({ name }),
  prompt(view) {
    if (view.action !== 'play-turn') return '';
    return `${renderBoard(view.board)}\nyou are ${view.you} against ${view.opponent}; your column (0-6):`;
  },
  parse(line) {
    return /^[0-6]$/.test(line) ? { answer: { play: Number(line) } } : { error: `"${line}" is not a column: type a digit from 0 to 6` };
  },
};
