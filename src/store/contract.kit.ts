import { afterEach } from 'node:test';
import { botsContract } from './contract-bots.kit.js';
import { contestsContract } from './contract-contests.kit.js';
import { finishContract } from './contract-finish.kit.js';
import { matchesContract } from './contract-matches.kit.js';
import { ratingsContract } from './contract-ratings.kit.js';
import { versionsContract } from './contract-versions.kit.js';
import { Stores, type StoreTarget } from './fixtures.kit.js';

export type { StoreTarget } from './fixtures.kit.js';

/**
 * The behaviour the store must have on every database it runs on: call inside a `describe`, with a target
 * that makes fresh databases. Bots (names unique per game, soft deletion, built-ins, hostile text), matches
 * (lifecycle, aborts, keyset pages), finishing (all or nothing, once, ratings in turn under concurrency),
 * ratings (as the ladder computes them), replays byte for byte, and reopening.
 */
export function storeContract(target: StoreTarget): void {
  const stores = new Stores(target);
  afterEach(() => stores.closeAll());
  botsContract(stores);
  matchesContract(stores);
  finishContract(stores, target);
  ratingsContract(stores);
  versionsContract(stores);
  contestsContract(stores, target);
}
