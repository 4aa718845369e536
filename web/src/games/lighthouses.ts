/** Lighthouses in the browser: its renderer and the commands a person may give from a turn's message. */
import type { AskPhase } from '../../../src/core/game.js';
import { onSegment, segmentsCross, type Point } from '../../../src/games/lighthouses/geometry.js';
import { mapOf } from '../../../src/games/lighthouses/index.js';
import type { LighthouseMap } from '../../../src/games/lighthouses/map.js';
import type { LighthousesTurn, LighthouseView } from '../../../src/games/lighthouses/wire.js';
import { createLighthousesRenderer } from './lighthouses-draw.js';
import type { Choice, SeatInfo, WebGame } from './types.js';

const SYNTAX = 'move DX DY · attack N · connect X Y · pass';

// Arrows for the 8 steps, y up as on the wire (dy = 1 is north, drawn upward).
const ARROWS: Record<string, string> = { '-1,1': '↖', '0,1': '↑', '1,1': '↗', '-1,0': '←', '1,0': '→', '-1,-1': '↙', '0,-1': '↓', '1,-1': '↘' };
const KEYS: Record<string, string> = { '0,1': 'ArrowUp', '0,-1': 'ArrowDown', '-1,0': 'ArrowLeft', '1,0': 'ArrowRight' };

// The turn message carries no map: the island comes from the match's config (parsed once per map).
let mapCache: { key: string; map: LighthouseMap | null } | null = null;
function islandOf(config: SeatInfo['config']): LighthouseMap | null {
  const key = typeof config.map === 'string' ? config.map : '';
  if (!key) return null;
  if (mapCache?.key !== key) {
    let map: LighthouseMap | null = null;
    try {
      map = mapOf({ map: key });
    } catch {
      map = null;
    }
    mapCache = { key, map };
  }
  return mapCache.map;
}

const same = (a: Point, b: Point) => a[0] === b[0] && a[1] === b[1];
const neutral = (l: LighthouseView) => l.owner === null || l.owner === -1;

/**
 * Whether the rules would take `connect` from `here` to `to`, as far as the message and the seat tell: both
 * owned by the same player, the seat (its slot is not in the message: SeatInfo gives it; null when a caller
 * left it out, then ownership by the seat is left to the server), the key held, no link yet, no lighthouse on
 * the way and no link crossed.
 */
function connectable(view: LighthousesTurn, here: LighthouseView, to: LighthouseView, slot: number | null): boolean {
  if (to === here || !to.have_key || neutral(here) || here.owner !== to.owner) return false;
  if (slot !== null && here.owner !== slot) return false;
  if (here.connections.some((c) => same(c, to.position))) return false;
  if (view.lighthouses.some((l) => l !== here && l !== to && onSegment(here.position, to.position, l.position))) return false;
  return !view.lighthouses.some((l) => l.connections.some((c) => segmentsCross(here.position, to.position, l.position, c)));
}

/** The commands a person may give now: the moves onto island cells, an attack, the connections, and pass. */
export function lighthousesChoices(view: unknown, phase: AskPhase, seat: SeatInfo): Choice[] {
  if (phase !== 'play' || !view || typeof view !== 'object' || !('view' in view)) return [];
  const turn = view as LighthousesTurn;
  const [px, py] = turn.position;
  const map = islandOf(seat.config);
  const out: Choice[] = [];
  const taken = new Set<string>();
  const withCell = (c: Choice, cell: Point): Choice => {
    const k = `${cell[0]},${cell[1]}`;
    if (taken.has(k)) return c;
    taken.add(k);
    return { ...c, cell: [cell[0], cell[1]] };
  };
  for (let dy = 1; dy >= -1; dy--) {
    for (let dx = -1; dx <= 1; dx++) {
      if (!dx && !dy) continue;
      const [x, y] = [px + dx, py + dy];
      // Without a map (an unknown config) every step is offered and the server judges it.
      if (map && map.island[y]?.[x] !== 1) continue;
      const k = `${dx},${dy}`;
      const key = KEYS[k];
      out.push(withCell({ label: `move ${ARROWS[k]}`, line: `move ${dx} ${dy}`, ...(key ? { key } : {}) }, [x, y]));
    }
  }
  const here = turn.lighthouses.find((l) => same(l.position, turn.position));
  if (here && turn.energy > 0) out.push(withCell({ label: `attack with all ${turn.energy} energy`, line: `attack ${turn.energy}` }, turn.position));
  if (here) {
    // The shell always gives the slot; callers from before SeatInfo had it (the web tests' no-slot runs) do not.
    const slot = Number.isInteger(seat.slot) ? seat.slot : null;
    for (const to of turn.lighthouses) {
      if (!connectable(turn, here, to, slot)) continue;
      const [x, y] = to.position;
      out.push(withCell({ label: `connect to ${x},${y}`, line: `connect ${x} ${y}` }, to.position));
    }
  }
  out.push({ label: 'pass', line: 'pass' });
  return out;
}

/** Lighthouses for the browser: the island renderer and a person's commands (buttons, clicks, arrow keys, typed lines). */
export const lighthouses: WebGame = {
  id: 'lighthouses',
  createRenderer: createLighthousesRenderer,
  play: {
    choices: lighthousesChoices,
    text: (view, phase) => (phase === 'play' && view && typeof view === 'object' && 'view' in view ? { placeholder: `${SYNTAX} (y up), e.g. move 1 0` } : null),
  },
  scoreEachStep: true,
  commands: true,
};
