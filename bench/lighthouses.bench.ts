import { runMatch } from '../src/arena/run-match.js';
import { LocalLiveEvents } from '../src/live/local.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';

/** Lighthouses rounds per second on the largest shipped map: 4 `random` bots in-process, then 4 stdio bots. */
export async function benchLighthouses(budgetMs = 3000): Promise<(string | number)[][]> {
  const game = getGame('lighthouses');
  const config = { map: 'continent', rounds: 200 };
  const rows: (string | number)[][] = [['Lighthouses, 4 bots, continent (41×25, 28 lighthouses)', 'games', 'rounds', 'rounds/s', 'µs/round']];
  let games = 0;
  let t0 = performance.now();
  while (performance.now() - t0 < budgetMs) playBuiltins(game, ['random', 'random', 'random', 'random'], games++, { config });
  let sec = (performance.now() - t0) / 1000;
  const perSec = (games * 200) / sec;
  rows.push(['engine only (builtin random ×4)', games, games * 200, Math.round(perSec), ((sec * 1e6) / (games * 200)).toFixed(1)]);
  // The original Python engine with its random bots, as measured on this machine kind (issue 14): 920–1 090.
  rows.push([`reference: the Python original, 920–1 090 rounds/s; this engine is ${(perSec / 1090).toFixed(1)}–${(perSec / 920).toFixed(1)}× it (target ≥ 30×)`, '-', '-', '920–1090', '-']);

  // Starting four Node processes costs about half a second a match: timed apart from the rounds.
  games = 0;
  let playMs = 0;
  t0 = performance.now();
  while (performance.now() - t0 < budgetMs) {
    let first = 0;
    let last = 0;
    // The play time runs from the end of the hellos to the last step, as the full live feed sees them.
    const live = new LocalLiveEvents();
    const matchId = `bench-${games}`;
    live.subscribe(matchId, 'full', (e) => {
      if (e.type !== 'step') return;
      if (e.record.phase === 'init') first = performance.now();
      last = performance.now();
    });
    await runMatch(
      { game: game.id, matchId, config, seed: games++, seats: Array.from({ length: 4 }, () => ({ bot: 'stdio:node bench/lighthouses-bot.mjs' })) },
      { game, live },
    );
    await new Promise((r) => setImmediate(r));
    await live.close();
    playMs += last - first;
  }
  sec = playMs / 1000;
  const startMs = (performance.now() - t0 - playMs) / games;
  rows.push([`runner + 4 stdio bots (node, random steps; + ${startMs.toFixed(0)} ms start/stop a match)`, games, games * 200, Math.round((games * 200) / sec), ((sec * 1e6) / (games * 200)).toFixed(1)]);
  return rows;
}

/** Planner against random, 2-player games over 100 seeds on each shipped map (seats alternate). */
export function benchLighthousesStrength(games = 100): (string | number)[][] {
  const game = getGame('lighthouses');
  const rows: (string | number)[][] = [['lighthouses planner vs random, 200 rounds', 'games', 'wins', 'draws', 'losses', 'win %', 'median margin', 'ms/game']];
  for (const map of ['islet', 'bay', 'cross', 'continent']) {
    let [w, d, l] = [0, 0, 0];
    const margins: number[] = [];
    const t0 = performance.now();
    for (let seed = 0; seed < games; seed++) {
      const me = seed % 2;
      const o = playBuiltins(game, me === 0 ? ['planner', 'random'] : ['random', 'planner'], seed, { config: { map } }).outcome();
      if (o.ranks[me] === 1 && o.ranks[1 - me] === 2) w++;
      else if (o.ranks[me] === 1) d++;
      else l++;
      margins.push(o.scores![me]! - o.scores![1 - me]!);
    }
    margins.sort((a, b) => a - b);
    rows.push([map, games, w, d, l, ((100 * w) / games).toFixed(1), margins[games >> 1]!, ((performance.now() - t0) / games).toFixed(2)]);
  }
  return rows;
}
