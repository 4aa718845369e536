/**
 * The candidate a mistyped name most likely meant, or null when none is close: the fewest single-letter edits
 * (a letter added, dropped, changed, or two neighbours swapped), ignoring case, and at most a third of the
 * name's letters (at least one). `Minimax` finds `minimax`, `plya` finds `play`; `submit` finds nothing.
 */
export function nearest(name: string, candidates: readonly string[]): string | null {
  const word = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(word.length / 3));
  for (const candidate of candidates) {
    const d = editDistance(word, candidate.toLowerCase());
    if (d < bestDistance || (d === bestDistance && best === null)) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Optimal string alignment distance: Levenshtein's edits and a swap of two neighbouring letters, each costing 1. */
function editDistance(a: string, b: string): number {
  // Hostile lengths cost nothing: a name far longer than any candidate is not a typo of one.
  if (Math.abs(a.length - b.length) > 8) return Infinity;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
