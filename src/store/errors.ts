/**
 * A store operation refused or failed, with a message a person can act on. `kind` says which: a name or state
 * already taken (`conflict`), nothing by that id (`not-found`), an input the store does not keep (`invalid`),
 * or the database itself could not be reached or opened (`unavailable`).
 */
export class StoreError extends Error {
  constructor(
    readonly kind: 'conflict' | 'not-found' | 'invalid' | 'unavailable',
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
