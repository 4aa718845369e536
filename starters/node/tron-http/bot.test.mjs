// Generated from starters/src/node/games/tron/bot.test.mjs by npm run generate:starters: edit those, not this file.
// The tiny test: real messages from docs/games/tron.md fed to the move logic (no network, no loop).
// Run: node --test bot.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, chooseMove, MOVES } from './bot.mjs';

/** Whether `move` keeps my cycle on the grid and off every trail. */
function legal(message, move) {
  const [hx, hy] = message.board[message['player-index']][0];
  const [x, y] = [hx + MOVES[move][0], hy + MOVES[move][1]];
  const taken = message.board.flat().some(([cx, cy]) => cx === x && cy === y);
  return x >= 0 && y >= 0 && x < (message.width ?? 100) && y < (message.height ?? 100) && !taken;
}

test('answers init with a name', () => {
  const init = {"game-id":"example","action":"init","game":"tron","board":"","players":2,"player-index":0};
  assert.equal(typeof answer(init).name, 'string');
});

test('makes a safe move (lap 5 of the docs)', () => {
  const message = {"game-id":"example","action":"play-turn","game":"tron","board":[[[5,91],[4,91],[3,91],[2,91],[1,91]],[[49,38],[49,37],[49,36],[49,35],[49,34]]],"player-index":0,"players":2};
  const { play } = answer(message);
  assert.ok(play in MOVES, `${play} is a move`);
  assert.ok(legal(message, play), `${play} neither leaves the grid nor hits a trail`);
});

test('reads width and height from the message (a 3×2 corner)', () => {
  const message = {"game-id":"example","action":"play-turn","game":"tron","board":[[[2,1],[1,1]],[[0,0]]],"width":3,"height":2,"player-index":0,"players":2};
  assert.equal(chooseMove(message), 'y-'); // x+ leaves the 3-wide grid, y+ the 2-high one, x- is the trail
});
