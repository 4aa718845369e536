import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PACKAGE_ROOT } from '../arena/package-root.js';

/** Where `npm run build` puts the browser app (web/, built by Vite). */
export const WEB_DIR = join(PACKAGE_ROOT, 'dist', 'web');

/**
 * The browser app at `/`: the files Vite built (hashed names, cached for a year; index.html never cached, so a
 * new build is picked up). Without a build, `/` says how to make one instead of a bare 404.
 */
export async function webApp(app: FastifyInstance): Promise<void> {
  if (!existsSync(join(WEB_DIR, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send(
          `The web app is not built (${WEB_DIR} is missing): run \`npm run build\` in the botarena package, then start the server again. The API is at /api and its documentation at /docs.\n`,
        ),
    );
    return;
  }
  // The app's files go compressed to a browser that takes it (brotli or gzip: the 250 KB script is ~80 KB).
  // Registered here, it covers this plugin's routes only: the API's event streams stay as they are.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(fastifyStatic, {
    root: WEB_DIR,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    setHeaders(res, path) {
      res.header('cache-control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
      res.header('x-content-type-options', 'nosniff');
    },
  });
}
