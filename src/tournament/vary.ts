import { createHash } from 'node:crypto';
import { resolveConfig } from '../core/config.js';
import type { AnyGame } from '../core/game.js';
import type { Replay } from '../core/replay.js';
import { MAPS as LIGHTHOUSE_MAPS } from '../games/lighthouses/maps.js';
import { MAPS as SMARTDOG_MAPS } from '../games/smartdog/maps.js';

/**
 * Many matches of deterministic bots are one match played many times unless something changes between them.
 * The seed already varies what the rules draw from it (Tron's starts, paint's generated board, the built-in
 * bots' choices); a game whose arena is a named map does not draw it, so `ab` and `tournament` pick the map
 * from the match's seed instead, among the shipped maps that seat that many players, when the user chose
 * neither a map nor a position. Both games of a pair share a seed, so they share the map.
 */
const ARENAS: Record<string, { key: string; names: string[]; unless: string[] }> = {
  lighthouses: { key: 'map', names: Object.keys(LIGHTHOUSE_MAPS), unless: ['map', 'position'] },
  // Not `training`: a one-player map to learn on.
  smartdog: { key: 'map', names: Object.keys(SMARTDOG_MAPS).filter((m) => m !== 'training'), unless: ['map', 'position'] },
};

/** The shipped maps a seed picks from for this game, config and player count (empty: the config stays as given). */
export function arenasFor(game: AnyGame, config: Record<string, unknown>, players: number): string[] {
  const arena = Object.hasOwn(ARENAS, game.id) ? ARENAS[game.id]! : null;
  if (!arena || arena.unless.some((k) => Object.hasOwn(config, k) && String(config[k]).trim() !== '')) return [];
  return arena.names.filter((name) => {
    const full = resolveConfig(game.id, game.config, { ...config, [arena.key]: name });
    return !game.rules.validateConfig?.(full as never, players);
  });
}

/** The config of the match on `seed`: the user's, with the map picked from the seed when `arenasFor` gives some. */
export function configForSeed(game: AnyGame, config: Record<string, unknown>, players: number, seed: number): Record<string, unknown> {
  const names = arenasFor(game, config, players);
  if (!names.length) return config;
  return { ...config, [ARENAS[game.id]!.key]: names[(seed >>> 0) % names.length]! };
}

/**
 * What identifies a game as played: its config, its seats (names and bots), and every step (the decision,
 * each seat's action or fault kind, the fingerprint of the state after it) and the ranks. Two games with the
 * same key are copies of one game, whatever their seeds: nothing the seed could vary made a difference.
 * Timings and fault details (which quote times) are left out; a SHA-256, so different games never meet.
 */
export function gameKey(replay: Pick<Replay, 'config' | 'seats' | 'turns' | 'result'>): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([replay.config, replay.seats.map((s) => [s.name, s.bot]), replay.result.ranks]));
  for (const t of replay.turns) hash.update(JSON.stringify([t.turn, t.phase, t.hash, t.moves.map((m) => [m.slot, m.action ?? null, m.fault?.kind ?? null])]));
  return hash.digest('hex');
}
