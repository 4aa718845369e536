// Peak memory of long matches through the engine with built-in bots: a 1 000-turn paint match and a 12-bot
// Tron match. Heap is sampled every 10 steps; what the match keeps is set beside what its replay holds
// (the moves and fingerprints every step adds), so growth beyond the game's own history would show.
import { getHeapStatistics } from 'node:v8';
import { MatchEngine } from '../src/core/engine.js';
import { builtinBotSeed } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';

function peakOf(gameId: string, bots: string[], config: Record<string, unknown>, seed = 1): (string | number)[] {
  const game = getGame(gameId);
  const heap = () => getHeapStatistics().used_heap_size;
  const before = heap();
  const engine = new MatchEngine(game, { config, seed, players: bots.length });
  const players = bots.map((name, slot) =>
    game.bots[name]!.create({ slot, players: bots.length, config: engine.config, seed: builtinBotSeed(seed, name, slot) }),
  );
  let peak = before;
  let steps = 0;
  for (let d = engine.decision(); d; d = engine.decision()) {
    const decision = d;
    const moves = decision.seats.map((slot) =>
      engine.read(slot, decision.phase, players[slot]!.act(engine.view(slot, { phase: decision.phase, matchId: '1', names: bots }), decision.phase)),
    );
    engine.commit(decision, moves);
    if (++steps % 10 === 0) peak = Math.max(peak, heap());
  }
  const after = heap();
  const records = JSON.stringify(engine.records).length;
  const mb = (b: number) => (b / 2 ** 20).toFixed(1);
  return [`${gameId}: ${bots.length} × ${bots[0]}, ${JSON.stringify(config)}`, steps, mb(peak - before), mb(after - before), mb(records)];
}

export function benchMemory(): (string | number)[][] {
  return [
    ['match', 'steps', 'peak heap over start (MB)', 'kept at the end (MB)', 'its replay steps as JSON (MB)'],
    peakOf('paint', ['random', 'random'], { width: 32, height: 32, turns: 1000 }),
    peakOf(
      'tron',
      Array.from({ length: 12 }, () => 'stupid'),
      { width: 100, height: 100 },
    ),
  ];
}
