// The tiny test of the bot's move logic (no server, no network): node --import tsx --test bot.test.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readLine, type Game } from './bot.js'; // tsx finds bot.ts for './bot.js'

// The real lines of turn 1, from docs/games/smartdog.md (`state` and `obj` are followed by two spaces).
const TURN1 = `start "you":1,"rows":12,"cols":32,"players":2,"x1":0,"x2":15,"y1":0,"y2":11,"waitForTurn":300000,"dogVisibilityR":4,"dogBarkingR":4,"sheepStandBy":4,"sheepScaryTurns":1,"turnsLimit":100,"dogScaryTurns":4,"maxSheepsCount":7,"iniSheepsCount":0
landscape "................................","..#######.........#######.......","..#11111#.........#22222#.......","..#11111..........#22222........","..#11111#.........#22222#.......","..#######.........#######.......","................................","................................","................................","................................","..^^.......^......^^.......^....","................................"
state  "turn":1
obj  "id":1,"type":"Dog","x":7,"y":6,"owner":1,"action":"move"
obj  "type":"Sheep","x":8,"y":8,"action":"standBy","direction":"down"
obj  "type":"Sheep","x":12,"y":6,"action":"standBy","direction":"down"
obj  "id":2,"type":"Dog","x":12,"y":8,"owner":1,"action":"move"
obj  "type":"Sheep","x":12,"y":9,"action":"standBy","direction":"down"
turn`.split('\n');

test('turn 1 is answered with moves onto free cells for my dogs, then end', () => {
  const game: Game = { landscape: [], things: [] };
  let commands;
  for (const line of TURN1) commands = readLine(game, line) ?? commands;
  assert.ok(Array.isArray(commands), 'the turn line gets commands');
  assert.equal(commands.at(-1), 'end');
  const occupied = new Set(game.things.map((t) => `${t.x},${t.y}`));
  for (const command of commands.slice(0, -1)) {
    const m = /^do (\d+) (?:move (up|down|left|right)|bark)$/.exec(command);
    assert.ok(m, `${command} is a do line`);
    const dog = game.things.find((t) => t.type === 'Dog' && t.id === Number(m[1]));
    assert.ok(dog && dog.type === 'Dog' && dog.owner === 1, `dog ${m[1]} is mine`);
    if (m[2]) {
      const steps: Record<string, [number, number]> = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
      const [dx, dy] = steps[m[2]]!;
      const [x, y] = [(dog.x + dx + 32) % 32, (dog.y + dy + 12) % 12];
      assert.ok(!'#^'.includes(game.landscape[y]![x]!) && !occupied.has(`${x},${y}`), `${command}: ${x},${y} is free`);
    }
  }
  assert.ok(commands.some((c) => c.includes('move')), 'at least one dog moves');
});

test('finished ends the game', () => {
  assert.equal(readLine({ landscape: [], things: [] }, 'finished "youWin":true,"winner":1'), 'finished');
});
