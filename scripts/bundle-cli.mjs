// Bundles the compiled CLI (dist/cli/main.js and everything it imports, commander included) into
// dist/cli-bundle/, which bin/botarena loads: main.js holds the command line itself (options, help, the
// games), and what a command loads when it runs (the runner and transports, the replay files, the servers)
// is split into chunks beside it, so `botarena games` or `--help` compile and load none of that. A few
// modules instead of about a hundred halve the start-up. The HTTP client (undici) stays outside and is
// loaded only by matches with an HTTP seat.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// The chunks' names change with their contents: old ones (and the single file of earlier builds) go first.
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
  // The match pool's worker thread is loaded by file name (tournament/pool.ts), so it is an entry of its own.
  entryPoints: { main: 'dist/cli/main.js', 'match-worker': 'dist/tournament/match-worker.js' },
  outdir: 'dist/cli-bundle',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The server's packages stay outside too (loaded only by `serve`; better-sqlite3 is a native addon).
  external: ['undici', 'fastify', '@fastify/*', 'pino', 'typebox', 'kysely', 'better-sqlite3', 'pg', 'bullmq', 'ioredis'],
  // commander is CommonJS: its require() of Node's modules needs a real require in an ES module.
  banner: { js: "import { createRequire as __botarenaRequire } from 'node:module'; const require = __botarenaRequire(import.meta.url);" },
  // Less source to read and parse at every start (names are kept: stack traces stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [lazyChildProcess],
  logLevel: 'warning',
});
