// The store port: see store.ts for what it keeps and open.ts for how one is opened.
export { brokenConstraint, ConflictError, FULL_RETRY_AFTER_S, InvalidInputError, noRoom, NotFoundError, StoreError, StoreFullError } from './errors.js';
export type { StoreLog } from './guard.js';
export { KyselyStore } from './kysely-store.js';
export { DEFAULT_SQLITE_PATH, openStore, redactUrl, type OpenOptions } from './open.js';
export * from './store.js';
