import { MatchEngine } from '../src/core/engine.js';
import { deriveSeed } from '../src/core/rng.js';
import { getGame } from '../src/games/index.js';

/** Plays one game between built-in bots through the pure engine; returns the ranks. */
function duel(gameId: string, bots: string[], seed: number): number[] {
  const game = getGame(gameId);
  const engine = new MatchEngine(game, { config: {}, seed, players: bots.length });
  const players = bots.map((b, slot) => game.bots[b]!.create({ slot, players: bots.length, config: engine.config, seed: deriveSeed(seed, slot) }));
  for (let d = engine.decision(); d; d = engine.decision()) {
    const decision = d;
    const moves = decision.seats.map((slot) => {
      const answer = players[slot]!.act(engine.view(slot, { phase: decision.phase, matchId: '1', names: bots }), decision.phase);
      return engine.judge(slot, decision.phase, game.parseAnswer(answer, engine.state, slot, decision.phase));
    });
    engine.commit(decision, moves);
  }
  return engine.outcome().ranks;
}

/** Win/draw/loss of each strong bot against `random`, seats alternating, over `games` seeds. */
export function benchStrength(games = 1000): (string | number)[][] {
  const rows: (string | number)[][] = [['strong bot vs random (seats alternate)', 'games', 'wins', 'draws', 'losses', 'win %', 'ms/game']];
  for (const [gameId, n] of [['tictactoe', games], ['connect4', games]] as const) {
    let [w, d, l] = [0, 0, 0];
    const t0 = performance.now();
    for (let seed = 0; seed < n; seed++) {
      const strongFirst = seed % 2 === 0;
      const ranks = duel(gameId, strongFirst ? ['minimax', 'random'] : ['random', 'minimax'], seed);
      const [mine, theirs] = strongFirst ? ranks : [ranks[1]!, ranks[0]!];
      if (mine! < theirs!) w++;
      else if (mine === theirs) d++;
      else l++;
    }
    rows.push([`${gameId} minimax`, n, w, d, l, ((100 * w) / n).toFixed(1), ((performance.now() - t0) / n).toFixed(2)]);
  }
  return rows;
}
