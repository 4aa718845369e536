import type { AnyGame } from '../src/core/game.js';
import { buildReplay, REPLAY_FORMAT, type Replay } from '../src/core/replay.js';
import { playBuiltins } from '../src/core/self-play.js';
import { ENGINE_VERSION } from '../src/core/version.js';

/** A whole replay of a match between a game's built-in bots, as the runner would write it (no timings). */
export function builtinReplay(game: AnyGame, seed: number, o: { players?: number; config?: Record<string, unknown>; bots?: string[] } = {}): Replay {
  const names = Object.keys(game.bots);
  const players = o.bots?.length ?? o.players ?? Math.min(game.players.max, Math.max(2, game.players.min));
  const bots = o.bots ?? Array.from({ length: players }, (_, i) => names[i % names.length]!);
  const engine = playBuiltins(game, bots, seed, { config: o.config });
  return buildReplay(
    {
      format: REPLAY_FORMAT,
      engineVersion: ENGINE_VERSION,
      game: game.id,
      config: engine.config,
      seed,
      matchId: `test-${game.id}-${seed}`,
      seats: bots.map((name, slot) => ({ slot, name, bot: name })),
      timeouts: { initMs: game.timeouts.initMs, turnMs: game.timeouts.turnMs },
      ...(engine.hashes === 'chain' ? { hashes: 'chain' as const } : {}),
    },
    engine,
  );
}
