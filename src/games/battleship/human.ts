import type { HumanPlay } from '../../core/game.js';
import { rngCreate } from '../../core/rng.js';
import { randomFleet } from './bots.js';
import { cellsOf, fleetLengths, type BattleshipConfig, type Strike } from './rules.js';
import { parseFleet, type BattleshipMessage } from './wire.js';

let fleets = 0;

/** The config a message carries (its numbers are strings on the wire). */
function configOf(view: BattleshipMessage): BattleshipConfig {
  return Object.fromEntries(
    Object.entries(view.board)
      .filter(([k]) => k !== 'opponent' && !k.endsWith('_strikes'))
      .map(([k, v]) => [k, Number(v)]),
  ) as BattleshipConfig;
}

/** A grid of marks with column digits on top and row numbers on the left, one string per line. */
function grid(width: number, height: number, mark: (x: number, y: number) => string): string[] {
  const pad = String(height - 1).length;
  const head = ' '.repeat(pad + 1) + Array.from({ length: width }, (_, x) => String(x % 10)).join('');
  const rows = Array.from({ length: height }, (_, y) => `${String(y).padStart(pad)} ${Array.from({ length: width }, (_, x) => mark(x, y)).join('')}`);
  return [head, ...rows];
}

/** Strikes by cell: 'X' a hit, 'o' a miss. */
function strikeMarks(strikes: readonly Strike[]): Map<string, string> {
  return new Map(strikes.map((s) => [s.target, s.result ? 'X' : 'o']));
}

/**
 * Terminal play: the fleet prompt lists the ship lengths to place (an empty line places them at random);
 * each shot shows both grids side by side, your fleet with the opponent's hits (X) and misses (o) on it,
 * and your shots; shots are "x,y".
 */
export const human: HumanPlay<BattleshipMessage> = {
  prompt(view, phase, seat) {
    const c = configOf(view);
    if (phase === 'init') {
      return `grid ${c.width}×${c.height}; place ships of lengths ${fleetLengths(c).join(', ')}\nships: x1,y1-x2,y2 separated by spaces (empty line: random placement):`;
    }
    if (view.action !== 'play-turn') return '';
    const placed = seat?.answered[0] as { boats?: unknown } | undefined;
    const fleet = parseFleet(placed?.boats);
    const ships = new Set(fleet.ok ? fleet.action.fleet.flatMap((ship) => cellsOf(ship).map(([x, y]) => `${x},${y}`)) : []);
    const his = strikeMarks(view.board.his_strikes);
    const mine = strikeMarks(view.board.your_strikes);
    const left = grid(c.width, c.height, (x, y) => his.get(`${x},${y}`) ?? (ships.has(`${x},${y}`) ? '#' : '.'));
    const right = grid(c.width, c.height, (x, y) => mine.get(`${x},${y}`) ?? '.');
    const w = left[0]!.length + 4;
    const board = [`${'your fleet'.padEnd(w)}your shots`, ...left.map((l, i) => `${l.padEnd(w)}${right[i]}`)];
    return `${board.join('\n')}\n(# your ship, X hit, o miss)\nyour shot (x,y):`;
  },
  parse(line, view, phase) {
    if (phase === 'init') {
      if (!line) return { answer: { name: 'human', boats: randomFleet(configOf(view), rngCreate(++fleets)) } };
      return { answer: { name: 'human', boats: line.split(/\s+/) } };
    }
    const m = /^(\d+)\s*[, ]\s*(\d+)$/.exec(line);
    return m ? { answer: { play: `${Number(m[1])},${Number(m[2])}` } } : { error: `"${line}" is not a shot: type x,y (e.g. 3,4)` };
  },
};
