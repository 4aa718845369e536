// The rules benches against their hand-written loops, each run in several fresh processes. In one process
// the same code swings up to 2× from one run to the next on this machine (what V8 decides while it warms
// up: which allocations go straight to the old generation, what is inlined, the young generation's size),
// so one process's figure can be either end of that range. Each fresh process runs the whole table once;
// the cells that vary are printed as the median with the range (min–max) beside it.
import { execFileSync } from 'node:child_process';

/** The benches that can be run this way: each gives its whole table. */
export const FRESH = {
  'tron-rules': async () => (await import('./tron-rules.bench.js')).benchTronRules(),
  'paint-rules': async () => (await import('./paint-rules.bench.js')).benchPaintRules(),
  'lighthouses-rules': async () => (await import('./lighthouses-rules.bench.js')).benchLighthousesRules(),
} satisfies Record<string, () => Promise<(string | number)[][]>>;

export type FreshBench = keyof typeof FRESH;

/** In a child process (`node run.mjs --rows NAME`): prints the table as JSON. */
export async function printRows(name: string): Promise<void> {
  const bench = FRESH[name as FreshBench];
  if (!bench) throw new Error(`no bench "${name}" to run in a fresh process; expected one of ${Object.keys(FRESH).join(', ')}`);
  process.stdout.write(JSON.stringify(await bench()) + '\n');
}

/** A cell's number ("0.43", "2.8×", 60), or null for text. */
function numberOf(cell: string | number): number | null {
  if (typeof cell === 'number') return cell;
  const m = /^(-?\d+(?:\.\d+)?)(×?)$/.exec(cell.trim());
  return m ? Number(m[1]) : null;
}

/**
 * Runs the bench `name` once in each of `runs` fresh processes (`node RUN --rows NAME`, RUN the bench's
 * entry, bench/run.ts as built) and merges
 * the tables: a cell that is the same in every run is kept; a number that varies becomes its median and
 * range, "0.43 (0.39–0.50)", with the × kept for ratios.
 */
export function inFreshProcesses(run: string, name: FreshBench, runs = 5): (string | number)[][] {
  const tables = Array.from({ length: runs }, () => JSON.parse(execFileSync(process.execPath, [run, '--rows', name], { encoding: 'utf8', maxBuffer: 1 << 24 })) as (string | number)[][]);
  const [first] = tables;
  return first!.map((row, r) =>
    row.map((cell, c) => {
      const all = tables.map((t) => t[r]![c]!);
      if (all.every((x) => x === cell)) return r === 0 && c === 0 ? `${cell} (${runs} fresh processes: median, min–max)` : cell;
      const values = all.map(numberOf);
      if (values.some((v) => v === null)) return cell;
      const sorted = (values as number[]).sort((a, b) => a - b);
      const digits = Math.max(...all.map((x) => String(x).replace('×', '').split('.')[1]?.length ?? 0));
      const unit = String(cell).endsWith('×') ? '×' : '';
      const show = (v: number) => v.toFixed(digits);
      return `${show(sorted[Math.floor((sorted.length - 1) / 2)]!)}${unit} (${show(sorted[0]!)}–${show(sorted[sorted.length - 1]!)}${unit})`;
    }),
  );
}
