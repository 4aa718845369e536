import type {
  CompiledQuery,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { noRoom, type StoreFullError } from './errors.js';

// Every query the store sends goes through here: a database with no room to write (a full disk) answers with
// one typed error (StoreFullError, errors.ts) instead of its own code, the store says so in its log once (and
// again when writes work), and a transaction SQLite rolled back itself is not rolled back twice.

/** Where the store tells an operator about its disk (the server's logger; pino's fit). */
export interface StoreLog {
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
}

/**
 * The store's disk as its writes find it: `full` from the first write refused for lack of room (said once, at
 * warn) to the next write that succeeds with room left (said once, at info); refusals in between are counted
 * and said at debug. A write that fits in room SQLite had kept (its WAL) does not end it while the disk is
 * still full (`spaceLeft` says so), or the log would go back and forth.
 */
export class RoomWatch {
  private fullSince: number | null = null;
  private refused = 0;

  constructor(
    private readonly what: string,
    private readonly log: StoreLog | undefined,
    private readonly spaceLeft: () => number | null,
  ) {}

  /** whether the last writes were refused for lack of room */
  get full(): boolean {
    return this.fullSince !== null;
  }

  refusedWrite(err: StoreFullError): void {
    this.refused++;
    if (this.fullSince !== null) {
      this.log?.debug(`still no room to write (${err.detail}); ${this.refused} writes refused so far`);
      return;
    }
    this.fullSince = Date.now();
    this.refused = 1;
    this.log?.warn(
      `${err.disk ? "the arena's disk is full" : 'the database is out of resources'} (${this.what}: ${err.detail}): ` +
        'writes are refused (503 with Retry-After), finished matches wait in memory and are written when there is room; ' +
        `free space on the database's disk (this is said once; the next line says when writes work again)`,
    );
  }

  wrote(): void {
    if (this.fullSince === null) return;
    const left = this.spaceLeft();
    if (left !== null && left < 1024 * 1024) return;
    const s = Math.round((Date.now() - this.fullSince) / 1000);
    this.log?.info(`the store writes again (${this.what}): it had no room for ${s} s and refused ${this.refused} writes`);
    this.fullSince = null;
    this.refused = 0;
  }
}

/** What the guard needs from the store. */
export interface GuardOptions {
  watch: RoomWatch;
  spaceLeft: () => number | null;
  /** SQLite: whether a transaction is open (SQLite ends one itself when a write fails for a full disk) */
  inTransaction?: () => boolean;
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

class GuardedConnection implements DatabaseConnection {
  /** inside a transaction, a write counts when it commits */
  inTransaction = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly o: GuardOptions,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const result = await this.inner.executeQuery<R>(query);
      if (!this.inTransaction && WRITES.has(query.query.kind)) this.o.watch.wrote();
      return result;
    } catch (err) {
      throw this.mapped(err);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }

  mapped(err: unknown): unknown {
    const full = noRoom(err, this.o.spaceLeft);
    if (!full) return err;
    this.o.watch.refusedWrite(full);
    return full;
  }
}

class GuardedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, GuardedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly o: GuardOptions,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const c = await this.inner.acquireConnection();
    let g = this.wrapped.get(c);
    if (!g) this.wrapped.set(c, (g = new GuardedConnection(c, this.o)));
    return g;
  }

  private async run(c: DatabaseConnection, step: (inner: DatabaseConnection) => Promise<void>): Promise<void> {
    const g = c as GuardedConnection;
    try {
      await step(g.inner);
    } catch (err) {
      throw g.mapped(err);
    }
  }

  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.run(c, (inner) => this.inner.beginTransaction(inner, settings));
    (c as GuardedConnection).inTransaction = true;
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await this.run(c, (inner) => this.inner.commitTransaction(inner));
    (c as GuardedConnection).inTransaction = false;
    this.o.watch.wrote();
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    (c as GuardedConnection).inTransaction = false;
    // SQLite rolls a transaction back itself when a write (or the commit) fails for a full disk or an I/O
    // error; rolling it back again would fail with "cannot rollback - no transaction is active", and that
    // error would replace the one that says what happened.
    if (this.o.inTransaction && !this.o.inTransaction()) return;
    await this.run(c, (inner) => this.inner.rollbackTransaction(inner));
  }

  async releaseConnection(c: DatabaseConnection): Promise<void> {
    await this.inner.releaseConnection((c as GuardedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** A Kysely dialect whose queries go through the guard (see the top of this file). */
export class GuardedDialect implements Dialect {
  constructor(
    private readonly inner: Dialect,
    private readonly o: GuardOptions,
  ) {}

  createDriver(): Driver {
    return new GuardedDriver(this.inner.createDriver(), this.o);
  }
  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }
  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}
