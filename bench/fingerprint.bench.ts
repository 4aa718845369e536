// What the per-step fingerprint costs in each game: matches between built-in bots through the engine (views,
// bots, rules, records), once as they are and once with a game whose fingerprints cost nothing; the
// difference is the fingerprint's share of a step (target: under 10 % in every game). The rules alone are
// timed too (recorded moves replayed), where any fingerprint weighs more.
import { MatchEngine, type TurnRecord } from '../src/core/engine.js';
import type { AnyGame } from '../src/core/game.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';

const MATCHES: [string, string[], Record<string, unknown>][] = [
  ['tictactoe', ['random', 'random'], {}],
  ['connect4', ['random', 'random'], {}],
  ['battleship', ['random', 'random'], {}],
  ['tron', ['stupid', 'stupid', 'stupid', 'stupid'], {}],
  ['lighthouses', ['random', 'random', 'random', 'random'], { map: 'continent' }],
  ['paint', ['random', 'random', 'random', 'random'], { width: 60, height: 60, turns: 400 }],
  ['smartdog', ['random', 'random', 'random', 'random'], { map: 'highlands' }],
];

function replayAll(game: AnyGame, recorded: { seed: number; players: number; config: Record<string, unknown>; records: TurnRecord[] }[], hashes: 'state' | 'steps'): number {
  const t0 = performance.now();
  for (const r of recorded) {
    const e = new MatchEngine(game, { config: r.config, seed: r.seed, players: r.players, hashes });
    for (const rec of r.records) e.commit(e.decision()!, rec.moves);
  }
  return performance.now() - t0;
}

export function benchFingerprints(): (string | number)[][] {
  const rows: (string | number)[][] = [['game (built-in bots)', 'fingerprints', 'steps', 'µs/step with bots', 'share', 'µs/step rules alone', 'share']];
  for (const [id, bots, config] of MATCHES) {
    const game = getGame(id);
    // Enough matches that each timing is tens of milliseconds.
    const count = { tictactoe: 1500, connect4: 600, battleship: 40, tron: 8, lighthouses: 40, paint: 8, smartdog: 8 }[id] ?? 20;
    const recorded = Array.from({ length: count }, (_, seed) => ({ seed, players: bots.length, config, records: playBuiltins(game, bots, seed, { config }).records }));
    const steps = recorded.reduce((n, r) => n + r.records.length, 0);
    const hashes = game.changes ? 'steps' : 'state';
    // The same game with fingerprints of nothing: what is left is the rest of a step.
    const free = { ...game, digest: () => 0, changes: game.changes ? () => [] : undefined } as AnyGame;
    const best = (run: () => number) => Math.min(run(), run(), run(), run());
    const play = (g: AnyGame) => () => {
      const t0 = performance.now();
      for (const r of recorded) playBuiltins(g, bots, r.seed, { config });
      return performance.now() - t0;
    };
    const share = (full: number, bare: number) => `${Math.max(0, (100 * (full - bare)) / full).toFixed(1)} %`;
    const withBots = best(play(game));
    const withBotsBare = best(play(free));
    const full = best(() => replayAll(game, recorded, hashes));
    const bare = best(() => replayAll(free, recorded, hashes));
    rows.push([id, hashes === 'steps' ? 'chained (changes)' : 'whole state', steps, ((withBots * 1000) / steps).toFixed(2), share(withBots, withBotsBare), ((full * 1000) / steps).toFixed(2), share(full, bare)]);
  }
  return rows;
}
