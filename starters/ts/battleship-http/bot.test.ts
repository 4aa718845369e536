// Generated from starters/src/ts/games/battleship/bot.test.ts by npm run generate:starters: edit those, not this file.
// The tiny test of the bot's move logic (no arena, no network): node --import tsx --test bot.test.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BattleshipInit, BattleshipInitAnswer, BattleshipTurn } from 'botarena/sdk';
import { chooseShot, handle, placeFleet, shipLengths, type Settings } from './bot.js'; // tsx finds bot.ts for './bot.js'

// Real messages, from docs/games/battleship.md.
const init = JSON.parse(
  '{"game-id":2971996522,"game":"battleship","action":"init","players":2,"player-index":0,"board":{"opponent":"random","width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0"}}',
) as BattleshipInit;
const turn7 = JSON.parse(
  '{"game":"Battleship","game-id":2971996522,"action":"play-turn","player-index":0,"board":{"opponent":"random","width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0","your_strikes":[{"target":"0,4","result":"hit"},{"target":"6,9","result":""},{"target":"4,9","result":""}],"his_strikes":[{"target":"9,3","result":""},{"target":"7,2","result":""},{"target":"3,9","result":""}]}}',
) as BattleshipTurn;

/** Checks a fleet the way the arena does: on the grid, straight, no overlap, the right count of each length. */
function assertValidFleet(boats: string[], board: Settings): void {
  const [w, h] = [Number(board.width), Number(board.height)];
  const used = new Set<string>();
  const lengths: number[] = [];
  for (const ship of boats) {
    const m = /^(0|[1-9]\d*),(0|[1-9]\d*)-(0|[1-9]\d*),(0|[1-9]\d*)$/.exec(ship);
    assert.ok(m, `${ship} is "x1,y1-x2,y2"`);
    const [x1, y1, x2, y2] = m.slice(1).map(Number) as [number, number, number, number];
    assert.ok(x1 === x2 || y1 === y2, `${ship} is straight`);
    for (let x = Math.min(x1, x2); x <= Math.max(x1, x2); x++) {
      for (let y = Math.min(y1, y2); y <= Math.max(y1, y2); y++) {
        assert.ok(x < w && y < h, `${ship} is on the grid`);
        assert.ok(!used.has(`${x},${y}`), `${ship} overlaps another ship at ${x},${y}`);
        used.add(`${x},${y}`);
      }
    }
    lengths.push(Math.abs(x2 - x1) + Math.abs(y2 - y1) + 1);
  }
  assert.deepEqual(lengths.sort((a, b) => b - a), shipLengths(board));
}

test('the init is answered with a valid fleet', () => {
  const answer = handle(init) as BattleshipInitAnswer;
  assertValidFleet(answer.boats, init.board);
});

test('fleets fit other ship counts and grid sizes too', () => {
  const small = { ...init.board, width: '8', height: '8', ship5: '0', ship1: '2' };
  for (let i = 0; i < 50; i++) assertValidFleet(placeFleet(small), small);
  const tight = { ...init.board, width: '5', height: '2', ship2: '0', ship3: '0', ship4: '0', ship5: '1' };
  assertValidFleet(placeFleet(tight), tight);
});

test('a shot is on the grid and not fired before', () => {
  const { play } = chooseShot(turn7);
  const [x, y] = play.split(',').map(Number) as [number, number];
  assert.ok(x >= 0 && x < 10 && y >= 0 && y < 10, `${play} is on the grid`);
  assert.ok(!turn7.board.your_strikes.some((s) => s.target === play), `${play} is new`);
  assert.equal(play, '1,4', 'next to the hit at 0,4');
});
