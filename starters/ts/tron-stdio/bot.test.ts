// Generated from starters/src/ts/games/tron/bot.test.ts by npm run generate:starters: edit those, not this file.
// The tiny test of the bot's move logic (no arena, no network): node --import tsx --test bot.test.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TronMessage, TronTurn } from 'botarena/sdk';
import { chooseMove, handle } from './bot.js'; // tsx finds bot.ts for './bot.js'

// Real messages, from docs/games/tron.md.
const init = JSON.parse('{"game-id":"example","action":"init","game":"tron","board":"","players":2,"player-index":0}') as TronMessage;
const lap5 = JSON.parse(
  '{"game-id":"example","action":"play-turn","game":"tron","board":[[[5,91],[4,91],[3,91],[2,91],[1,91]],[[49,38],[49,37],[49,36],[49,35],[49,34]]],"player-index":0,"players":2}',
) as TronTurn;

const STEP = { 'x+': [1, 0], 'x-': [-1, 0], 'y+': [0, 1], 'y-': [0, -1] } as const;

/** Whether `move` from the bot's head stays on the grid and off every trail. */
function legal(m: TronTurn, move: keyof typeof STEP): boolean {
  const [w, h] = [m.width ?? 100, m.height ?? 100];
  const [x, y] = m.board[m['player-index']]![0]!;
  const [nx, ny] = [x + STEP[move][0], y + STEP[move][1]];
  return nx >= 0 && ny >= 0 && nx < w && ny < h && !m.board.flat().some(([tx, ty]) => tx === nx && ty === ny);
}

test('the init gets a name', () => {
  assert.deepEqual(handle(init), { name: 'ts-starter' });
});

test('a lap is answered with a move onto a free cell', () => {
  const { play } = chooseMove(lap5);
  assert.ok(legal(lap5, play), `${play} from 5,91`);
});

test('the grid size is read from the message', () => {
  // In the corner of a 6×92 grid, with its own trail on the left: only y- is safe.
  const m: TronTurn = { ...lap5, width: 6, height: 92 };
  const { play } = chooseMove(m);
  assert.equal(play, 'y-');
  assert.ok(legal(m, play));
});
