import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root (docs, schemas, starters, the built web app): the nearest folder above this module whose
 * package.json is botarena's — two levels up from src/arena, dist/arena and dist/cli-bundle, three from a
 * benchmark's bundle in node_modules/.cache.
 */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    try {
      if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'botarena') return `${dir}/`;
    } catch {
      // an unreadable package.json is not ours: keep looking
    }
    const up = dirname(dir);
    if (up === dir) return fileURLToPath(new URL('../../', import.meta.url));
    dir = up;
  }
}

export const PACKAGE_ROOT = findRoot();
