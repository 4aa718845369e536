import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allEnded, applyCommand, endTurn, markOut, scoreOf, setup, winnerOf } from './rules.js';
import { finishedLine, viewOf } from './view.js';

describe('smart-dog views', () => {
  // Two tiles of 5×3: dog 1 (0,0) and a sheep (1,1); dog 2 (5,0) and a sheep (6,1). Radius 2.
  const MAP = `{"dogVisibilityR":2,"dogBarkingR":2}
    @....
    .*...
    .....`;

  it('lists what the player’s dogs see, in scan order (dx, then dy), each cell once on a small board', () => {
    const s = setup({ map: MAP, players: 2 });
    assert.deepEqual(viewOf(s, 1), [
      'state  "turn":1',
      'obj  "id":1,"type":"Dog","x":0,"y":0,"owner":1,"action":"move"',
      'obj  "type":"Sheep","x":1,"y":1,"action":"standBy","direction":"down"',
      'turn',
    ]);
  });

  it('judges "within R" on the torus: on a board narrower than 2R+1 a long offset may land on a near cell', () => {
    // 3 columns, R = 2: the offset (−2, 1) lands on (1, 1), one column and one row from the dog. The original
    // lists that sheep there, first; reading the offset's own length (5 > 4) would list it last, at (+1, 1).
    const s = setup({ map: `{"dogVisibilityR":2}\n@..\n.*.\n..*\n...\n*..`, players: 1 });
    assert.deepEqual(viewOf(s, 1), [
      'state  "turn":1',
      'obj  "type":"Sheep","x":1,"y":1,"action":"standBy","direction":"down"',
      'obj  "type":"Sheep","x":0,"y":4,"action":"standBy","direction":"down"',
      'obj  "id":1,"type":"Dog","x":0,"y":0,"owner":1,"action":"move"',
      'turn',
    ]);
  });

  it('adds a barking dog it does not see as voice and position only, at its position now', () => {
    const s = setup({ map: MAP, players: 2 });
    assert.deepEqual(applyCommand(s, 2, 'do 2 bark'), {});
    assert.deepEqual(applyCommand(s, 2, 'do 2 move right'), {});
    applyCommand(s, 1, 'end');
    assert.equal(allEnded(s), false);
    applyCommand(s, 2, 'end');
    assert.equal(allEnded(s), true);
    endTurn(s);
    assert.deepEqual(viewOf(s, 1), [
      'state  "turn":2',
      'obj  "id":1,"type":"Dog","x":0,"y":0,"owner":1,"action":"move"',
      'obj  "type":"Sheep","x":1,"y":1,"action":"standBy","direction":"down"',
      'obj  "voice":"barking","x":6,"y":0',
      'turn',
    ]);
    // Player 2 sees its own dog barking; the sheep fled down (a diagonal → vertical) before the dog's cell in scan order.
    assert.deepEqual(viewOf(s, 2), [
      'state  "turn":2',
      'obj  "type":"Sheep","x":6,"y":2,"action":"standBy","direction":"down"',
      'obj  "id":2,"type":"Dog","x":6,"y":0,"owner":2,"action":"move","voice":"barking"',
      'turn',
    ]);
    endTurn(s);
    assert.ok(!viewOf(s, 1).some((l) => l.includes('barking')), 'only the previous turn’s barks are heard');
  });

  it('shows a seen barking dog in full, scared dogs as panic or indignant', () => {
    const s = setup({ map: '{"dogVisibilityR":3,"dogBarkingR":3}\n.@.\n.*.', players: 2 });
    applyCommand(s, 1, 'do 1 bark');
    endTurn(s);
    const v = viewOf(s, 2);
    assert.ok(v.includes('obj  "id":1,"type":"Dog","x":1,"y":0,"owner":1,"action":"move","voice":"barking"'), v.join('\n'));
    assert.ok(v.includes('obj  "id":2,"type":"Dog","x":4,"y":0,"owner":2,"action":"panic"'), v.join('\n'));
    assert.ok(!v.some((l) => l.startsWith('obj  "voice"')));
  });
});

describe('smart-dog scoring and the end', () => {
  it('scores 0 at C = I, −10·(I−C)/I below, 10·C/M above', () => {
    assert.equal(scoreOf(2, 5, 2), 0);
    assert.equal(scoreOf(2, 5, 1), -5);
    assert.equal(scoreOf(2, 5, 0), -10);
    assert.equal(scoreOf(2, 5, 3), 6);
    assert.equal(scoreOf(0, 4, 0), 0);
    assert.equal(scoreOf(0, 4, 4), 10);
    assert.equal(scoreOf(0, 4, 8), 20);
    assert.equal(scoreOf(3, 4, 1), -20 / 3);
  });

  it('counts sheep of any origin on a player’s own pens; the winner is the best above −10, ties to the lowest id', () => {
    const s = setup({ map: '{"turnsLimit":2}\n@o*-', players: 3 });
    assert.deepEqual(s.scores, [0, 0, 0]);
    assert.equal(winnerOf(s), 1, 'a tie goes to the lowest id');
    // Move player 3's loose sheep onto player 2's free pen cell (x 7, y 1).
    const sh = s.sheep[5]!;
    s.occ[sh.y * s.cols + sh.x] = 0;
    Object.assign(sh, { x: 7, y: 1 });
    s.occ[1 * s.cols + 7] = -6;
    endTurn(s);
    assert.deepEqual(s.scores, [0, 10, 0]);
    assert.equal(winnerOf(s), 2);
    endTurn(s);
    assert.equal(s.finished, true);
    assert.equal(s.turn, 2, 'the last turn is turnsLimit');
    assert.equal(finishedLine(s, 2), 'finished "youWin":true,"winner":2');
    assert.equal(finishedLine(s, 1), 'finished "youWin":false,"winner":2');
    assert.equal(finishedLine(s, 1, 'server stopped'), 'finished "youWin":false,"error":"server stopped"');
  });

  it('an out player scores −10 whatever its pens hold and cannot win; nobody left ends the game with no winner', () => {
    const s = setup({ map: '@o*-', players: 2 });
    markOut(s, 1);
    assert.deepEqual(s.scores, [-10, 0]);
    assert.equal(winnerOf(s), 2);
    assert.equal(allEnded(s), false);
    applyCommand(s, 2, 'end');
    assert.equal(allEnded(s), true, 'an out player counts as ended');
    markOut(s, 2);
    assert.equal(s.finished, true);
    assert.equal(winnerOf(s), null);
    assert.equal(finishedLine(s, 2), 'finished "youWin":false');
  });
});
