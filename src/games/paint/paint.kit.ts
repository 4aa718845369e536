// Helpers for paint's tests: boards drawn as text, turns played through the real engine and wire.
import assert from 'node:assert/strict';
import { MatchEngine } from '../../core/engine.js';
import type { AnyGame, Fault } from '../../core/game.js';
import { paint as typed } from './index.js';
import { EMPTY, OBSTACLE, type PaintState, type Vec } from './rules.js';

/** The game, untyped as the runner holds it. */
export const paint: AnyGame = typed;

// Compass directions as [row step, column step]: rows grow downwards, so north is [-1, 0].
/** North: up a row. */
export const N: Vec = [-1, 0];
/** South: down a row. */
export const S: Vec = [1, 0];
/** East: the next column. */
export const E: Vec = [0, 1];
/** West: the previous column. */
export const W: Vec = [0, -1];
/** North-east. */
export const NE: Vec = [-1, 1];
/** North-west. */
export const NW: Vec = [-1, -1];
/** South-east. */
export const SE: Vec = [1, 1];
/** South-west. */
export const SW: Vec = [1, -1];

/** A walk answer (the nonce is added when the turn is played). */
export const walk = (direction: unknown) => ({ type: 'walk', direction });
/** A shoot answer (the nonce is added when the turn is played). */
export const shoot = (direction: unknown) => ({ type: 'shoot', direction });

/**
 * A match whose board is drawn as text: 'A'…'Z' an avatar (slot 0, 1, … by letter) standing on its own
 * colour, 'a'…'z' paint, '.' unpainted, '#' an obstacle. Inits are answered; `turns` turns remain.
 */
export function drawn(rows: string[], turns = 10) {
  const h = rows.length;
  const w = rows[0]!.length;
  const letters = rows.join('').match(/[A-Z]/g) ?? [];
  const players = Math.max(...letters.map((c) => c.charCodeAt(0) - 64));
  const engine = new MatchEngine(paint, { config: { width: w, height: h, turns }, seed: 1, players });
  const d = engine.decision()!;
  engine.commit(
    d,
    d.seats.map((slot) => engine.read(slot, 'init', { ready: true })),
  );
  const s = engine.state as PaintState;
  s.colors = [];
  s.obstacles = [];
  rows.forEach((row, i) =>
    [...row].forEach((c, j) => {
      if (c === '#') s.obstacles.push([i, j]);
      s.colors.push(c === '.' ? EMPTY : c === '#' ? OBSTACLE : c.toLowerCase().charCodeAt(0) - 97);
      if (/[A-Z]/.test(c)) s.positions[c.charCodeAt(0) - 65] = [i, j];
    }),
  );
  const state = () => engine.state as PaintState;
  /** Plays a turn: per slot an answer (turns_left added unless given), a fault, or nothing (timeout). */
  const turn = (answers: Record<number, unknown>) => {
    const dec = engine.decision()!;
    assert.equal(dec.phase, 'play');
    const moves = dec.seats.map((slot) => {
      const a = answers[slot] as { fault?: Fault } | undefined;
      if (a === undefined) return { slot, fault: { kind: 'timeout' as const, detail: 'no answer within 500 ms' } };
      if (a && typeof a === 'object' && a.fault) return { slot, fault: a.fault };
      const withNonce = a && typeof a === 'object' && !('turns_left' in a) ? { turns_left: state().turnsLeft, ...a } : a;
      return engine.read(slot, 'play', withNonce);
    });
    engine.commit(dec, moves);
    return moves;
  };
  /** The board as text, in the same drawing as `drawn`. */
  const picture = () => {
    const st = state();
    const out: string[] = [];
    for (let i = 0; i < st.height; i++) {
      let row = '';
      for (let j = 0; j < st.width; j++) {
        const c = st.colors[i * st.width + j]!;
        const who = st.positions.findIndex(([a, b]) => a === i && b === j);
        row += who >= 0 ? String.fromCharCode(65 + who) : c === EMPTY ? '.' : c === OBSTACLE ? '#' : String.fromCharCode(97 + c);
      }
      out.push(row);
    }
    return out;
  };
  const message = () => paint.wire.encodeJson!(engine.state, 0, { phase: 'play', matchId: '1', names: [] });
  return { engine, state, turn, picture, message };
}
