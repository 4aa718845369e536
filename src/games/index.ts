import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';
import { battleship } from './battleship/index.js';
import { connect4 } from './connect4/index.js';
import { lighthouses } from './lighthouses/index.js';
import { paint } from './paint/index.js';
import { smartdog } from './smartdog/index.js';
import { tictactoe } from './tictactoe/index.js';
import { tron } from './tron/index.js';

/** Every game Botarena hosts, by id. A new game adds its folder and one line here. */
export const games: Record<string, AnyGame> = {
  [tictactoe.id]: tictactoe,
  [connect4.id]: connect4,
  [tron.id]: tron,
  [battleship.id]: battleship,
  [lighthouses.id]: lighthouses,
  [paint.id]: paint,
  [smartdog.id]: smartdog,
};

/** The game with this id, or a usage error listing the games. */
export function getGame(id: string): AnyGame {
  // Own keys only: `__proto__`, `constructor` or `toString` name no game.
  const game = Object.hasOwn(games, id) ? games[id] : undefined;
  if (!game) throw new UsageError(`unknown game "${id}"; the games are: ${Object.keys(games).join(', ')}`);
  return game;
}
