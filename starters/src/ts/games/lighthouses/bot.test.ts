// The tiny test of the bot's move logic (no arena, no network): node --import tsx --test bot.test.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SILENT, type LighthousesInit, type LighthousesTurn } from 'botarena/sdk';
import { canConnect, chooseCommand, handle, remember } from './bot.js'; // tsx finds bot.ts for './bot.js'

// Real messages, from docs/games/lighthouses.md.
const init = JSON.parse(
  '{"player_num":0,"player_count":2,"position":[5,10],"map":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,1,1,1,0,0,0,0,1,1,1,0,0,0,0,0,0],[0,0,0,1,1,1,0,0,1,1,1,1,1,1,1,1,1,0,0,0,0],[0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0],[0,1,1,1,1,1,1,1,1,1,0,0,1,1,1,1,1,1,1,0,0],[0,0,1,1,1,1,1,1,0,0,0,0,1,1,1,1,1,1,1,0,0],[0,0,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,1,1,0],[0,1,1,1,1,1,1,1,1,1,0,0,1,1,1,1,1,1,1,1,0],[0,1,1,1,1,1,1,1,1,1,1,0,0,0,1,1,1,1,1,0,0],[0,0,1,1,1,1,1,1,1,1,1,0,0,0,0,1,1,1,1,0,0],[0,0,0,1,1,1,1,1,1,1,1,1,0,0,1,1,1,0,0,0,0],[0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]],"lighthouses":[[11,2],[7,3],[15,4],[4,6],[15,6],[4,8],[7,9],[18,9],[8,11]]}',
) as LighthousesInit;
const turn1 = JSON.parse(
  '{"position":[5,10],"score":0,"energy":5,"view":[[-1,-1,-1,8,-1,-1,-1],[-1,6,9,8,9,8,-1],[-1,5,8,8,9,8,-1],[0,2,5,0,7,8,7],[-1,0,0,5,6,7,-1],[-1,0,0,0,0,0,-1],[-1,-1,-1,0,-1,-1,-1]],"lighthouses":[{"position":[11,2],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[7,3],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[15,4],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[4,6],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[15,6],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[4,8],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[7,9],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[18,9],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[8,11],"owner":-1,"energy":0,"connections":[],"have_key":false}]}',
) as LighthousesTurn;

test('the init gets a name, a result line gets no answer', () => {
  assert.deepEqual(handle(init), { name: 'ts-starter' });
  assert.equal(handle({ success: true }), SILENT);
  assert.equal(handle({ success: false, message: 'Delta must be 1 cell away' }), SILENT);
});

test('the first command is a move onto an island cell', () => {
  const command = chooseCommand(remember(init), turn1);
  assert.equal(command.command, 'move');
  if (command.command !== 'move') return;
  assert.ok(command.x !== 0 || command.y !== 0, 'a real step');
  const [x, y] = [turn1.position[0] + command.x, turn1.position[1] + command.y];
  assert.equal(init.map[y]?.[x], 1, `${x},${y} is an island cell`);
});

test('standing on a neutral lighthouse with energy, it attacks; on its own, it links', () => {
  const onLighthouse = { ...turn1, position: [7, 9] as [number, number], energy: 100 };
  assert.deepEqual(chooseCommand(remember(init), onLighthouse), { command: 'attack', energy: 100 });
  // Own 7,9 and 4,8 and hold 4,8's key: a link is allowed (nothing lies between them).
  const lighthouses = turn1.lighthouses.map((l) =>
    l.position.join() === '7,9' || l.position.join() === '4,8' ? { ...l, owner: 0, energy: 80, have_key: true } : l,
  );
  const owned = { ...onLighthouse, lighthouses };
  assert.ok(canConnect(0, owned, [7, 9], [4, 8]));
  assert.deepEqual(chooseCommand(remember(init), owned), { command: 'connect', destination: [4, 8] });
});
