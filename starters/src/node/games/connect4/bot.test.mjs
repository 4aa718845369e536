// The tiny test: real messages from docs/games/connect4.md fed to the move logic (no network, no loop).
// Run: node --test bot.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, chooseMove } from './bot.mjs';

test('answers init with a name', () => {
  const init = {"game-id":"example","action":"init","game":"connectfour","players":2,"board":"","player-index":0};
  assert.equal(typeof answer(init).name, 'string');
});

test('plays a column that is not full', () => {
  const message = {"game-id":"example","action":"play-turn","game":"connectfour","players":2,"opponent":"random","you":"O","board":[["","X","","","","","O"],["","X","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""]],"player-index":1};
  const { play } = answer(message);
  assert.ok(Number.isInteger(play) && play >= 0 && play <= 6, `${play} is a column`);
  assert.equal(message.board[5][play], '', `column ${play} is not full`);
});

test('never plays a full column', () => {
  const board = Array.from({ length: 6 }, (_, row) => ['', '', '', row % 2 ? 'O' : 'X', '', '', '']); // column 3 full
  const message = {"game-id":"example","action":"play-turn","game":"connectfour","players":2,"opponent":"random","you":"X","board":board,"player-index":0};
  assert.notEqual(chooseMove(message), 3);
});
