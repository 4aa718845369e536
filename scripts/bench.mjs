// `npm run bench [name]`: bundles bench/run.ts with esbuild and runs it. The benches measure the code as it
// ships (tsc's output, which esbuild's bundle matches), not as tsx runs it: tsx keeps function names by
// wrapping every inner function it creates (`__name(fn, "add")`, a property definition each time), which
// made a small closure in a hot path cost ten times what it costs in dist/.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// bench/run.ts loads each section's benches when it runs (a smaller process starts bot processes faster). They
// are split into chunks, real ES modules: bundled into one file, esbuild would wrap each lazily loaded module in a
// function and turn its constants into variables, and the code measured would no longer be the code that ships
// (Tron's rules ran twice as slow that way).
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
