import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';

/** Win/draw/loss of each strong bot against the game's weak bot, seats alternating, over `games` seeds (Tron: 100). */
export function benchStrength(games = 1000): (string | number)[][] {
  const rows: (string | number)[][] = [['strong bot vs weak bot (seats alternate)', 'games', 'wins', 'draws', 'losses', 'win %', 'ms/game']];
  const matchups = [
    ['tictactoe', 'minimax', 'random', games],
    ['connect4', 'minimax', 'random', games],
    ['tron', 'voronoi', 'stupid', 100],
    ['battleship', 'hunter', 'random', games],
  ] as const;
  for (const [gameId, strong, weak, n] of matchups) {
    let [w, d, l] = [0, 0, 0];
    const t0 = performance.now();
    for (let seed = 0; seed < n; seed++) {
      const strongFirst = seed % 2 === 0;
      const ranks = playBuiltins(getGame(gameId), strongFirst ? [strong, weak] : [weak, strong], seed).outcome().ranks;
      const [mine, theirs] = strongFirst ? ranks : [ranks[1]!, ranks[0]!];
      if (mine! < theirs!) w++;
      else if (mine === theirs) d++;
      else l++;
    }
    rows.push([`${gameId} ${strong} vs ${weak}`, n, w, d, l, ((100 * w) / n).toFixed(1), ((performance.now() - t0) / n).toFixed(2)]);
  }
  return rows;
}

/** Shots the Battleship hunter needs to sink a random fleet on the default 10×10 (its games against `random`). */
export function benchBattleshipShots(games = 1000): (string | number)[][] {
  const shots: number[] = [];
  for (let seed = 0; seed < games; seed++) {
    const first = seed % 2 === 0;
    const engine = playBuiltins(getGame('battleship'), first ? ['hunter', 'random'] : ['random', 'hunter'], seed);
    shots.push((engine.state as { strikes: unknown[][] }).strikes[first ? 0 : 1]!.length);
  }
  shots.sort((a, b) => a - b);
  const mean = shots.reduce((a, b) => a + b, 0) / games;
  return [
    ['battleship hunter, default fleet', 'games', 'mean shots', 'median', 'p90', 'max'],
    ['shots to sink all five ships', games, mean.toFixed(2), shots[games >> 1]!, shots[Math.floor(games * 0.9)]!, shots[games - 1]!],
  ];
}
