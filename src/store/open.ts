import { mkdirSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { InvalidInputError, StoreError } from './errors.js';
import { GuardedDialect, RoomWatch, type StoreLog } from './guard.js';
import { KyselyStore } from './kysely-store.js';
import { migrate } from './migrations.js';
import type { Database } from './schema.js';
import type { Store } from './store.js';

/** Where the store lives when nothing says otherwise (relative to the working folder). */
export const DEFAULT_SQLITE_PATH = './data/botarena.sqlite';

/** How a store is opened. */
export interface OpenOptions {
  /** the store's clock (tests) */
  clock?: () => Date;
  /** SQLite: how long a write waits for another process's transaction (default 5000 ms) */
  busyTimeoutMs?: number;
  /** Postgres: connections at most (default 10) */
  poolSize?: number;
  /** Postgres: an idle connection's error (the server restarted…); the pool replaces the connection */
  onPoolError?: (err: Error) => void;
  /**
   * where the store says that its disk is full (once, at warn) and that it writes again (at info); without it
   * the store says nothing and its callers get StoreFullError all the same
   */
  log?: StoreLog;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** A Postgres URL without its password, for logs and messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(an unreadable URL)';
  }
}

/**
 * Opens the store, migrated to the latest schema: `postgres://…` or `postgresql://…` is a Postgres database;
 * anything else a SQLite file path (`sqlite:` in front is allowed), by default `./data/botarena.sqlite`, its
 * folder made when missing. Re-opening a migrated database changes nothing.
 *
 * @example const store = await openStore(process.env.DATABASE_URL);
 */
export async function openStore(url?: string, opts: OpenOptions = {}): Promise<Store> {
  const target = url?.trim() || DEFAULT_SQLITE_PATH;
  if (POSTGRES_URL.test(target)) return openPostgres(target, opts);
  const path = target.replace(/^sqlite:(\/\/)?/i, '');
  const scheme = /^([a-z][a-z0-9+.-]+):\/\//i.exec(path)?.[1];
  if (scheme) throw new InvalidInputError(`database: "${scheme}://" is not a database the store opens; give a SQLite file path or a postgres:// URL`);
  return openSqlite(path, opts);
}

/** SQLite files being opened in this process: a second open of one file waits for the first (see below). */
const opening = new Map<string, Promise<unknown>>();

/**
 * Opens a SQLite file. One store per file per process: better-sqlite3 waits for another connection's lock by
 * blocking the thread, so two stores of one process writing at once would wait on each other for the whole
 * busy timeout (other processes are fine: each waits in its own thread).
 */
async function openSqlite(path: string, opts: OpenOptions): Promise<Store> {
  const file = path === ':memory:' ? path : resolve(path);
  // The migrations hold the file's write lock across awaits: a second open in this process would block the
  // thread on that lock before the first could finish, so it waits its turn here instead.
  const before = opening.get(file) ?? Promise.resolve();
  const mine = before.catch(() => {}).then(() => openSqliteNow(file, opts));
  opening.set(file, mine);
  try {
    return await mine;
  } finally {
    if (opening.get(file) === mine) opening.delete(file);
  }
}

async function openSqliteNow(file: string, opts: OpenOptions): Promise<Store> {
  let sqlite: BetterSqlite3.Database;
  try {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    sqlite = new BetterSqlite3(file, { timeout: opts.busyTimeoutMs ?? 5000 });
  } catch (err) {
    throw new StoreError('unavailable', `cannot open the SQLite database ${file}: ${(err as Error).message}`, { cause: err });
  }
  // The bytes free on the database's file system, read when a write failed (is it full?) or succeeded after.
  const spaceLeft = () => {
    if (file === ':memory:') return null;
    try {
      const s = statfsSync(dirname(file));
      return s.bavail * s.bsize;
    } catch {
      return null;
    }
  };
  const watch = new RoomWatch(`SQLite ${file}`, opts.log, spaceLeft);
  const dialect = new GuardedDialect(new SqliteDialect({ database: sqlite }), { watch, spaceLeft, inTransaction: () => sqlite.inTransaction });
  const db = new Kysely<Database>({ dialect });
  try {
    // WAL: readers never wait for the writer; NORMAL sync is durable across a crash of the process (kill -9).
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // Kysely runs SQLite migrations outside a transaction; this one makes them all-or-nothing, and makes a
    // second process opening the same new file wait for the first one's migrations instead of racing them.
    sqlite.exec('BEGIN IMMEDIATE');
    await migrate(db, 'sqlite');
    sqlite.exec('COMMIT');
    // Table statistics, so the planner picks the right index as the tables grow (without them a bot's
    // finished matches were found by reading every finished match): refreshed now when stale, and hourly.
    sqlite.pragma('optimize = 0x10002');
  } catch (err) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    await db.destroy();
    throw new StoreError('unavailable', `cannot use the SQLite database ${file}: ${(err as Error).message}`, { cause: err });
  }
  const optimize = setInterval(() => (sqlite.open ? sqlite.pragma('optimize') : clearInterval(optimize)), 3_600_000);
  optimize.unref();
  return new KyselyStore(db, 'sqlite', `SQLite ${file}`, opts.clock);
}

/** Postgres' int8 (counts, seeds) as numbers: every one the store keeps is below 2⁵³. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

async function openPostgres(url: string, opts: OpenOptions): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, connectionTimeoutMillis: 10_000, types });
  // Without a listener an idle connection's error would end the process; the pool replaces the connection.
  pool.on('error', opts.onPoolError ?? (() => {}));
  const watch = new RoomWatch(`Postgres ${redactUrl(url)}`, opts.log, () => null);
  const db = new Kysely<Database>({ dialect: new GuardedDialect(new PostgresDialect({ pool }), { watch, spaceLeft: () => null }) });
  try {
    await migrate(db, 'postgres');
  } catch (err) {
    await db.destroy();
    throw new StoreError(
      'unavailable',
      `cannot use the Postgres database ${redactUrl(url)}: ${(err as Error).message} (check DATABASE_URL and that the server runs)`,
      { cause: err },
    );
  }
  return new KyselyStore(db, 'postgres', `Postgres ${redactUrl(url)}`, opts.clock);
}
