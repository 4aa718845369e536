/** Smart-dog in the browser: its renderer and the lines of a person's turn (dog moves and barks, then `end`). */
import type { AskPhase } from '../../../src/core/game.js';
import { createSmartDogRenderer } from './smartdog-draw.js';
import type { Choice, SeatInfo, WebGame } from './types.js';

/** One object line of a turn's message (`obj  "id":1,"type":"Dog",…`). */
interface Obj {
  id?: number;
  type?: 'Dog' | 'Sheep';
  x: number;
  y: number;
  owner?: number;
  action?: string;
}

/** What the first turn's `start` and `landscape` lines tell, and later turns do not repeat. */
interface Known {
  you: number;
  rows: number;
  cols: number;
  terrain: string[];
}

const STEPS = { up: [0, -1, '↑', 'ArrowUp'], down: [0, 1, '↓', 'ArrowDown'], left: [-1, 0, '←', 'ArrowLeft'], right: [1, 0, '→', 'ArrowRight'] } as const;

// Only the first turn's message says who the seat is and what the land is: the last one seen is kept for the
// turns after it (a page plays one seat; a new match's first turn replaces it).
let remembered: Known | null = null;

/** A server line's argument: the JSON inside its outer braces (or brackets, for `landscape`). */
function argOf(line: string, word: string, open: string, close: string): unknown {
  try {
    return JSON.parse(`${open}${line.slice(word.length)}${close}`);
  } catch {
    return null;
  }
}

/** Reads a turn's lines: the start facts (when present), the objects, and whether the message asks for a turn. */
function read(lines: readonly string[]): { start: Partial<Known> | null; objs: Obj[]; asks: boolean } {
  let start: Partial<Known> | null = null;
  const objs: Obj[] = [];
  let asks = false;
  for (const line of lines) {
    const word = line.split(/\s/, 1)[0];
    if (word === 'start') {
      const a = argOf(line, word, '{', '}') as { you?: number; rows?: number; cols?: number } | null;
      if (a) start = { ...(start ?? {}), you: a.you, rows: a.rows, cols: a.cols };
    } else if (word === 'landscape') {
      const t = argOf(line, word, '[', ']');
      if (Array.isArray(t)) start = { ...(start ?? {}), terrain: t as string[] };
    } else if (word === 'obj') {
      const o = argOf(line, word, '{', '}') as Obj | null;
      if (o && typeof o.x === 'number' && typeof o.y === 'number') objs.push(o);
    } else if (word === 'turn') asks = true;
  }
  return { start, objs, asks };
}

/**
 * Who the seat is (1-based) and what it knows of the land: the first turn's lines; else the seat's `slot`
 * with the land remembered. A caller that leaves the slot out (the web tests' no-slot runs) gets what was
 * remembered, else the one owner of the dogs in view (a seat's own dogs always see themselves).
 */
function whoAmI(start: Partial<Known> | null, objs: Obj[], seat: SeatInfo): Partial<Known> | null {
  if (start?.you !== undefined && start.terrain && start.rows && start.cols) return (remembered = start as Known);
  const land = remembered ? { rows: remembered.rows, cols: remembered.cols, terrain: remembered.terrain } : {};
  if (Number.isInteger(seat.slot)) return { ...land, you: seat.slot + 1 };
  if (remembered) return remembered;
  const owners = new Set(objs.flatMap((o) => (o.type === 'Dog' ? [o.owner] : [])));
  return owners.size === 1 ? { you: [...owners][0] } : null;
}

/**
 * A person's turn is a stream of lines ended by `end` (as a TCP client sends them): per own dog, the steps
 * onto free walkable cells (a click on the cell) and a bark (a click on the dog) when it is not scared, then
 * `end`. The message does not say which dogs already moved this turn: a second move gets the server's warning.
 */
export function smartdogChoices(view: unknown, phase: AskPhase, seat: SeatInfo): Choice[] {
  if (phase !== 'play' || !Array.isArray(view)) return [];
  const { start, objs, asks } = read(view.filter((l): l is string => typeof l === 'string'));
  if (!asks) return [];
  const me = whoAmI(start, objs, seat);
  const end: Choice = { label: 'end turn', line: 'end' };
  if (!me?.you) return [end];
  const { rows, cols, terrain } = me;
  const taken = new Set(objs.filter((o) => o.type).map((o) => `${o.x},${o.y}`));
  const clicked = new Set<string>();
  const out: Choice[] = [];
  const dogs = objs.filter((o) => o.type === 'Dog' && o.owner === me.you && typeof o.id === 'number').sort((a, b) => a.id! - b.id!);
  for (const d of dogs) {
    if (d.action !== 'panic') {
      for (const [dir, [dx, dy, arrow, key]] of Object.entries(STEPS)) {
        // The board is a torus; without its size (no first turn seen) the step is offered unwrapped.
        const x = cols ? (d.x + dx + cols) % cols : d.x + dx;
        const y = rows ? (d.y + dy + rows) % rows : d.y + dy;
        const ch = terrain?.[y]?.[x];
        if (ch === '#' || ch === '^' || taken.has(`${x},${y}`)) continue;
        const k = `${x},${y}`;
        const cell = x >= 0 && y >= 0 && !clicked.has(k) ? (clicked.add(k), { cell: [x, y] as const }) : {};
        out.push({ label: `dog ${d.id} ${arrow}`, line: `do ${d.id} move ${dir}`, ...cell, ...(dogs.length === 1 ? { key } : {}) });
      }
    }
    // Only a calm dog barks (the message shows a scared one's action as panic or indignant).
    if (d.action === 'move') out.push({ label: `dog ${d.id} bark`, line: `do ${d.id} bark`, cell: [d.x, d.y] });
  }
  out.push(end);
  return out;
}

/** Smart-dog for the browser: the pasture renderer and a person's turn of dog commands ended by `end`. */
export const smartdog: WebGame = {
  id: 'smartdog',
  createRenderer: createSmartDogRenderer,
  play: {
    choices: smartdogChoices,
    text: (view, phase) =>
      phase === 'play' && Array.isArray(view) ? { placeholder: 'do ID move up|down|left|right · do ID bark · end (e.g. do 1 move up)' } : null,
  },
};
