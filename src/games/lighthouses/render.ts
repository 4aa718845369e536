import { rasterizeTriangle } from './geometry.js';
import { pos, type LighthousesState } from './rules.js';

/** The letter of a slot: A, B, C… */
export const letter = (slot: number) => String.fromCharCode(65 + slot);

const SHADES = ' .:-=+*%@';

/**
 * The island for a terminal, north (highest y) at the top: water `~`, island cells shaded by energy
 * (` ` empty … `@` full), triangle cells `/` (lower-case owner letter when no energy shows), lighthouses by
 * owner digit (`!` neutral), players by letter; then a line per player and per owned lighthouse.
 */
export function renderIsland(s: LighthousesState): string {
  const owner = new Map<number, number>();
  for (const t of s.triangles) {
    const [a, b, c] = t.v.map((i) => pos(s, i)) as [readonly [number, number], readonly [number, number], readonly [number, number]];
    for (const [x, y] of rasterizeTriangle(a, b, c)) owner.set(y * s.width + x, t.owner);
  }
  const grid: string[][] = [];
  for (let y = s.height - 1; y >= 0; y--) {
    let row = '';
    for (let x = 0; x < s.width; x++) {
      const e = s.energy[y]![x]!;
      const tri = owner.get(y * s.width + x);
      row += !s.island[y]![x] ? '~' : e === 0 && tri !== undefined ? letter(tri).toLowerCase() : SHADES[Math.ceil((e / 100) * (SHADES.length - 1))]!;
    }
    grid.push(row.split(''));
  }
  const put = (x: number, y: number, ch: string) => (grid[s.height - 1 - y]![x] = ch);
  s.lighthouses.forEach((l) => put(l.x, l.y, l.owner === null ? '!' : String(l.owner)));
  s.players.forEach((p, slot) => put(p.x, p.y, letter(slot)));
  const board = grid.map((r) => r.join('')).join('\n');
  const players = s.players.map((p, slot) => `${letter(slot)} ${p.name}: score ${p.score}, energy ${p.energy}, at ${p.x},${p.y}, keys ${p.keys.length}`);
  const owned = s.lighthouses
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.owner !== null)
    .map(({ l, i }) => `${l.x},${l.y}: ${letter(l.owner!)} ${l.energy}${linksOf(s, i)}`);
  const round = s.round > s.rounds ? `after round ${s.rounds}` : `round ${s.round} of ${s.rounds}`;
  return [
    board,
    `${round} · ${s.connections.length} connections · ${s.triangles.length} triangles`,
    ...players,
    ...(owned.length ? ['lighthouses: ' + owned.join('; ')] : []),
  ].join('\n');
}

function linksOf(s: LighthousesState, i: number): string {
  const to = s.connections.filter(([a, b]) => a === i || b === i).map(([a, b]) => pos(s, a === i ? b : a).join(','));
  return to.length ? ` → ${to.join(' ')}` : '';
}
