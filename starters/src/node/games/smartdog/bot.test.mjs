// The tiny test: the real turn-1 lines from docs/games/smartdog.md fed to the move logic (no network, no loop).
// Run: node --test bot.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newGame, onLine, parseLine } from './bot.mjs';

const TURN1 = `start "you":1,"rows":12,"cols":32,"players":2,"x1":0,"x2":15,"y1":0,"y2":11,"waitForTurn":300000,"dogVisibilityR":4,"dogBarkingR":4,"sheepStandBy":4,"sheepScaryTurns":1,"turnsLimit":100,"dogScaryTurns":4,"maxSheepsCount":7,"iniSheepsCount":0
landscape "................................","..#######.........#######.......","..#11111#.........#22222#.......","..#11111..........#22222........","..#11111#.........#22222#.......","..#######.........#######.......","................................","................................","................................","................................","..^^.......^......^^.......^....","................................"
state  "turn":1
obj  "id":1,"type":"Dog","x":7,"y":6,"owner":1,"action":"move"
obj  "type":"Sheep","x":8,"y":8,"action":"standBy","direction":"down"
obj  "type":"Sheep","x":12,"y":6,"action":"standBy","direction":"down"
obj  "id":2,"type":"Dog","x":12,"y":8,"owner":1,"action":"move"
obj  "type":"Sheep","x":12,"y":9,"action":"standBy","direction":"down"
turn`;

test('parses lines whose JSON lost its outer braces', () => {
  assert.deepEqual(parseLine('state  "turn":3'), { command: 'state', data: { turn: 3 } });
  assert.deepEqual(parseLine('turn'), { command: 'turn', data: null });
});

test('turn 1: legal commands for our own dogs only, then end', () => {
  const game = newGame();
  const replies = TURN1.split('\n').flatMap((line) => onLine(game, line));
  assert.equal(replies.at(-1), 'end');
  const moves = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
  const dogs = { 1: [7, 6], 2: [12, 8] };
  for (const reply of replies.slice(0, -1)) {
    const match = /^do (\d+) (?:move (up|down|left|right)|bark)$/.exec(reply);
    assert.ok(match, `${reply} is a do command`);
    assert.ok(match[1] in dogs, `dog ${match[1]} is ours`);
    if (match[2]) {
      const [x, y] = [(dogs[match[1]][0] + moves[match[2]][0] + 32) % 32, (dogs[match[1]][1] + moves[match[2]][1] + 12) % 12];
      assert.ok(!'#^'.includes(game.land[y][x]), `${reply} goes onto grass or a pen`);
      assert.ok(!game.objs.some((o) => o.x === x && o.y === y), `${reply} goes onto a free cell`);
    }
  }
  assert.ok(replies.some((reply) => reply.includes('move')), 'at least one dog moves');
});
