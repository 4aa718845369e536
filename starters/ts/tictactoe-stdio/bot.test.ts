// Generated from starters/src/ts/games/tictactoe/bot.test.ts by npm run generate:starters: edit those, not this file.
// The tiny test of the bot's move logic (no arena, no network): node --import tsx --test bot.test.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TicTacToeMessage, TicTacToeTurn } from 'botarena/sdk';
import { chooseMove, handle } from './bot.js'; // tsx finds bot.ts for './bot.js'

// Real messages, from docs/games/tictactoe.md.
const init = JSON.parse('{"game-id":"example","action":"init","game":"tictactoe","players":2,"board":"","player-index":0}') as TicTacToeMessage;
const turn4 = JSON.parse(
  '{"game-id":"example","action":"play-turn","game":"tictactoe","players":2,"board":{"0-0":"","0-1":"X","0-2":"","1-0":"","1-1":"X","1-2":"","2-0":"","2-1":"","2-2":"O"},"you":"O","player-index":1}',
) as TicTacToeTurn;

test('the init gets a name', () => {
  assert.deepEqual(handle(init), { name: 'ts-starter' });
});

test('a turn is answered with the key of an empty cell', () => {
  const { play } = chooseMove(turn4);
  assert.ok(Object.keys(turn4.board).includes(play), `${play} is a cell key`);
  assert.equal(turn4.board[play], '', `${play} is empty`);
  assert.equal(play, '2-1', 'X threatens 0-1, 1-1, 2-1: block it');
});
