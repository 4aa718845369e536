// The CLI's start-up against Node's own: `node -e 0`, `botarena games` and `botarena --version`, run in
// turn 20 times (interleaved, so a slow spell of the shared machine slows all three), medians compared.
import { execFileSync } from 'node:child_process';
import { percentile } from './stats.js';

/** Milliseconds one `node ARGS` run takes, start to exit. */
export function timeOnce(args: string[]): number {
  const t0 = performance.now();
  execFileSync(process.execPath, args, { stdio: 'ignore' });
  return performance.now() - t0;
}

export function benchStartup(runs = 20): (string | number)[][] {
  const commands: [string, string[]][] = [
    ['node -e 0 (the floor)', ['-e', '0']],
    ['botarena games', ['bin/botarena', 'games']],
    ['botarena --version', ['bin/botarena', '--version']],
  ];
  for (const [, args] of commands) timeOnce(args); // warm the file cache
  const times = commands.map((): number[] => []);
  for (let i = 0; i < runs; i++) commands.forEach(([, args], k) => times[k]!.push(timeOnce(args)));
  const medians = times.map((t) => percentile(t, 50));
  const rows: (string | number)[][] = [['command', 'median ms per run', 'ratio to node -e 0 (target ≤ 1.5×)']];
  commands.forEach(([name], k) => rows.push([name, medians[k]!.toFixed(1), `${(medians[k]! / medians[0]!).toFixed(2)}×`]));
  return rows;
}
