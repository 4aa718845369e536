import { battleship } from './battleship.js';
import { connect4 } from './connect4.js';
import { lighthouses } from './lighthouses.js';
import { paint } from './paint.js';
import { smartdog } from './smartdog.js';
import { tictactoe } from './tictactoe.js';
import { tron } from './tron.js';
import type { WebGame } from './types.js';

/** Every game's renderer and human play in the browser, by game id (the same ids as src/games/index.ts). */
export const webGames: Record<string, WebGame> = {
  [tictactoe.id]: tictactoe,
  [connect4.id]: connect4,
  [tron.id]: tron,
  [battleship.id]: battleship,
  [lighthouses.id]: lighthouses,
  [paint.id]: paint,
  [smartdog.id]: smartdog,
};
