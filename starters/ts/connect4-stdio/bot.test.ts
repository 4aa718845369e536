// Generated from starters/src/ts/games/connect4/bot.test.ts by npm run generate:starters: edit those, not this file.
// The tiny test of the bot's move logic (no arena, no network): node --import tsx --test bot.test.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConnectFourMessage, ConnectFourTurn } from 'botarena/sdk';
import { chooseMove, handle, landingRow } from './bot.js'; // tsx finds bot.ts for './bot.js'

// Real messages, from docs/games/connect4.md.
const init = JSON.parse('{"game-id":"example","action":"init","game":"connectfour","players":2,"board":"","player-index":0}') as ConnectFourMessage;
const turn4 = JSON.parse(
  '{"game-id":"example","action":"play-turn","game":"connectfour","players":2,"opponent":"random","you":"O","board":[["","X","","","","","O"],["","X","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""]],"player-index":1}',
) as ConnectFourTurn;

test('the init gets a name', () => {
  assert.deepEqual(handle(init), { name: 'ts-starter' });
});

test('a turn is answered with a column that is not full', () => {
  const { play } = chooseMove(turn4);
  const col = Number(play);
  assert.ok(Number.isInteger(col) && col >= 0 && col <= 6, `${play} is a column 0..6`);
  assert.ok(landingRow(turn4.board, col) >= 0, `column ${col} is not full`);
});

test('a full column is never played', () => {
  const board = turn4.board.map((row) => row.slice());
  for (const row of board) row[3] = 'X'; // fill the centre column
  const { play } = chooseMove({ ...turn4, board });
  assert.notEqual(Number(play), 3);
});
