// `npm run bench [name]`: bundles bench/run.ts with esbuild and runs it. The benches measure the code as it
// ships (tsc's output, which esbuild's bundle matches), not as tsx runs it: tsx keeps function names by
// wrapping every inner function it creates (`__name(fn, "add")`, a property definition each time), which
// made a small closure in a hot path cost ten times what it costs in dist/.
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';

const outfile = 'node_modules/.cache/botarena/bench.mjs';
await build({
  entryPoints: ['bench/run.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
await import(pathToFileURL(outfile).href);
