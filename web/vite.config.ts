import { defineConfig } from 'vite';

// The browser app: built into dist/web (served by `botarena serve` at /). It compiles the pure layers
// (src/core, src/games) from source, so the browser re-runs the same rules as the server. JSX is Preact's.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: '../dist/web', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1024 },
  // `npm run dev`: the app with hot reload, talking to a server started with `npm start` on :8080.
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/docs': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080' } },
  logLevel: 'warn',
});
