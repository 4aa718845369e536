import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { brokenConstraint, noRoom, SQLITE_NO_TRANSACTION, StoreFullError } from './errors.js';
import { RoomWatch } from './guard.js';

// The store's reading of "no room to write", on the errors the drivers really throw: better-sqlite3's
// SqliteError and pg's DatabaseError (a real full disk is in test/server-disk-full.test.ts; a real Postgres one
// is not needed: Postgres says it with its SQLSTATE).

const sqliteError = (message: string, code: string) => new BetterSqlite3.SqliteError(message, code);
const pgError = (code: string, message: string) => Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
const full = () => 0;
const roomy = () => 10 * 1024 * 1024 * 1024;

describe('noRoom: a database error read as "no room to write"', () => {
  it("reads SQLite's SQLITE_FULL as a full disk, whatever space the disk reports", () => {
    const err = noRoom(sqliteError('database or disk is full', 'SQLITE_FULL'), roomy);
    assert.ok(err instanceof StoreFullError);
    assert.equal(err.kind, 'full');
    assert.equal(err.disk, true);
    assert.match(err.message, /^the arena's disk is full: the database cannot write \(database or disk is full \(SQLITE_FULL\)\).*retry later$/);
  });

  it("reads SQLite's I/O errors as a full disk only when the disk has no space left (or they name ENOSPC)", () => {
    const io = sqliteError('disk I/O error', 'SQLITE_IOERR_WRITE');
    assert.equal(noRoom(io, full)?.disk, true);
    assert.match(noRoom(io, full)!.message, /disk I\/O error \(SQLITE_IOERR_WRITE\) with no space left/);
    assert.equal(noRoom(io, roomy), null, 'an I/O error on a disk with room is another failure');
    assert.equal(noRoom(io), null, 'nor when the space is unknown');
    assert.equal(noRoom(sqliteError('write failed: ENOSPC', 'SQLITE_IOERR'), roomy)?.disk, true);
  });

  it('reads "cannot rollback - no transaction is active" on a full disk as its aftermath', () => {
    const after = sqliteError(SQLITE_NO_TRANSACTION, 'SQLITE_ERROR');
    assert.equal(noRoom(after, full)?.disk, true);
    assert.equal(noRoom(after, roomy), null);
  });

  it("reads Postgres' 53100 disk_full as a full disk, and its other 53xxx as a database out of resources", () => {
    const disk = noRoom(pgError('53100', 'could not extend file "base/16384/16401": No space left on device'));
    assert.ok(disk instanceof StoreFullError);
    assert.equal(disk.disk, true);
    assert.match(disk.message, /^the arena's disk is full: the database cannot write \(53100 disk_full: could not extend file/);
    for (const [code, name] of [
      ['53000', 'insufficient_resources'],
      ['53200', 'out_of_memory'],
      ['53300', 'too_many_connections'],
      ['53400', 'configuration_limit_exceeded'],
    ]) {
      const err = noRoom(pgError(code!, 'no'));
      assert.equal(err?.disk, false, code);
      assert.match(err!.message, new RegExp(`^the arena's database is out of resources \\(${code} ${name}: no\\).*retry later$`));
    }
  });

  it('leaves every other error as it is (constraints are still read from the original)', () => {
    for (const err of [
      sqliteError('UNIQUE constraint failed: bots.game, bots.name', 'SQLITE_CONSTRAINT_UNIQUE'),
      sqliteError('database is locked', 'SQLITE_BUSY'),
      pgError('23505', 'duplicate key value'),
      pgError('57P01', 'terminating connection due to administrator command'),
      new Error('no code'),
      null,
      'a string',
    ])
      assert.equal(noRoom(err, full), null, String(err));
    assert.equal(brokenConstraint(sqliteError('x', 'SQLITE_CONSTRAINT_UNIQUE')), 'unique');
  });
});

describe('RoomWatch: what the store says in its log', () => {
  it('says a full disk once, its repeats at debug, and once that writes work again (not while the disk is still full)', () => {
    const said: string[] = [];
    let left = 0;
    const watch = new RoomWatch(
      'SQLite /data/a.sqlite',
      { warn: (m) => said.push(`warn ${m}`), info: (m) => said.push(`info ${m}`), debug: (m) => said.push(`debug ${m}`) },
      () => left,
    );
    const err = noRoom(sqliteError('database or disk is full', 'SQLITE_FULL'))!;
    for (let i = 0; i < 5; i++) watch.refusedWrite(err);
    watch.wrote(); // a small write that fit in the room SQLite kept: the disk is still full
    assert.equal(watch.full, true);
    left = 100 * 1024 * 1024;
    watch.wrote();
    watch.wrote();
    assert.equal(watch.full, false);
    assert.deepEqual(
      said.map((l) => l.split(' ')[0]),
      ['warn', 'debug', 'debug', 'debug', 'debug', 'info'],
    );
    assert.match(said[0]!, /^warn the arena's disk is full \(SQLite \/data\/a\.sqlite: database or disk is full \(SQLITE_FULL\)\)/);
    assert.match(said[5]!, /^info the store writes again \(SQLite \/data\/a\.sqlite\): it had no room for \d+ s and refused 5 writes$/);
  });
});
