import { penOwner, type SmartDogState } from './state.js';

/** The letter of player p's dogs: A, B, C, D (lower case while scared). */
export const dogLetter = (player: number, scared = false) => {
  const l = String.fromCharCode(64 + player);
  return scared ? l.toLowerCase() : l;
};

/**
 * The whole board as text: `.` grass, `#` fence, `^` tree, pens by owner digit, dogs as their owner's
 * letter (lower case while panicked or indignant), sheep as `*` (`!` while scared, `o` on a pen). Then a
 * line per player with the score.
 */
export function renderBoard(s: SmartDogState): string {
  const grid = s.terrain.map((r) => [...r]);
  for (const d of s.dogs) grid[d.y]![d.x] = dogLetter(d.owner, d.scareTurns > 0);
  for (const sh of s.sheep) grid[sh.y]![sh.x] = sh.fear > 0 ? '!' : penOwner(s.terrain[sh.y]![sh.x]!) ? 'o' : '*';
  const status = s.scores.map((sc, k) => `${dogLetter(k + 1)}: ${Math.round(sc * 100) / 100}${s.out[k] ? ' (out)' : ''}`).join('   ');
  const head = s.finished ? `finished after turn ${s.turn}` : `turn ${s.turn} of ${s.options.turnsLimit}`;
  return `${head}, ${s.cols}×${s.rows}\n${grid.map((r) => r.join('')).join('\n')}\n${status}`;
}
