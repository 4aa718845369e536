import type { TronState } from './rules.js';

/** The letter of a slot: A, B, C… */
export const letter = (slot: number) => String.fromCharCode(65 + slot);

/**
 * The board scaled down to at most `maxCols`×`maxRows` characters: each character stands for a block of
 * cells and shows the bot with a head in it (upper case), else a trail (lower case), else '.'.
 * Dead bots' trails are shown as ':' (they are gone from the board). Row 0 is at the top.
 */
export function renderBoard(s: TronState, maxCols = 100, maxRows = 50): string {
  const sx = Math.max(1, Math.ceil(s.width / maxCols));
  const sy = Math.max(1, Math.ceil(s.height / maxRows));
  const cols = Math.ceil(s.width / sx);
  const rows = Math.ceil(s.height / sy);
  const canvas = Array.from({ length: rows }, () => Array<string>(cols).fill('.'));
  s.trails.forEach((trail, slot) => {
    const dead = s.death[slot] !== null;
    trail.forEach(([x, y], i) => {
      const r = Math.floor(y / sy);
      const c = Math.floor(x / sx);
      const head = i === trail.length - 1;
      const mark = dead ? ':' : head ? letter(slot) : letter(slot).toLowerCase();
      const cur = canvas[r]![c]!;
      // A head wins over a trail, a living trail over a dead one.
      if (cur === '.' || cur === ':' || (head && !dead)) canvas[r]![c] = mark;
    });
  });
  const scale = sx > 1 || sy > 1 ? ` (1 character = ${sx}×${sy} cells)` : '';
  const status = s.trails
    .map((t, slot) => {
      const d = s.death[slot];
      return `${letter(slot)}: ${d ? `died on lap ${d.lap} — ${d.cause}` : `alive, length ${t.length}`}`;
    })
    .join('\n');
  return `lap ${s.lap}, ${s.width}×${s.height}${scale}\n${canvas.map((r) => r.join('')).join('\n')}\n${status}`;
}
