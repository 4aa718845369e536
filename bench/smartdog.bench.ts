import { spawn } from 'node:child_process';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';
import { startHubServer } from '../src/arena/hubs.js';
import { defaultHubs, SmartdogHubPlan } from '../src/games/smartdog/hubs.js';

/** Smart-dog turns per second: engine-only on the largest map with 4 players, then many TCP games at once. */
export async function benchSmartdog(budgetMs = 3000): Promise<(string | number)[][]> {
  const game = getGame('smartdog');
  const rows: (string | number)[][] = [['Smart-dog', 'games', 'turns', 'turns/s', 'µs/turn']];
  for (const bot of ['random', 'herder']) {
    let games = 0;
    let turns = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < budgetMs) turns += playBuiltins(game, [bot, bot, bot, bot], games++, { config: { map: 'highlands' } }).records.length;
    const sec = (performance.now() - t0) / 1000;
    rows.push([`engine + 4 built-in ${bot}, highlands (80×28, 150 turns)`, games, turns, Math.round(turns / sec), ((sec * 1e6) / turns).toFixed(1)]);
  }
  // The server on loopback: 16 trivial clients (one process) in 8 duets at once, 100 turns each; the
  // time runs from the first connection to the last game's end.
  let turns = 0;
  let games = 0;
  const gateway = await startHubServer({
    game,
    plan: new SmartdogHubPlan(),
    port: 0,
    hubs: defaultHubs(['meadow'], { turnsLimit: 100 }),
    onGame: (r) => ((turns += r.replay.turns.length), games++),
  });
  const t0 = performance.now();
  const clients = spawn(process.execPath, ['bench/smartdog-clients.mjs', String(gateway.port), '16', 'duet'], { stdio: 'ignore' });
  await new Promise((resolve) => clients.on('exit', resolve));
  while (games < 8) await new Promise((r) => setTimeout(r, 10));
  const sec = (performance.now() - t0) / 1000;
  await gateway.close();
  rows.push(['TCP server: 8 duets at once, 16 trivial clients in one process', games, turns, Math.round(turns / sec), ((sec * 1e6) / turns).toFixed(1)]);
  return rows;
}
