// Generated from starters/src/node/games/tictactoe/bot.test.mjs by npm run generate:starters: edit those, not this file.
// The tiny test: real messages from docs/games/tictactoe.md fed to the move logic (no network, no loop).
// Run: node --test bot.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, chooseMove } from './bot.mjs';

test('answers init with a name', () => {
  const init = {"game-id":"example","action":"init","game":"tictactoe","players":2,"board":"","player-index":0};
  assert.equal(typeof answer(init).name, 'string');
});

test('plays an empty cell on a later turn', () => {
  const message = {"game-id":"example","action":"play-turn","game":"tictactoe","players":2,"board":{"0-0":"","0-1":"X","0-2":"","1-0":"","1-1":"X","1-2":"","2-0":"","2-1":"","2-2":"O"},"you":"O","player-index":1};
  const { play } = answer(message);
  assert.ok(play in message.board, `${play} is a cell key`);
  assert.equal(message.board[play], '', `${play} is empty`);
  assert.equal(play, '2-1', 'blocks X\'s column 0-1, 1-1, 2-1');
});

test('plays an empty cell on an empty board', () => {
  const message = {"game-id":"example","action":"play-turn","game":"tictactoe","players":2,"board":{"0-0":"","0-1":"","0-2":"","1-0":"","1-1":"","1-2":"","2-0":"","2-1":"","2-2":""},"you":"X","player-index":0};
  assert.equal(message.board[chooseMove(message)], '');
});
