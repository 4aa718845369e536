import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';

/**
 * The state of a seeded random generator, as plain numbers so it can live inside a game state,
 * be serialised with it, and resume exactly where it stopped.
 */
export type RngState = number[];

/** Creates the generator state for a 32-bit seed. */
export function rngCreate(seed: number): RngState {
  return [...xoroshiro128plus(seed | 0).getState()];
}

/** Draws an integer uniformly in [from, to] (both included) and advances `state` in place. */
export function rngInt(state: RngState, from: number, to: number): number {
  const gen = xoroshiro128plusFromState(state);
  const value = uniformInt(gen, from, to);
  const next = gen.getState();
  for (let i = 0; i < next.length; i++) state[i] = next[i]!;
  return value;
}

/** Picks one element of a non-empty array uniformly, advancing `state` in place. */
export function rngPick<T>(state: RngState, items: readonly T[]): T {
  if (items.length === 0) throw new Error('rngPick: empty array');
  return items[rngInt(state, 0, items.length - 1)]!;
}

/** Shuffles a copy of `items` (Fisher–Yates), advancing `state` in place. */
export function rngShuffle<T>(state: RngState, items: readonly T[]): T[] {
  const out = items.slice();
  // One generator for the whole shuffle: the same draws as rngInt one by one, without a generator each.
  const gen = xoroshiro128plusFromState(state);
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniformInt(gen, 0, i);
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  const next = gen.getState();
  for (let i = 0; i < next.length; i++) state[i] = next[i]!;
  return out;
}

/** Derives an independent 32-bit seed from a seed and a label (for per-bot generators). */
export function deriveSeed(seed: number, label: string | number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const ch of String(label)) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}
