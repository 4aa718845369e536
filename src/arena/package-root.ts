import { fileURLToPath } from 'node:url';

/** The package's root (docs, schemas, starters): two levels up from src/arena, dist/arena and dist/cli-bundle alike. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
