import { cellsOf, type BattleshipState } from './rules.js';

/**
 * Both sides for a terminal: each player's own grid with its ships ('#'), the hits it took ('X') and
 * the misses around them ('o'). Row 0 at the top.
 */
export function renderBoard(s: BattleshipState): string {
  const { width: w, height: h } = s.config;
  const grids = [0, 1].map((slot) => {
    const g = Array.from({ length: h }, () => Array<string>(w).fill('.'));
    for (const ship of s.fleets[slot] ?? []) for (const [x, y] of cellsOf(ship)) g[y]![x] = '#';
    for (const { target } of s.strikes[1 - slot]!) {
      const [x, y] = target.split(',').map(Number) as [number, number];
      g[y]![x] = g[y]![x] === '#' || g[y]![x] === 'X' ? 'X' : 'o';
    }
    return g.map((row) => row.join(''));
  });
  const head = [0, 1].map((slot) => `P${slot + 1} fleet (${s.strikes[1 - slot]!.length} shots taken)`.padEnd(Math.max(w, 28)));
  const lines = [head.join('   ')];
  for (let y = 0; y < h; y++) lines.push(grids.map((g) => g[y]!.padEnd(Math.max(w, 28))).join('   '));
  return `${lines.join('\n')}\n# ship  X hit  o miss`;
}
