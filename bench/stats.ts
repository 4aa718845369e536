/** Percentile (0..100) of a list of numbers, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Prints rows as an aligned table with a header. */
export function printTable(title: string, rows: (string | number)[][]): void {
  const cells = rows.map((r) => r.map(String));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
  console.log(`\n${title}\n`);
  console.log(line(cells[0]!));
  console.log('|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|');
  for (const r of cells.slice(1)) console.log(line(r));
}

/**
 * Times two runs side by side (the engine and its floor): each is run once to warm up, then both in turn,
 * the best of `reps` each. The machines are shared: a slow spell then slows both sides alike. Milliseconds.
 */
export function timePair(a: () => void, b: () => void, reps = 7): [number, number] {
  a();
  b();
  let ta = Infinity;
  let tb = Infinity;
  for (let i = 0; i < reps; i++) {
    let t0 = performance.now();
    a();
    ta = Math.min(ta, performance.now() - t0);
    t0 = performance.now();
    b();
    tb = Math.min(tb, performance.now() - t0);
  }
  return [ta, tb];
}

/** The fastest of `runs` runs of `run`, in milliseconds (what a piece costs alone, to set against a pair's time). */
export function bestMs(runs: number, run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}
