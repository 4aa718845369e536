import { runMatch } from '../src/arena/run-match.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';

/** Tron laps per second: 4 `stupid` bots on 100×100, in-process, then the same games with 4 stdio bots. */
export async function benchTron(budgetMs = 3000): Promise<(string | number)[][]> {
  const tron = getGame('tron');
  const rows: (string | number)[][] = [['Tron, 4 bots, 100×100, whole games', 'games', 'laps', 'laps/s', 'µs/lap']];
  let laps = 0;
  let games = 0;
  let t0 = performance.now();
  while (performance.now() - t0 < budgetMs) laps += (playBuiltins(tron, ['stupid', 'stupid', 'stupid', 'stupid'], games++).state as { lap: number }).lap;
  let sec = (performance.now() - t0) / 1000;
  rows.push(['engine only (builtin stupid ×4)', games, laps, Math.round(laps / sec), ((sec * 1e6) / laps).toFixed(1)]);

  laps = 0;
  games = 0;
  t0 = performance.now();
  while (performance.now() - t0 < budgetMs) {
    const { replay } = await runMatch(
      { game: tron.id, seed: games++, seats: Array.from({ length: 4 }, () => ({ bot: 'stdio:node bench/tron-bot.mjs' })) },
      { game: tron },
    );
    laps += replay.turns.filter((t) => t.phase === 'play').length;
  }
  sec = (performance.now() - t0) / 1000;
  rows.push(['runner + 4 stdio bots (node, same rule)', games, laps, Math.round(laps / sec), ((sec * 1e6) / laps).toFixed(1)]);
  return rows;
}
