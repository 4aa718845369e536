import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { smartdog } from './index.js';

describe('smart-dog lobby lines', () => {
  const read = smartdog.wire.lobby!.read;
  it('reads a join with a name and an optional hub, # or not', () => {
    assert.deepEqual(read('join Rex', false), { join: { name: 'Rex' } });
    assert.deepEqual(read('  join   Rex   #duet  ', false), { join: { name: 'Rex', hub: 'duet' } });
    assert.deepEqual(read('join Rex trio\r', false), { join: { name: 'Rex', hub: 'trio' } });
    assert.deepEqual(read('join', false), { join: { name: 'player' } });
  });
  it('answers as the reference server did', () => {
    assert.deepEqual(read('join Rex', true), { reply: 'error Already joined' });
    assert.deepEqual(read('do 1 move up', false), { reply: 'error Not in a game' });
    assert.deepEqual(read('end', true), { reply: 'error Not in a game' });
    assert.deepEqual(read('hello there  world', false), { reply: 'error Unknown command: hello(there  world)' });
    assert.equal(read('   ', false), null);
    assert.equal(smartdog.wire.lobby!.waiting, 'wait ');
    assert.equal(smartdog.wire.lobby!.noSuchHub, 'error No such hub');
  });
  it('answers a hostile 60 kB line with one short error, quickly', () => {
    const t0 = performance.now();
    const r = read('x'.repeat(60_000), false) as { reply: string };
    assert.ok(r.reply.startsWith('error Unknown command: x'));
    assert.ok(performance.now() - t0 < 200);
  });
});
