/** Pairs with both numbers in 0..SHARED_SIDE-1 are shared (see `sharedPair`): at most 256 × 256, ≈ 4 MB. */
const SHARED_SIDE = 256;
const shared: [number, number][][] = [];

/**
 * The pair [a, b] (a board cell: Tron's [x, y], paint's [row, column]), one array per pair for the whole
 * process. For states that keep cells in pairs and never change a pair in place: a step that moves a
 * piece then makes nothing that outlives it. (A new pair kept in a state outlives V8's young generation,
 * so V8 learns to make them straight in the old one: a slow allocation that was up to half of a Tron lap.)
 * Numbers outside the shared range get a new pair.
 */
export function sharedPair(a: number, b: number): [number, number] {
  if (a >= SHARED_SIDE || b >= SHARED_SIDE || a < 0 || b < 0) return [a, b];
  const row = (shared[b] ??= []);
  return (row[a] ??= [a, b]);
}
