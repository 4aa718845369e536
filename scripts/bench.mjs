// `npm run bench [name]`: bundles bench/run.ts with esbuild and runs it. The benches measure the code as it
// ships (tsc's output, which esbuild's bundle matches), not as tsx runs it: tsx keeps function names by
// wrapping every inner function it creates (`__name(fn, "add")`, a property definition each time), which
// made a small closure in a hot path cost ten times what it costs in dist/.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// bench/run.ts loads each section's benches when it runs (a smaller process starts bot processes faster). They
// are split into chunks, real ES modules as in the code that ships: bundled into one file, esbuild would wrap each
// lazily loaded module in a function and turn its top-level constants into variables. (Timed side by side, Tron's
// rules showed no difference between the two: both swing 0.5–1.4 µs a lap from one process to the next.)
const outdir = 'node_modules/.cache/botarena/bench';
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { run: 'bench/run.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
await import(pathToFileURL(`${outdir}/run.mjs`).href);
