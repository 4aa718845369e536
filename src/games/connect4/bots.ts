import type { BuiltinBotFactory } from '../../core/game.js';
import { rngCreate, rngPick } from '../../core/rng.js';
import { COLS, ROWS } from './rules.js';
import { scoreColumns } from './search.js';
import type { ConnectFourMessage } from './wire.js';

/** The original stupid bot: a random non-full column, answered as a number. */
const random: BuiltinBotFactory<ConnectFourMessage> = {
  description: 'a random non-full column (the original stupid bot)',
  create({ seed }) {
    const rng = rngCreate(seed);
    return {
      act(view) {
        if (view.action === 'init') return { name: 'random' };
        const open = Array.from({ length: COLS }, (_, c) => c).filter((c) => view.board[ROWS - 1]![c] === '');
        return { play: rngPick(rng, open) };
      },
    };
  },
};

/** Search depth of the strong bot: deterministic, a few milliseconds a move. */
export const MINIMAX_DEPTH = 5;

/** Alpha-beta to a fixed depth with a window evaluation; equal best columns chosen at random. */
const minimax: BuiltinBotFactory<ConnectFourMessage> = {
  description: `alpha-beta search, depth ${MINIMAX_DEPTH}`,
  create({ seed }) {
    const rng = rngCreate(seed);
    return {
      act(view) {
        if (view.action === 'init') return { name: 'minimax' };
        const flat = new Uint8Array(ROWS * COLS);
        view.board.forEach((row, r) => row.forEach((v, c) => (flat[r * COLS + c] = v === '' ? 0 : v === view.you ? 1 : 2)));
        const scored = scoreColumns(flat, MINIMAX_DEPTH);
        const best = Math.max(...scored.map(([, v]) => v));
        return {
          play: rngPick(
            rng,
            scored.filter(([, v]) => v === best).map(([c]) => c),
          ),
        };
      },
    };
  },
};

/** The built-in Connect Four bots. */
export const bots = { random, minimax };
