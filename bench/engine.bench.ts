import { runMatch } from '../src/arena/run-match.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';

/** Games per second for `random` vs `random`: pure engine, and through the full match runner. */
export async function benchEngine(budgetMs = 2000): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [['game (random vs random, in-process)', 'games/s engine', 'steps/s engine', 'games/s runner']];
  for (const id of ['tictactoe', 'connect4']) {
    const game = getGame(id);
    let games = 0;
    let steps = 0;
    let t0 = performance.now();
    while (performance.now() - t0 < budgetMs) steps += playBuiltins(game, ['random', 'random'], games++).records.length;
    const pureSec = (performance.now() - t0) / 1000;
    let runnerGames = 0;
    t0 = performance.now();
    while (performance.now() - t0 < budgetMs) await runMatch({ game: game.id, seats: [{ bot: 'random' }, { bot: 'random' }], seed: runnerGames++ }, { game });
    const runnerSec = (performance.now() - t0) / 1000;
    rows.push([id, Math.round(games / pureSec), Math.round(steps / pureSec), Math.round(runnerGames / runnerSec)]);
  }
  return rows;
}
