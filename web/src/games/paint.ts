/** Paint in the browser: its renderer and the sixteen actions (walk or shoot × 8 directions) a person may take. */
import type { AskPhase } from '../../../src/core/game.js';
import type { PaintTurn } from '../../../src/games/paint/wire.js';
import { createPaintRenderer } from './paint-draw.js';
import type { Cell, Choice, SeatInfo, WebGame } from './types.js';

/** The direction words the terminal parser reads, with their [row step, column step] and an arrow. */
const DIRS: { word: string; d: [number, number]; arrow: string }[] = [
  { word: 'nw', d: [-1, -1], arrow: '↖' },
  { word: 'n', d: [-1, 0], arrow: '↑' },
  { word: 'ne', d: [-1, 1], arrow: '↗' },
  { word: 'w', d: [0, -1], arrow: '←' },
  { word: 'e', d: [0, 1], arrow: '→' },
  { word: 'sw', d: [1, -1], arrow: '↙' },
  { word: 's', d: [1, 0], arrow: '↓' },
  { word: 'se', d: [1, 1], arrow: '↘' },
];
const KEYS: Record<string, string> = { n: 'ArrowUp', s: 'ArrowDown', w: 'ArrowLeft', e: 'ArrowRight' };

// The turn message does not say which player is the seat's: the hello (`player_id`) does, when the page shows it.
let lastHelloId: string | null = null;

/** The seat's own square [row, column], when the shell gives the slot or the hello was seen; else null. */
function ownSquare(view: PaintTurn, seat: SeatInfo): [number, number] | null {
  const ids = Object.keys(view.player_positions);
  const slot = (seat as SeatInfo & { slot?: unknown }).slot;
  const id = typeof slot === 'number' ? ids[slot] : lastHelloId;
  return id !== undefined && id !== null && view.player_positions[id] ? view.player_positions[id]! : null;
}

/**
 * The actions a person may take: walking and shooting are legal every way (a walk off the board or into an
 * obstacle just stays put), so all sixteen are offered. A click on a neighbour square walks there, on the
 * square two steps away shoots that way (when the own square is known); the arrow keys walk.
 */
export function paintChoices(view: unknown, phase: AskPhase, seat: SeatInfo): Choice[] {
  if (phase === 'init') {
    const id = (view as { player_id?: unknown } | null)?.player_id;
    if (typeof id === 'string') lastHelloId = id;
    return [];
  }
  if (!view || typeof view !== 'object' || !('turns_left' in view)) return [];
  const turn = view as PaintTurn;
  const at = ownSquare(turn, seat);
  const cellAt = (steps: number, [di, dj]: [number, number]): { cell: Cell } | object => {
    if (!at) return {};
    const [i, j] = [at[0] + di * steps, at[1] + dj * steps];
    return i >= 0 && j >= 0 && i < turn.height && j < turn.width ? { cell: [j, i] as const } : {};
  };
  const out: Choice[] = [];
  for (const { word, d, arrow } of DIRS) {
    const key = KEYS[word];
    out.push({ label: `walk ${arrow}`, line: `walk ${word}`, ...cellAt(1, d), ...(key ? { key } : {}) });
  }
  for (const { word, d, arrow } of DIRS) out.push({ label: `shoot ${arrow}`, line: `shoot ${word}`, ...cellAt(2, d) });
  return out;
}

/** Paint for the browser: the board renderer and a person's sixteen actions (buttons, clicks, arrow keys). */
export const paint: WebGame = {
  id: 'paint',
  createRenderer: createPaintRenderer,
  play: { choices: paintChoices },
  scoreEachStep: true,
  commands: true,
};
