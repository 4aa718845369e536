// Bundles the offline replay player (web/src/replay-file.tsx) into one script and one style sheet in
// dist/web-player/, which `botarena replay html` (and the server's replay.html download) inline into a single
// HTML file beside the replay: a file that plays from a file:// URL with the network off.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/web-player', { recursive: true, force: true });
await build({
  entryPoints: { player: 'web/src/replay-file.tsx' },
  outdir: 'dist/web-player',
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2022',
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
