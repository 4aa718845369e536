import { createInterface } from 'node:readline';
import { finishOf, plusOne } from './fixtures.kit.js';
import { openStore } from './open.js';

// A second process finishing matches (sqlite.test.ts): `node --import tsx finisher.kit.ts DB MATCH_ID…`. It
// opens the store, says "ready", waits for a line on stdin, then finishes the matches in the order given
// (rating each bot +1 from the rating kept at that moment), printing one JSON line per match as it goes.

const [url, ...ids] = process.argv.slice(2);
const store = await openStore(url);
console.log('ready');
const input = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => input.once('line', () => resolve()));
input.close();
for (const id of ids) {
  const m = (await store.getMatch(id))!;
  const stored = await store.finishMatch(id, finishOf(m, [2, 1], { rate: plusOne(m.seats.map((s) => s.botId!)) }));
  console.log(JSON.stringify({ id, stored }));
}
await store.close();
