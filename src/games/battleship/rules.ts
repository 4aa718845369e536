import type { Move } from '../../core/game.js';

/** Battleship's match configuration: grid size, ship counts by length (ship1..ship6), optional turn cap. */
export type BattleshipConfig = {
  width: number;
  height: number;
  ship1: number;
  ship2: number;
  ship3: number;
  ship4: number;
  ship5: number;
  ship6: number;
  maxTurns: number;
};

/** A ship as placed: its two ends (inclusive), on one row or one column. */
export type Ship = [number, number, number, number];

/** One shot and what it did, as on the wire. */
export interface Strike {
  target: string;
  result: '' | 'hit' | 'hit and sunk' | 'hit sunk and win';
}

/** An action: the init answer's fleet, or a shot. */
export type BattleshipAction = BattleshipFleet | BattleshipShot;
/** A hello's action: the fleet a player placed. */
export type BattleshipFleet = { fleet: Ship[] };
/** A turn's action: a shot at x, y. */
export type BattleshipShot = { shot: [number, number] };

/** Battleship state: both fleets (null until placed), each side's strikes, whose turn, and how it ended. */
export interface BattleshipState {
  config: BattleshipConfig;
  placed: number;
  fleets: (Ship[] | null)[];
  strikes: Strike[][];
  toPlay: number;
  shots: number;
  winner: number | null;
  ending: string | null;
  forfeit: { slot: number; turn: number; kind: string; detail: string } | null;
}

/** The cells of a ship, from one end to the other. */
export function cellsOf([x1, y1, x2, y2]: Ship): [number, number][] {
  const n = Math.max(Math.abs(x2 - x1), Math.abs(y2 - y1)) + 1;
  const dx = Math.sign(x2 - x1);
  const dy = Math.sign(y2 - y1);
  return Array.from({ length: n }, (_, i) => [x1 + i * dx, y1 + i * dy] as [number, number]);
}

/** How many ships of length `len` (1..6) the fleet has. */
export const shipsOf = (c: BattleshipConfig, len: number): number => c[`ship${len}` as `ship${1 | 2 | 3 | 4 | 5 | 6}`];

/** The lengths a config asks for, longest first (e.g. [5, 4, 3, 3, 2]). */
export function fleetLengths(c: BattleshipConfig): number[] {
  const out: number[] = [];
  for (let len = 6; len >= 1; len--) for (let i = 0; i < shipsOf(c, len); i++) out.push(len);
  return out;
}

/** Why a config cannot be played (before any bot is called), or null. */
export function validateConfig(c: BattleshipConfig): string | null {
  const lengths = fleetLengths(c);
  if (!lengths.length) return 'there must be at least one ship (ship1..ship6 are all 0)';
  const area = lengths.reduce((a, b) => a + b, 0);
  const max = Math.floor((c.width * c.height) / 2);
  if (area > max) return `the ships cover ${area} cells but at most ${max} (half of ${c.width}×${c.height}) are allowed`;
  const longest = lengths[0]!;
  if (longest > c.width && longest > c.height) return `a ship of length ${longest} fits neither the width ${c.width} nor the height ${c.height}`;
  return null;
}

/** Why a fleet is not acceptable (ships checked in order, then the counts), or null. */
export function checkFleet(c: BattleshipConfig, fleet: Ship[]): string | null {
  const taken = new Set<string>();
  for (const [i, ship] of fleet.entries()) {
    const [x1, y1, x2, y2] = ship;
    const name = `ship ${i + 1} "${x1},${y1}-${x2},${y2}"`;
    if (x1 !== x2 && y1 !== y2) return `ships badly placed: ${name} is neither on one row nor on one column`;
    if ([x1, x2].some((x) => x >= c.width) || [y1, y2].some((y) => y >= c.height)) {
      return `ships badly placed: ${name} is off the ${c.width}×${c.height} grid (x 0..${c.width - 1}, y 0..${c.height - 1})`;
    }
    for (const [x, y] of cellsOf(ship)) {
      if (taken.has(`${x},${y}`)) return `ships badly placed: ${name} overlaps an earlier ship at ${x},${y}`;
      taken.add(`${x},${y}`);
    }
  }
  const counts = new Map<number, number>();
  for (const ship of fleet) counts.set(cellsOf(ship).length, (counts.get(cellsOf(ship).length) ?? 0) + 1);
  for (const len of new Set([1, 2, 3, 4, 5, 6, ...counts.keys()])) {
    const want = len <= 6 ? shipsOf(c, len) : 0;
    const got = counts.get(len) ?? 0;
    if (want !== got) return `wrong number of ships: ${want} of length ${len} expected, got ${got}`;
  }
  return null;
}

/** A new match: nothing placed yet, slot 0 shoots first. */
export function setup(config: BattleshipConfig): BattleshipState {
  return { config, placed: 0, fleets: [null, null], strikes: [[], []], toPlay: 0, shots: 0, winner: null, ending: null, forfeit: null };
}

/** What a shot by `shooter` at (x, y) does, given its earlier strikes. */
function resolveShot(s: BattleshipState, shooter: number, x: number, y: number): Strike['result'] {
  const fleet = s.fleets[1 - shooter]!;
  const hits = new Set(s.strikes[shooter]!.filter((k) => k.result !== '').map((k) => k.target));
  const sunk = (ship: Ship) => cellsOf(ship).every(([cx, cy]) => hits.has(`${cx},${cy}`));
  const ship = fleet.find((sh) => cellsOf(sh).some(([cx, cy]) => cx === x && cy === y));
  if (!ship || sunk(ship)) return ''; // a miss, or a cell of a ship already sunk
  hits.add(`${x},${y}`);
  if (!sunk(ship)) return 'hit';
  return fleet.every(sunk) ? 'hit sunk and win' : 'hit and sunk';
}

/** Applies a placement (unless the fleet was chosen in the config); a failed one loses at once. */
export function placeFleet(s: BattleshipState, moves: Move<BattleshipFleet>[]): BattleshipState {
  const m = moves[0]!;
  if (m.fault) {
    s.forfeit = { slot: m.slot, turn: 0, kind: m.fault.kind, detail: m.fault.detail };
    return s;
  }
  // A match started from chosen fleets (`--set fleets=…`) has them already: the init answer is checked but not used.
  s.fleets[m.slot] ??= m.action.fleet;
  s.placed++;
  return s;
}

/** Applies a shot; any fault loses at once. */
export function apply(s: BattleshipState, moves: Move<BattleshipShot>[]): BattleshipState {
  const m = moves[0]!;
  if (m.fault) {
    s.forfeit = { slot: m.slot, turn: s.shots + 1, kind: m.fault.kind, detail: m.fault.detail };
    return s;
  }
  const [x, y] = m.action.shot;
  const result = resolveShot(s, m.slot, x, y);
  s.strikes[m.slot]!.push({ target: `${x},${y}`, result });
  s.shots++;
  s.toPlay = 1 - s.toPlay;
  if (result === 'hit sunk and win') {
    s.winner = m.slot;
    s.ending = `sank the last ship with ${x},${y} on turn ${s.shots}`;
  } else if (s.config.maxTurns > 0 && s.shots >= s.config.maxTurns) {
    s.ending = `the turn cap (${s.config.maxTurns} shots) was reached`;
  }
  return s;
}
