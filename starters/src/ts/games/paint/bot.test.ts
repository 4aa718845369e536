// The tiny test of the bot's move logic (no arena, no network): node --import tsx --test bot.test.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PaintAnswer, PaintTurn } from 'botarena/sdk';
import { chooseAction, handle } from './bot.js'; // tsx finds bot.ts for './bot.js'

// Real messages, from docs/games/paint.md.
const turn3 = JSON.parse(
  '{"width":10,"height":10,"player_positions":{"alice":[2,8],"bob":[7,3]},"colors":[[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,"alice","alice",null],[null,null,null,null,null,null,null,"alice",null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,"bob",null,null,null,null,null,null,null],[null,null,null,"bob",null,null,null,null,null,null],[null,null,null,null,"bob",null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null]],"previous_actions":[{"alice":{"type":"walk","direction":[-1,1]},"bob":{"type":"walk","direction":[1,1]}},{"alice":{"type":"shoot","direction":[0,-1]},"bob":{"type":"shoot","direction":[1,1]}}],"turns_left":98}',
) as PaintTurn;

/** Whether an answer is well formed: a walk or a shoot, one of the 8 directions, `turns_left` copied. */
function assertValid(answer: PaintAnswer, state: PaintTurn): void {
  assert.equal(answer.turns_left, state.turns_left);
  assert.ok(answer.type === 'walk' || answer.type === 'shoot');
  const [di, dj] = answer.direction;
  assert.ok([-1, 0, 1].includes(di) && [-1, 0, 1].includes(dj) && (di !== 0 || dj !== 0), `direction ${answer.direction}`);
}

test('the hello is answered with ready', () => {
  assert.deepEqual(handle({ player_id: 'alice' }), { ready: true });
});

test('a state is answered with a valid action, turns_left copied', () => {
  const answer = handle(turn3) as PaintAnswer; // as alice, from the hello above
  assertValid(answer, turn3);
  for (const id of ['alice', 'bob']) assertValid(chooseAction(id, turn3), turn3);
});

test('a walk stays on the board', () => {
  const corner: PaintTurn = { ...turn3, player_positions: { alice: [0, 0], bob: [7, 3] }, colors: turn3.colors.map((r) => r.map(() => null)) };
  const answer = chooseAction('alice', corner);
  assert.equal(answer.type, 'walk');
  assert.ok(answer.direction[0] >= 0 && answer.direction[1] >= 0, `from [0,0], ${answer.direction} stays on the board`);
});
