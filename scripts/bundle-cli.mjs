// Bundles the compiled CLI (dist/cli/main.js and everything it imports, commander included) into one
// CommonJS file, dist/cli-bundle/main.cjs, which bin/botarena loads with V8's code cache (bin/load-cli.cjs),
// and writes that cache. What a command loads when it runs (the runner and transports, the replay files, the
// servers) stays in the bundle's lazily started modules, so `botarena games` or `--help` run none of it. The
// HTTP client (undici) and the server's packages stay outside and are loaded only by what needs them.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Earlier builds' files (the ES-module chunks, the single file before them) go first.
rmSync('dist/cli-bundle', { recursive: true, force: true });
rmSync('dist/cli.mjs', { force: true });

// commander requires node:child_process when it loads (for subcommands run as executables, which botarena
// has none of), and with it Node's net and dgram: about 10 ms of every start. Its copy is handed a stand-in
// that loads the real module on first use.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

await build({
  // The match pool's thread is loaded by file name (arena/match-pool.ts), so it is an entry of its own.
  entryPoints: { main: 'dist/cli/main.js', 'match-thread': 'dist/arena/match-thread.js' },
  outdir: 'dist/cli-bundle',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // import() of what loads late (undici for HTTP bots, the server's packages) becomes require(): Node 20 cannot
  // import() from code compiled with a code cache (it loses the callback that import() needs).
  supported: { 'dynamic-import': false },
  // The server's packages stay outside too: loaded only by `serve` (better-sqlite3 is a native addon; typebox,
  // an ES module only, is required as Node 20.19+ and 22.12+ allow), and out of what every start compiles.
  external: ['undici', 'fastify', '@fastify/*', 'pino', 'typebox', 'kysely', 'better-sqlite3', 'pg', 'bullmq', 'ioredis', 'ws'],
  // The modules find their files (the package root, the match worker) from import.meta.url: the bundle's own.
  define: { 'import.meta.url': '__botarenaBundleUrl' },
  // The banner comes before esbuild's own "use strict", which would then be a mere string: it says it first.
  banner: { js: "'use strict'; const __botarenaBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Less source to read at every start (names are kept: stack traces stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [lazyChildProcess],
  logLevel: 'warning',
});

// The code cache: V8's compiled code for what a start runs (the command line, commander, the games), saved
// after one `botarena games`, in a process of its own (its output is not wanted). It is made by the Node that
// builds, which is the Node that runs botarena; another one refuses it and compiles as before.
// Written whole under another name, then renamed: V8 does not check a cache's bytes, and a cache cut short or
// mixed by two builds at once (same length) could crash the command instead of being refused.
const writer = `const { renameSync, writeFileSync } = require('node:fs');
const { loadCli, BUNDLE } = require('./bin/load-cli.cjs');
const { cli, script } = loadCli();
cli.main(['node', 'botarena', 'games']).then(() => {
  const part = BUNDLE + '.cache.' + process.pid;
  writeFileSync(part, script.createCachedData());
  renameSync(part, BUNDLE + '.cache');
});`;
execFileSync(process.execPath, ['-e', writer], { stdio: ['ignore', 'ignore', 'inherit'] });
