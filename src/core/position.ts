import type { MatchEngine, TurnRecord } from './engine.js';
import { UsageError } from './errors.js';
import type { AnyGame } from './game.js';
import { fingerprint } from './hash.js';
import { ReplayFollower, type Replay } from './replay.js';

/**
 * Re-runs a replay's steps up to the position just before turn `turn` is asked (every init included), and
 * returns the engine there. Throws ReplayMismatchError when the replay does not reproduce on the way, and
 * a UsageError when the match never reached that turn.
 */
export function engineBefore(game: AnyGame, replay: Pick<Replay, 'config' | 'seed' | 'seats' | 'turns' | 'hashes'>, turn: number): MatchEngine {
  // Every step is checked as `replay verify` checks it (seats, legal actions, fingerprints), so a crafted
  // replay is a mismatch naming its turn, never a crash of the rules.
  const follower = new ReplayFollower(game, { ...replay, game: game.id });
  for (const rec of replay.turns) {
    if (rec.phase !== 'init' && rec.turn >= turn) return follower.engine;
    follower.step(rec, replay.turns.length);
  }
  const last = replay.turns.filter((r) => r.phase !== 'init').pop()?.turn ?? 0;
  throw new UsageError(`the match never reached turn ${turn}: its play turns are 1..${last}`);
}

/** The config that starts a match at the engine's position: the match's own config plus the game's position keys. */
export function positionConfig(game: AnyGame, engine: MatchEngine): Record<string, unknown> {
  if (!game.tooling?.position) throw new UsageError(`${game.id} cannot start from a chosen position yet`);
  return { ...engine.config, ...game.tooling.position.write(engine.state) };
}

/** A short fingerprint of a whole replay, so a fork can name the match it came from. */
export function replayFingerprint(replay: Pick<Replay, 'turns'>): string {
  return fingerprint(replay.turns.map((t: TurnRecord) => t.hash));
}
