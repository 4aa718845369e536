import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidInputError, StoreError } from './errors.js';
import { openStore, redactUrl } from './open.js';

describe('openStore: which database a URL names', () => {
  it('takes postgres:// and postgresql:// as Postgres, and says when it cannot reach one', async () => {
    for (const url of ['postgres://u:pw@127.0.0.1:1/arena', 'postgresql://u:pw@127.0.0.1:1/arena', 'POSTGRES://u:pw@127.0.0.1:1/arena']) {
      await assert.rejects(
        openStore(url),
        (e: Error) =>
          e instanceof StoreError && e.kind === 'unavailable' && e.message.startsWith('cannot use the Postgres database ') && !e.message.includes(':pw@'),
      );
    }
  });

  it('refuses other schemes instead of making a file named after them', async () => {
    for (const url of ['mysql://localhost/arena', 'http://example.org/db', 'sqlite://https://x']) {
      await assert.rejects(
        openStore(url),
        (e: Error) => e instanceof InvalidInputError && /is not a database the store opens; give a SQLite file path or a postgres:\/\/ URL$/.test(e.message),
      );
    }
  });

  it('hides the password of a URL it shows', () => {
    assert.equal(redactUrl('postgres://arena:hunter2@db.example:5432/botarena'), 'postgres://arena:***@db.example:5432/botarena');
    assert.equal(redactUrl('postgres://db.example/botarena'), 'postgres://db.example/botarena');
    assert.equal(redactUrl('postgres://[not a url'), 'postgres://(an unreadable URL)');
  });
});
