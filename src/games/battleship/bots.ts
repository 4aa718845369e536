import type { BuiltinBotFactory } from '../../core/game.js';
import { rngCreate, rngInt, rngPick, type RngState } from '../../core/rng.js';
import { cellsOf, fleetLengths, type BattleshipConfig, type Ship } from './rules.js';
import type { BattleshipBoard, BattleshipMessage } from './wire.js';

/** The config as numbers, read back from the message's strings. */
function configOf(b: BattleshipBoard): BattleshipConfig {
  const n = (k: keyof BattleshipBoard) => Number(b[k]);
  return {
    width: n('width'),
    height: n('height'),
    ship1: n('ship1'),
    ship2: n('ship2'),
    ship3: n('ship3'),
    ship4: n('ship4'),
    ship5: n('ship5'),
    ship6: n('ship6'),
    maxTurns: 0,
  };
}

/** A random legal fleet: longest ships first, each at a random free spot; starts over when stuck. */
export function randomFleet(c: BattleshipConfig, rng: RngState): string[] {
  for (;;) {
    const taken = new Set<string>();
    const out: string[] = [];
    for (const len of fleetLengths(c)) {
      let placed = false;
      for (let tries = 0; tries < 200 && !placed; tries++) {
        const across = len <= c.width && (len > c.height || rngInt(rng, 0, 1) === 0);
        const x = rngInt(rng, 0, c.width - (across ? len : 1));
        const y = rngInt(rng, 0, c.height - (across ? 1 : len));
        const ship: Ship = across ? [x, y, x + len - 1, y] : [x, y, x, y + len - 1];
        const cells = cellsOf(ship).map(([a, b]) => `${a},${b}`);
        if (cells.some((k) => taken.has(k))) continue;
        cells.forEach((k) => taken.add(k));
        out.push(`${ship[0]},${ship[1]}-${ship[2]},${ship[3]}`);
        placed = true;
      }
      if (!placed) break;
    }
    if (out.length === fleetLengths(c).length) return out;
  }
}

/** The original stupid bot: random placement, shots uniformly at random (repeats included). */
const random: BuiltinBotFactory<BattleshipMessage> = {
  description: 'random placement, random shots with repeats (the original stupid bot)',
  create({ seed }) {
    const rng = rngCreate(seed);
    return {
      act(view) {
        const c = configOf(view.board);
        if (view.action === 'init') return { name: 'random', boats: randomFleet(c, rng) };
        return { play: `${rngInt(rng, 0, c.width - 1)},${rngInt(rng, 0, c.height - 1)}` };
      },
    };
  },
};

/**
 * Hunt/target with a probability density: every placement of every ship still afloat that fits the
 * misses and the sunk ships adds weight to its cells; placements through unresolved hits weigh far more,
 * so after a hit it finishes the ship. It shoots the heaviest unshot cell.
 */
const hunter: BuiltinBotFactory<BattleshipMessage> = {
  description: 'hunt/target with a probability-density map',
  create({ seed }) {
    const rng = rngCreate(seed);
    return {
      act(view) {
        const c = configOf(view.board);
        if (view.action === 'init') return { name: 'hunter', boats: randomFleet(c, rng) };
        const { width: w, height: h } = c;
        const state = new Uint8Array(w * h); // 0 unknown, 1 miss, 2 hit (afloat), 3 sunk
        const remaining = fleetLengths(c);
        for (const { target, result } of view.board.your_strikes) {
          const [x, y] = target.split(',').map(Number) as [number, number];
          const i = y * w + x;
          if (result === '') {
            if (state[i] === 0) state[i] = 1;
          } else {
            state[i] = state[i] === 3 ? 3 : 2;
            if (result !== 'hit') resolveSunk(state, w, h, x, y, remaining);
          }
        }
        // Touching ships can make the sunk-ship guess wrong and leave no placement that fits; then sunk
        // cells stop blocking so the map still points at the ships left.
        let weight = densityMap(state, w, h, remaining, true);
        if (!weight.some((v, i) => v > 0 && state[i] === 0)) weight = densityMap(state, w, h, remaining, false);
        let best: number[] = [];
        let bestW = -1;
        for (let i = 0; i < w * h; i++) {
          if (state[i] !== 0) continue;
          if (weight[i]! > bestW) [best, bestW] = [[i], weight[i]!];
          else if (weight[i] === bestW) best.push(i);
        }
        const cell = best.length ? rngPick(rng, best) : rngInt(rng, 0, w * h - 1);
        return { play: `${cell % w},${Math.floor(cell / w)}` };
      },
    };
  },
};

/**
 * How many placements of the ships still afloat cover each cell: misses block, placements through
 * unresolved hits weigh 1000× per hit; sunk cells block unless `sunkBlocks` is off.
 */
function densityMap(state: Uint8Array, w: number, h: number, remaining: number[], sunkBlocks: boolean): Float64Array {
  const weight = new Float64Array(w * h);
  for (const len of new Set(remaining)) {
    const copies = remaining.filter((l) => l === len).length;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (const [dx, dy] of [
          [1, 0],
          [0, 1],
        ] as const) {
          if (x + dx * (len - 1) >= w || y + dy * (len - 1) >= h) continue;
          let hits = 0;
          let ok = true;
          for (let k = 0; k < len && ok; k++) {
            const s = state[(y + dy * k) * w + x + dx * k]!;
            if (s === 1 || (s === 3 && sunkBlocks)) ok = false;
            else if (s === 2) hits++;
          }
          if (!ok) continue;
          const wgt = copies * (hits ? 1000 ** hits : 1);
          for (let k = 0; k < len; k++) weight[(y + dy * k) * w + x + dx * k]! += wgt;
        }
      }
    }
  }
  return weight;
}

/**
 * A "hit and sunk" at (x, y): the sunk ship is one of the straight runs of afloat hits through (x, y)
 * whose length is still afloat. Only the cells common to every such run are certainly sunk; the others
 * stay hits, so a neighbouring ship that touches this one is still hunted. The longest candidate length
 * leaves the fleet.
 */
function resolveSunk(state: Uint8Array, w: number, h: number, x: number, y: number, remaining: number[]): void {
  const candidates: number[][] = [];
  for (const len of new Set(remaining)) {
    for (const [dx, dy] of [
      [1, 0],
      [0, 1],
    ] as const) {
      for (let start = -(len - 1); start <= 0; start++) {
        const cells: number[] = [];
        for (let k = 0; k < len; k++) {
          const cx = x + (start + k) * dx;
          const cy = y + (start + k) * dy;
          if (cx < 0 || cy < 0 || cx >= w || cy >= h || state[cy * w + cx] !== 2) break;
          cells.push(cy * w + cx);
        }
        if (cells.length === len) candidates.push(cells);
      }
    }
  }
  const len = candidates.length ? Math.max(...candidates.map((c) => c.length)) : Math.min(...remaining);
  const sure = candidates.length ? candidates.reduce((a, b) => a.filter((i) => b.includes(i))) : [y * w + x];
  for (const i of sure) state[i] = 3;
  remaining.splice(remaining.indexOf(len), 1);
}

/** The built-in Battleship bots. */
export const bots = { random, hunter };
