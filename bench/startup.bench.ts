// The CLI's start-up against Node's own: `botarena games` and `botarena --version`, each run 20 times.
import { execFileSync } from 'node:child_process';

function timeRuns(args: string[], runs: number): number {
  execFileSync(process.execPath, args, { stdio: 'ignore' }); // warm the file cache
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) execFileSync(process.execPath, args, { stdio: 'ignore' });
  return (performance.now() - t0) / runs;
}

export function benchStartup(runs = 20): (string | number)[][] {
  const floor = timeRuns(['-e', '0'], runs);
  const rows: (string | number)[][] = [['command', 'ms per run', 'ratio to node -e 0 (target ≤ 1.5×)']];
  rows.push(['node -e 0 (the floor)', floor.toFixed(1), '1.00×']);
  for (const args of [['games'], ['--version']]) {
    const ms = timeRuns(['bin/botarena', ...args], runs);
    rows.push([`botarena ${args.join(' ')}`, ms.toFixed(1), `${(ms / floor).toFixed(2)}×`]);
  }
  return rows;
}
