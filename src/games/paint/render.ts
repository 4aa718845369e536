import { scores, type PaintState } from './rules.js';
import type { PaintTurn } from './wire.js';

/** The letter of a slot: A, B, C… (then '?' past Z). */
export const letter = (slot: number) => (slot < 26 ? String.fromCharCode(65 + slot) : '?');

/**
 * A grid of characters with row and column numbers: paint in lower case, avatars in upper case, '.'
 * unpainted, '#' an obstacle. Row 0 is at the top; columns are numbered by their last digit.
 */
function grid(width: number, height: number, cell: (i: number, j: number) => string): string {
  const pad = String(height - 1).length;
  const head = `${' '.repeat(pad + 1)}${Array.from({ length: width }, (_, j) => j % 10).join('')}`;
  const rows = Array.from({ length: height }, (_, i) => `${String(i).padStart(pad)} ${Array.from({ length: width }, (_, j) => cell(i, j)).join('')}`);
  return [head, ...rows].join('\n');
}

/** The board of a state for a terminal, with each player's letter, id, square and score. */
export function renderBoard(s: PaintState): string {
  const at = new Map(s.positions.map(([i, j], slot) => [i * s.width + j, slot]));
  const board = grid(s.width, s.height, (i, j) => {
    const k = i * s.width + j;
    const c = s.colors[k]!;
    if (at.has(k)) return letter(at.get(k)!);
    return c >= 0 ? letter(c).toLowerCase() : c === -2 ? '#' : '.';
  });
  const sc = scores(s);
  const legend = s.ids.map((id, slot) => `${letter(slot)} ${id} at [${s.positions[slot]!.join(',')}]: ${sc[slot]}`).join(' · ');
  const played = s.turns - s.turnsLeft;
  const failed = s.unresponsive.length ? `\nno turn played: unresponsive ${s.unresponsive.map((u) => s.ids[u.slot]).join(', ')}` : '';
  return `turn ${played} of ${s.turns}, ${s.width}×${s.height}\n${board}\n${legend}${failed}`;
}

/** The board of a turn message (what a bot sees), for people playing at the terminal. */
export function renderView(v: PaintTurn): string {
  const ids = Object.keys(v.player_positions);
  const at = new Map(ids.map((id, slot) => [`${v.player_positions[id]![0]},${v.player_positions[id]![1]}`, slot]));
  const blocked = new Set((v.obstacles ?? []).map(([i, j]) => `${i},${j}`));
  const board = grid(v.width, v.height, (i, j) => {
    const slot = at.get(`${i},${j}`);
    if (slot !== undefined) return letter(slot);
    const c = v.colors[i]![j];
    return c ? letter(ids.indexOf(c)).toLowerCase() : blocked.has(`${i},${j}`) ? '#' : '.';
  });
  const count = (id: string) => v.colors.reduce((n, row) => n + row.filter((c) => c === id).length, 0);
  const legend = ids.map((id, slot) => `${letter(slot)} = ${id} (slot ${slot}) at [${v.player_positions[id]!.join(',')}]: ${count(id)}`).join('\n');
  return `${board}\n${legend}\n${v.turns_left} turns left`;
}
