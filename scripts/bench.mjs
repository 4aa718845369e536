// `npm run bench [name]`: bundles bench/run.ts with esbuild and runs it. The benches measure the code as it
// ships (tsc's output, which esbuild's bundle matches), not as tsx runs it: tsx keeps function names by
// wrapping every inner function it creates (`__name(fn, "add")`, a property definition each time), which
// made a small closure in a hot path cost ten times what it costs in dist/.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// bench/run.ts loads each section's benches when it runs (a smaller process starts bot processes faster). They
// are split into chunks, real ES modules as in the code that ships: bundled into one file, esbuild would wrap each
// lazily loaded module in a function and turn its top-level constants into variables. (Timed side by side, Tron's
// rules showed no difference between the two: both swing 0.5–1.4 µs a lap from one process to the next.)
// Each run builds into a folder of its own, removed when it ends: a second `npm run bench` started meanwhile
// would otherwise delete the files that the first one's fresh processes load. Folders left by runs that
// were killed are removed here.
const cache = 'node_modules/.cache/botarena';
const outdir = `${cache}/bench-${process.pid}`;
for (const name of safeList(cache)) {
  const pid = /^bench-(\d+)$/.exec(name)?.[1];
  if (name === 'bench' || (pid && !alive(Number(pid)))) rmSync(`${cache}/${name}`, { recursive: true, force: true });
}
process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
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

/** The names in a folder, none when it does not exist yet. */
function safeList(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Whether a process with this id is running (a signal 0 only checks). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}
