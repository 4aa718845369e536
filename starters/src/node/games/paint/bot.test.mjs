// The tiny test: real messages from docs/games/paint.md fed to the move logic (no network, no loop).
// Run: node --test bot.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, DIRECTIONS } from './bot.mjs';

const turn3 = {"width":10,"height":10,"player_positions":{"alice":[2,8],"bob":[7,3]},"colors":[[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,"alice","alice",null],[null,null,null,null,null,null,null,"alice",null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,"bob",null,null,null,null,null,null,null],[null,null,null,"bob",null,null,null,null,null,null],[null,null,null,null,"bob",null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null]],"previous_actions":[{"alice":{"type":"walk","direction":[-1,1]},"bob":{"type":"walk","direction":[1,1]}},{"alice":{"type":"shoot","direction":[0,-1]},"bob":{"type":"shoot","direction":[1,1]}}],"turns_left":98};

test('answers the hello with ready', () => {
  assert.deepEqual(answer({ player_id: 'alice' }), { ready: true });
});

test('a walk or shot in one of the 8 directions, turns_left copied', () => {
  answer({ player_id: 'alice' });
  const move = answer(turn3);
  assert.equal(move.turns_left, 98);
  assert.ok(move.type === 'walk' || move.type === 'shoot');
  assert.ok(DIRECTIONS.some(([di, dj]) => di === move.direction[0] && dj === move.direction[1]), `${move.direction} is a direction`);
  if (move.type === 'walk') {
    const [i, j] = [2 + move.direction[0], 8 + move.direction[1]];
    assert.ok(i >= 0 && j >= 0 && i < 10 && j < 10, 'walks onto the board');
  }
});
