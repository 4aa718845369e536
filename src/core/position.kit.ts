import assert from 'node:assert/strict';
import type { ConfigValues } from './config.js';
import { MatchEngine, movesOf } from './engine.js';
import type { AnyGame } from './game.js';
import { fingerprint } from './hash.js';
import { engineBefore, positionConfig } from './position.js';
import { playBuiltins } from './self-play.js';

/**
 * For games' tests: checks that a position written at turn `turn` of a built-in match starts a new match in
 * the very same state (after the new match's inits, answered as the original's were), and that the
 * original's later moves then play out identically, step for step, to the same result.
 */
export function checkPositionRoundTrip(game: AnyGame, bots: string[], seed: number, turn: number, config: Record<string, unknown> = {}): void {
  const original = playBuiltins(game, bots, seed, { config });
  const replay = {
    config: original.config as ConfigValues,
    seed,
    seats: bots.map((bot, slot) => ({ slot, name: bot, bot })),
    turns: original.records,
    hashes: original.hashes === 'chain' ? ('chain' as const) : undefined,
  };
  const at = engineBefore(game, replay, turn);
  // The original, followed on beside the fork: chained step fingerprints depend on the history, so the two
  // are compared by their whole states after each step.
  const shadow = engineBefore(game, replay, turn);
  const forked = new MatchEngine(game, { config: positionConfig(game, at), seed, players: bots.length });
  const inits = original.records.filter((r) => r.phase === 'init');
  for (let d = forked.decision(), i = 0; d && d.phase === 'init'; d = forked.decision(), i++) {
    const rec = inits[i];
    assert.ok(rec, `${game.id}: the forked match asks more inits than the original had`);
    forked.commit(d, movesOf(rec));
  }
  const digest = (e: MatchEngine) => fingerprint(game.replay?.digest ? game.replay.digest(e.state) : e.state);
  assert.equal(
    digest(forked),
    digest(at),
    `${game.id} seed ${seed}: the position of turn ${turn} does not start the same state\nwritten: ${JSON.stringify(game.tooling!.position!.write(at.state)).slice(0, 400)}`,
  );
  const later = original.records.slice(original.records.findIndex((r) => r.phase !== 'init' && r.turn >= turn));
  for (const rec of later) {
    const d = forked.decision();
    assert.ok(d, `${game.id} seed ${seed}: the forked match ended before turn ${rec.turn}`);
    assert.deepEqual(
      [d.phase, d.turn, d.seats],
      [rec.phase, rec.turn, rec.moves.map((m) => m.slot)],
      `${game.id} seed ${seed}: the forked match asks something else at turn ${rec.turn}`,
    );
    forked.commit(d, movesOf(rec));
    shadow.commit(shadow.decision()!, movesOf(rec));
    assert.equal(forked.stateFingerprint(), shadow.stateFingerprint(), `${game.id} seed ${seed}: the forked match differs after turn ${rec.turn}`);
  }
  assert.equal(forked.decision(), null);
  assert.deepEqual(forked.outcome().ranks, original.outcome().ranks);
}
