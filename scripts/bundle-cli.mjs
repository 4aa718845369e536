// Bundles the compiled CLI (dist/cli/main.js and everything it imports, commander included) into one file,
// dist/cli.mjs, which bin/botarena loads: one module instead of about a hundred halves the start-up. The HTTP
// client (undici) stays outside and is loaded only by matches with an HTTP seat.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli/main.js'],
  outfile: 'dist/cli.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['undici'],
  // commander is CommonJS: its require() of Node's modules needs a real require in an ES module.
  banner: { js: "import { createRequire as __botarenaRequire } from 'node:module'; const require = __botarenaRequire(import.meta.url);" },
  logLevel: 'warning',
});
