// Generated from starters/src/node/games/lighthouses/bot.test.mjs by npm run generate:starters: edit those, not this file.
// The tiny test: real messages from docs/games/lighthouses.md fed to the move logic (no network, no loop).
// Run: node --test bot.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, chooseCommand, isIsland } from './bot.mjs';

const init = {"player_num":0,"player_count":2,"position":[5,10],"map":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,1,1,1,0,0,0,0,1,1,1,0,0,0,0,0,0],[0,0,0,1,1,1,0,0,1,1,1,1,1,1,1,1,1,0,0,0,0],[0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0],[0,1,1,1,1,1,1,1,1,1,0,0,1,1,1,1,1,1,1,0,0],[0,0,1,1,1,1,1,1,0,0,0,0,1,1,1,1,1,1,1,0,0],[0,0,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,1,1,0],[0,1,1,1,1,1,1,1,1,1,0,0,1,1,1,1,1,1,1,1,0],[0,1,1,1,1,1,1,1,1,1,1,0,0,0,1,1,1,1,1,0,0],[0,0,1,1,1,1,1,1,1,1,1,0,0,0,0,1,1,1,1,0,0],[0,0,0,1,1,1,1,1,1,1,1,1,0,0,1,1,1,0,0,0,0],[0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]],"lighthouses":[[11,2],[7,3],[15,4],[4,6],[15,6],[4,8],[7,9],[18,9],[8,11]]};
const turn1 = {"position":[5,10],"score":0,"energy":5,"view":[[-1,-1,-1,8,-1,-1,-1],[-1,6,9,8,9,8,-1],[-1,5,8,8,9,8,-1],[0,2,5,0,7,8,7],[-1,0,0,5,6,7,-1],[-1,0,0,0,0,0,-1],[-1,-1,-1,0,-1,-1,-1]],"lighthouses":[{"position":[11,2],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[7,3],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[15,4],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[4,6],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[15,6],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[4,8],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[7,9],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[18,9],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[8,11],"owner":-1,"energy":0,"connections":[],"have_key":false}]};

test('answers init with a name, and the result line with nothing', () => {
  assert.equal(typeof answer(init).name, 'string');
  assert.equal(answer({ success: true }), undefined);
  assert.equal(answer({ success: false, message: 'Delta must be 1 cell away' }), undefined);
});

test('first turn: a one-cell move onto an island cell', () => {
  answer(init);
  const command = answer(turn1);
  assert.equal(command.command, 'move');
  assert.ok([-1, 0, 1].includes(command.x) && [-1, 0, 1].includes(command.y) && (command.x || command.y));
  assert.ok(isIsland(init.map, 5 + command.x, 10 + command.y), 'the target is island');
});

test('on a neutral lighthouse with energy: attacks it', () => {
  const state = { ...turn1, position: [7, 9] };
  assert.deepEqual(chooseCommand(state, 0, init.map), { command: 'attack', energy: 5 });
});

test('connects two of its lighthouses only when it holds the key', () => {
  const owned = (l, key) => ({ ...l, owner: 0, energy: 50, have_key: key });
  const lighthouses = turn1.lighthouses.map((l) => (l.position[0] === 7 && l.position[1] === 9 ? owned(l, false) : l.position[0] === 8 && l.position[1] === 11 ? owned(l, true) : l));
  const state = { ...turn1, position: [7, 9], lighthouses };
  assert.deepEqual(chooseCommand(state, 0, init.map), { command: 'connect', destination: [8, 11] });
  const noKey = { ...state, lighthouses: lighthouses.map((l) => ({ ...l, have_key: false })) };
  assert.equal(chooseCommand(noKey, 0, init.map).command, 'move');
});
