import type { BuiltinBotFactory } from '../../core/game.js';
import { rngCreate, rngPick } from '../../core/rng.js';
import type { PaintConfig } from './board.js';
import { DIRECTIONS, EMPTY, OBSTACLE, resolveTurn, type Field, type PaintAction } from './rules.js';
import type { PaintMessage, PaintTurn } from './wire.js';

/** Every action a player may take: walk or shoot in each of the 8 directions. */
const ACTIONS: PaintAction[] = (['walk', 'shoot'] as const).flatMap((type) => DIRECTIONS.map((direction) => ({ type, direction })));

/** The answer for an action, with the turn's nonce copied as the reference SDKs do. */
const answer = (view: PaintTurn, a: PaintAction) => ({ turns_left: view.turns_left, type: a.type, direction: a.direction });

/** Like the reference sample bots: a uniformly random type and one of the 8 directions. */
const random: BuiltinBotFactory<PaintMessage, PaintConfig> = {
  description: 'a random type and direction each turn (the reference sample bot)',
  create({ seed }) {
    const rng = rngCreate(seed);
    return {
      act(view) {
        if (!('turns_left' in view)) return { ready: true };
        return answer(view, rngPick(rng, ACTIONS));
      },
    };
  },
};

/** A turn message read into a field of slot numbers (players in the order of player_positions). */
export function fieldOf(view: PaintTurn): Field {
  const ids = Object.keys(view.player_positions);
  const slotOf = new Map(ids.map((id, slot) => [id, slot]));
  const colors = new Int16Array(view.width * view.height).fill(EMPTY);
  view.colors.forEach((row, i) => row.forEach((c, j) => c !== null && (colors[i * view.width + j] = slotOf.get(c) ?? EMPTY)));
  for (const [i, j] of view.obstacles ?? []) colors[i * view.width + j] = OBSTACLE;
  return { width: view.width, height: view.height, colors, positions: ids.map((id) => [view.player_positions[id]![0], view.player_positions[id]![1]]) };
}

const clone = (f: Field): Field => ({ width: f.width, height: f.height, colors: Int16Array.from(f.colors), positions: f.positions.map(([i, j]) => [i, j]) });

/** My squares minus the best opponent's. */
function lead(f: Field, me: number): number {
  const count = new Int32Array(f.positions.length);
  for (const c of f.colors) if (c >= 0) count[c]!++;
  let best = 0;
  for (let s = 0; s < count.length; s++) if (s !== me) best = Math.max(best, count[s]!);
  return count[me]! - best;
}

/** King-move steps from my avatar to the nearest square I could still gain (not mine, not an obstacle). */
function distanceToGain(f: Field, me: number): number {
  const { width: w, height: h, colors } = f;
  const seen = new Uint8Array(w * h);
  const [si, sj] = f.positions[me]!;
  let frontier = [si * w + sj];
  seen[frontier[0]!] = 1;
  for (let d = 0; frontier.length; d++) {
    const next: number[] = [];
    for (const k of frontier) {
      if (colors[k] !== me) return d;
      const i = Math.floor(k / w);
      const j = k % w;
      for (const [di, dj] of DIRECTIONS) {
        const a = i + di;
        const b = j + dj;
        if (a < 0 || b < 0 || a >= h || b >= w || seen[a * w + b] || colors[a * w + b] === OBSTACLE) continue;
        seen[a * w + b] = 1;
        next.push(a * w + b);
      }
    }
    frontier = next;
  }
  return w + h;
}

/** The outcome of my action with everybody else standing still (they still block walks and shots). */
function after(f: Field, me: number, a: PaintAction): Field {
  const g = clone(f);
  const actions: (PaintAction | null)[] = f.positions.map(() => null);
  actions[me] = a;
  resolveTurn(g, actions);
  return g;
}

/**
 * Greedy with a two-turn lookahead on its own actions (opponents assumed idle): the lead after this
 * action plus most of the best lead after a second one, so it walks to lengthen a trail and then shoots
 * along it; when nothing nearby gains, it heads for the nearest square it does not own.
 */
const painter: BuiltinBotFactory<PaintMessage, PaintConfig> = {
  description: 'two-turn lookahead on squares painted: walks to build own-coloured trails, shoots along them, steals colour',
  create({ slot, seed }) {
    const rng = rngCreate(seed);
    return {
      act(view) {
        if (!('turns_left' in view)) return { ready: true };
        const f = fieldOf(view);
        const base = lead(f, slot);
        let best: PaintAction[] = [];
        let bestScore = -Infinity;
        for (const a of ACTIONS) {
          const g = after(f, slot, a);
          const now = lead(g, slot) - base;
          let then = 0;
          if (view.turns_left > 1) for (const b of ACTIONS) then = Math.max(then, lead(after(g, slot, b), slot) - base - now);
          const score = now + 0.9 * then - 0.01 * distanceToGain(g, slot);
          if (score > bestScore + 1e-9) [best, bestScore] = [[a], score];
          else if (Math.abs(score - bestScore) <= 1e-9) best.push(a);
        }
        return answer(view, rngPick(rng, best));
      },
    };
  },
};

/** The built-in paint bots. */
export const bots = { random, painter };
