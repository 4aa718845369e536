import { runMatch } from '../src/arena/run-match.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';

/**
 * Paint turns per second: built-in bots through the pure engine (the 10×10 board; 4 bots on a generated
 * 60×60 board, where the state sent every turn is large; the painter's own cost), then 2 stdio bots through
 * the runner, in games of 100 turns (process start and stop included) and of 1000 turns.
 */
export async function benchPaint(budgetMs = 3000): Promise<(string | number)[][]> {
  const paint = getGame('paint');
  const rows: (string | number)[][] = [['Paint, whole games', 'games', 'turns', 'turns/s', 'µs/turn']];
  const measure = async (label: string, playOne: (seed: number) => Promise<number> | number) => {
    let turns = 0;
    let games = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < budgetMs) turns += await playOne(games++);
    const sec = (performance.now() - t0) / 1000;
    rows.push([label, games, turns, Math.round(turns / sec), ((sec * 1e6) / turns).toFixed(1)]);
  };
  const engineOnly = (bots: string[], config: Record<string, unknown>) => (seed: number) => playBuiltins(paint, bots, seed, { config }).records.length - 1;
  await measure('engine only, random ×2, board 10x10', engineOnly(['random', 'random'], { board: '10x10' }));
  await measure('engine only, random ×4, generated 60×60, 400 turns', engineOnly(['random', 'random', 'random', 'random'], { width: 60, height: 60, turns: 400 }));
  await measure('engine only, painter vs random, board 10x10', engineOnly(['painter', 'random'], { board: '10x10' }));
  for (const turns of [0, 1000]) {
    await measure(`runner + 2 stdio bots (examples/paint-node), board 10x10, ${turns || 100} turns a game`, async (seed) => {
      const seats = Array.from({ length: 2 }, () => ({ bot: 'stdio:node examples/paint-node/bot.mjs' }));
      const { replay } = await runMatch({ game: paint.id, seed, config: { board: '10x10', turns }, seats }, { game: paint });
      return replay.turns.filter((t) => t.phase === 'play').length;
    });
  }
  return rows;
}
