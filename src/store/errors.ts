/**
 * A store operation refused or failed, with a message a person can act on. `kind` says which: a name or state
 * already taken (`conflict`), nothing by that id (`not-found`), an input the store does not keep (`invalid`),
 * the database itself could not be reached or opened (`unavailable`), or it has no room to write (`full`:
 * StoreFullError).
 */
export class StoreError extends Error {
  constructor(
    readonly kind: 'conflict' | 'not-found' | 'invalid' | 'unavailable' | 'full',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** A bot name its game has already, or a row that exists. */
export class ConflictError extends StoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('conflict', message, options);
    this.name = 'ConflictError';
  }
}

/** No row by that id (or it was deleted). */
export class NotFoundError extends StoreError {
  constructor(message: string) {
    super('not-found', message);
    this.name = 'NotFoundError';
  }
}

/** An input the store refuses: too long, a NUL character, a value out of range, a cursor it did not give. */
export class InvalidInputError extends StoreError {
  constructor(message: string) {
    super('invalid', message);
    this.name = 'InvalidInputError';
  }
}

/** Which constraint a database error broke, whichever the database (SQLite's codes, Postgres' SQLSTATEs). */
export function brokenConstraint(err: unknown): 'unique' | 'foreign-key' | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505') return 'unique';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503') return 'foreign-key';
  return null;
}

/**
 * The database has no room to write: its disk is full (SQLite's SQLITE_FULL, an I/O error on a disk with no
 * space left, Postgres' 53100 disk_full), or, `disk: false`, the database server is out of another resource
 * (Postgres' other 53xxx: memory, connections). Nothing of the refused write was kept (its transaction rolled
 * back); the same write succeeds once space is freed. The message says so and ends with "retry later".
 */
export class StoreFullError extends StoreError {
  constructor(
    readonly disk: boolean,
    /** what the database said, e.g. "database or disk is full" */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      'full',
      disk
        ? `the arena's disk is full: the database cannot write (${detail}); nothing of it was kept; retry later`
        : `the arena's database is out of resources (${detail}); nothing of it was kept; retry later`,
      options,
    );
    this.name = 'StoreFullError';
  }
}

/** How long a client is told to wait before it retries a write refused for lack of room (Retry-After). */
export const FULL_RETRY_AFTER_S = 30;

/** Postgres' class 53 (insufficient resources) SQLSTATEs, by code. */
const PG_RESOURCES: Record<string, string> = {
  '53000': 'insufficient_resources',
  '53100': 'disk_full',
  '53200': 'out_of_memory',
  '53300': 'too_many_connections',
  '53400': 'configuration_limit_exceeded',
};

/** SQLite's words when it finds no transaction to roll back: it rolled the transaction back itself. */
export const SQLITE_NO_TRANSACTION = 'cannot rollback - no transaction is active';

/**
 * A database error read as "no room to write", whichever the database, or null when it is another error.
 * `spaceLeft` tells how many bytes the database's file system has free (SQLite; null when unknown): an I/O
 * error (SQLITE_IOERR_*) is a full disk when it names ENOSPC or when no space is left, and so is SQLite's
 * "cannot rollback - no transaction is active", the aftermath of a failed write it rolled back itself.
 */
export function noRoom(err: unknown, spaceLeft: () => number | null = () => null): StoreFullError | null {
  if (err instanceof StoreFullError) return err;
  if (!err || typeof err !== 'object') return null;
  const code = (err as { code?: unknown }).code;
  const message = String((err as { message?: unknown }).message ?? '');
  if (typeof code !== 'string') return null;
  if (code === 'SQLITE_FULL') return new StoreFullError(true, `${message || 'database or disk is full'} (SQLITE_FULL)`, { cause: err });
  const diskLooksFull = () => {
    const left = spaceLeft();
    return left !== null && left < 64 * 1024;
  };
  if (code.startsWith('SQLITE_IOERR') && (/ENOSPC|no space left/i.test(message) || diskLooksFull()))
    return new StoreFullError(true, `${message} (${code}) with no space left on the disk`, { cause: err });
  if (code === 'SQLITE_ERROR' && message.includes(SQLITE_NO_TRANSACTION) && diskLooksFull())
    return new StoreFullError(true, `a write was rolled back by SQLite itself (${message}) with no space left on the disk`, { cause: err });
  if (/^53[0-9A-Z]{3}$/.test(code)) {
    const name = PG_RESOURCES[code] ?? 'insufficient resources';
    return new StoreFullError(code === '53100', `${code} ${name}${message ? `: ${message}` : ''}`, { cause: err });
  }
  return null;
}
