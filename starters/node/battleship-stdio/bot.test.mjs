// Generated from starters/src/node/games/battleship/bot.test.mjs by npm run generate:starters: edit those, not this file.
// The tiny test: real messages from docs/games/battleship.md fed to the move logic (no network, no loop).
// Run: node --test bot.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, placeFleet } from './bot.mjs';

/** Checks a fleet against the rules: on the grid, straight, no overlaps, the exact count per length. */
function assertValidFleet(boats, settings) {
  const width = Number(settings.width);
  const height = Number(settings.height);
  const used = new Set();
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const boat of boats) {
    const match = /^(0|[1-9]\d*),(0|[1-9]\d*)-(0|[1-9]\d*),(0|[1-9]\d*)$/.exec(boat);
    assert.ok(match, `${boat} is "x1,y1-x2,y2"`);
    const [x1, y1, x2, y2] = match.slice(1).map(Number);
    assert.ok(x1 === x2 || y1 === y2, `${boat} is not diagonal`);
    assert.ok(Math.max(x1, x2) < width && Math.max(y1, y2) < height, `${boat} is on the grid`);
    for (let x = Math.min(x1, x2); x <= Math.max(x1, x2); x++) {
      for (let y = Math.min(y1, y2); y <= Math.max(y1, y2); y++) {
        assert.ok(!used.has(`${x},${y}`), `${boat} overlaps another ship at ${x},${y}`);
        used.add(`${x},${y}`);
      }
    }
    counts[Math.abs(x2 - x1) + Math.abs(y2 - y1) + 1]++;
  }
  for (let n = 1; n <= 6; n++) assert.equal(counts[n], Number(settings[`ship${n}`]), `ships of length ${n}`);
}

test('answers init with a valid fleet', () => {
  const init = {"game-id":2971996522,"game":"battleship","action":"init","players":2,"player-index":0,"board":{"opponent":"random","width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0"}};
  assertValidFleet(answer(init).boats, init.board);
});

test('a valid fleet on a crowded small grid too', () => {
  const settings = {"opponent":"random","width":"4","height":"4","ship1":"2","ship2":"1","ship3":"0","ship4":"1","ship5":"0","ship6":"0"};
  for (let k = 0; k < 50; k++) assertValidFleet(placeFleet(settings), settings);
});

test('shoots a cell on the grid not shot before', () => {
  const message = {"game":"Battleship","game-id":2971996522,"action":"play-turn","player-index":0,"board":{"opponent":"random","width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0","your_strikes":[{"target":"0,4","result":"hit"},{"target":"6,9","result":""},{"target":"4,9","result":""}],"his_strikes":[{"target":"9,3","result":""},{"target":"7,2","result":""},{"target":"3,9","result":""}]}};
  const { play } = answer(message);
  const match = /^(0|[1-9]\d*),(0|[1-9]\d*)$/.exec(play);
  assert.ok(match, `${play} is "x,y"`);
  assert.ok(Number(match[1]) < 10 && Number(match[2]) < 10, `${play} is on the grid`);
  assert.ok(!message.board.your_strikes.some((s) => s.target === play), `${play} was not shot before`);
  assert.ok(['1,4', '0,5', '0,3'].includes(play), 'it shoots next to its hit at 0,4');
});
