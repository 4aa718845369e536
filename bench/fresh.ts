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
  const bench = Object.hasOwn(FRESH, name) ? FRESH[name as FreshBench] : undefined;
  if (!bench) throw new Error(`no bench "${name}" to run in a fresh process; expected one of ${Object.keys(FRESH).join(', ')}`);
  process.stdout.write(JSON.stringify(await bench()) + '\n');
}

/** A number in a cell, with the × of a ratio after it. */
const NUMBER = /(-?\d+(?:\.\d+)?)(×?)/g;

/** The median and range of one number's values over the runs, written with `digits` decimals. */
function spread(values: number[], digits: number, unit: string): string {
  const sorted = [...values].sort((a, b) => a - b);
  const show = (v: number) => v.toFixed(digits);
  if (sorted[0] === sorted[sorted.length - 1]) return show(sorted[0]!) + unit;
  return `${show(sorted[Math.floor((sorted.length - 1) / 2)]!)}${unit} (${show(sorted[0]!)}–${show(sorted[sorted.length - 1]!)}${unit})`;
}

/**
 * One cell from every run. The same everywhere: kept. Otherwise, when the runs' texts differ only in their
 * numbers (a figure, "2.8×", or a sentence with a figure in it), each number becomes its median and range,
 * the × after a ratio kept; when they differ otherwise (a run's "Infinity×"), every run's text is shown.
 * Each column's median is its own: a ratio's median need not be the ratio of the medians beside it.
 */
export function mergeCell(all: (string | number)[]): string | number {
  const first = all[0]!;
  if (all.every((x) => x === first)) return first;
  const texts = all.map(String);
  const frame = (t: string) => t.replace(NUMBER, '#');
  if (texts.some((t) => frame(t) !== frame(texts[0]!))) return texts.join(' | ');
  const numbers = texts.map((t) => [...t.matchAll(NUMBER)].map((m) => m[1]!));
  let k = 0;
  return texts[0]!.replace(NUMBER, (_, __, unit: string) => {
    const i = k++;
    const column = numbers.map((ns) => ns[i]!);
    return spread(column.map(Number), Math.max(...column.map((n) => n.split('.')[1]?.length ?? 0)), unit);
  });
}

/**
 * Runs the bench `name` once in each of `runs` fresh processes (`node RUN --rows NAME`, RUN the bench's
 * entry, bench/run.ts as built) and merges the tables cell by cell (see `mergeCell`): "0.43 (0.39–0.50)".
 */
export function inFreshProcesses(run: string, name: FreshBench, runs = 5): (string | number)[][] {
  const tables = Array.from(
    { length: runs },
    () => JSON.parse(execFileSync(process.execPath, [run, '--rows', name], { encoding: 'utf8', maxBuffer: 1 << 24 })) as (string | number)[][],
  );
  const [first] = tables;
  return first!.map((row, r) =>
    row.map((cell, c) => {
      if (r === 0 && c === 0) return `${cell} (${runs} fresh processes: median, min–max)`;
      return mergeCell(tables.map((t) => t[r]?.[c] ?? ''));
    }),
  );
}
