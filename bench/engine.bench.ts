import { runMatch } from '../src/arena/run-match.js';
import { MatchEngine } from '../src/core/engine.js';
import type { AnyGame } from '../src/core/game.js';
import { deriveSeed } from '../src/core/rng.js';
import { getGame } from '../src/games/index.js';

/** Plays whole games with built-in bots straight through the pure engine (no runner, no transport). */
function playPure(game: AnyGame, bots: string[], seed: number): number {
  const engine = new MatchEngine(game, { config: {}, seed, players: bots.length });
  const players = bots.map((b, slot) => game.bots[b]!.create({ slot, players: bots.length, config: engine.config, seed: deriveSeed(seed, slot) }));
  const names = bots;
  let steps = 0;
  for (let d = engine.decision(); d; d = engine.decision()) {
    const decision = d;
    const moves = decision.seats.map((slot) => {
      const view = engine.view(slot, { phase: decision.phase, matchId: '1', names });
      const answer = players[slot]!.act(view, decision.phase);
      return engine.judge(slot, decision.phase, game.parseAnswer(answer, engine.state, slot, decision.phase));
    });
    engine.commit(decision, moves);
    steps++;
  }
  return steps;
}

/** Games per second for `random` vs `random`: pure engine, and through the full match runner. */
export async function benchEngine(budgetMs = 2000): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [['game (random vs random, in-process)', 'games/s engine', 'steps/s engine', 'games/s runner']];
  for (const id of ['tictactoe', 'connect4']) {
    const game = getGame(id);
    let games = 0;
    let steps = 0;
    let t0 = performance.now();
    while (performance.now() - t0 < budgetMs) steps += playPure(game, ['random', 'random'], games++);
    const pureSec = (performance.now() - t0) / 1000;
    let runnerGames = 0;
    t0 = performance.now();
    while (performance.now() - t0 < budgetMs) await runMatch({ game, seats: [{ bot: 'random' }, { bot: 'random' }], seed: runnerGames++ });
    const runnerSec = (performance.now() - t0) / 1000;
    rows.push([id, Math.round(games / pureSec), Math.round(steps / pureSec), Math.round(runnerGames / runnerSec)]);
  }
  return rows;
}
