import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { storeContract } from './contract.kit.js';
import { StoreError } from './errors.js';
import { openStore } from './open.js';
import { testPostgres } from './pg.kit.js';

// The store contract on a real Postgres: BOTARENA_TEST_DATABASE_URL's server, or a private cluster started
// from the machine's PostgreSQL. Without one the tests skip, saying why; under CI (BOTARENA_CI) they fail.
const pg = await testPostgres();

if ('missing' in pg) {
  describe('store on Postgres', () => {
    it('runs the store contract on a real Postgres', (t) => {
      if (process.env.BOTARENA_CI) assert.fail(`Postgres is missing, and CI must run the Postgres store tests: ${pg.missing}`);
      t.skip(`Postgres is missing: ${pg.missing}`);
    });
  });
} else {
  describe(`store on Postgres (${pg.source})`, () => {
    after(() => pg.stop());
    storeContract({ newDatabase: () => pg.newDatabase(), twoStores: true });

    it('says which database it could not reach, without its password', async () => {
      const url = new URL(await pg.newDatabase());
      url.password = 's3cret-pw';
      url.port = '1'; // nothing listens there
      await assert.rejects(openStore(url.toString()), (e: Error) => {
        assert.ok(e instanceof StoreError && e.kind === 'unavailable', String(e));
        assert.match(
          e.message,
          /^cannot use the Postgres database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/botarena_test_\w+: .*ECONNREFUSED.* \(check DATABASE_URL and that the server runs\)$/,
        );
        assert.ok(!e.message.includes('s3cret-pw'));
        return true;
      });
    });
  });
}
