import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyCommand, endTurn, setup } from './rules.js';
import type { SmartDogState } from './state.js';
import { viewOf } from './view.js';

const game = (map: string, players = 1) => setup({ map, players });
const pos = (s: SmartDogState) => s.sheep.map((sh) => `${sh.x},${sh.y}`);
const heads = (s: SmartDogState) => s.sheep.map((sh) => sh.heading);
/** Plays one turn: the given lines of player 1, then `end`, then the sheep phase. */
function turn(s: SmartDogState, ...lines: string[]) {
  for (const l of lines) assert.deepEqual(applyCommand(s, 1, l), {}, l);
  endTurn(s);
}

describe('smart-dog sheep: normal movement', () => {
  it('moves on turns N with N mod (sheepStandBy+1) == 0, never from a pen, and stops on a pen', () => {
    const s = game(`{"sheepStandBy":2}
      @....
      ..*.o
      .....
      ..-..
      .....`);
    const seen: string[][] = [];
    for (let t = 1; t <= 9; t++) {
      seen.push(pos(s));
      if (t === 3) assert.match(viewOf(s, 1).join('\n'), /"type":"Sheep","x":2,"y":1,"action":"move","direction":"down"/);
      if (t === 2) assert.match(viewOf(s, 1).join('\n'), /"type":"Sheep","x":2,"y":1,"action":"standBy"/);
      if (t === 3) assert.match(viewOf(s, 1).join('\n'), /"type":"Sheep","x":4,"y":1,"action":"standBy"/);
      turn(s);
    }
    assert.deepEqual(
      seen.map((p) => p[0]),
      ['2,1', '2,1', '2,1', '2,2', '2,2', '2,2', '2,3', '2,3', '2,3'],
    );
    assert.deepEqual(pos(s), ['2,3', '4,1'], 'on the pen since turn 6, it stays; the penned sheep never moved');
  });

  it('turns left, right, then back relative to its heading, and keeps the way that worked', () => {
    const s = game(`{"sheepStandBy":0}
      #####
      #*..#
      #####
      @....`);
    const trail: string[] = [];
    for (let t = 1; t <= 6; t++) {
      turn(s);
      trail.push(`${pos(s)[0]} ${heads(s)[0]}`);
    }
    // down blocked → right; right blocked at the fence → up, down blocked → left (back); left blocked → down, up blocked → right.
    assert.deepEqual(trail, ['2,1 right', '3,1 right', '2,1 left', '1,1 left', '2,1 right', '3,1 right']);
  });

  it('a column of sheep advances together: each pushes the one ahead, across the board edge', () => {
    const s = game(`{"sheepStandBy":0}
      @..
      .*.
      .*.
      .*.
      ...
      ...`);
    turn(s);
    assert.deepEqual(pos(s), ['1,2', '1,3', '1,4']);
    turn(s);
    assert.deepEqual(pos(s), ['1,3', '1,4', '1,5']);
    turn(s);
    assert.deepEqual(pos(s), ['1,4', '1,5', '1,0']);
    assert.deepEqual(heads(s), ['down', 'down', 'down']);
  });

  it('a pushed sheep makes its whole normal move (turning), then the pusher tries its heading again', () => {
    const s = game(`{"sheepStandBy":0}
      @....
      ..*..
      ..*..
      ..#..`);
    turn(s);
    assert.deepEqual(pos(s), ['2,2', '3,2']);
    assert.deepEqual(heads(s), ['down', 'right']);
  });

  it('a sheep blocked by a dog turns; dogs are not pushed', () => {
    const s = game(`{"sheepStandBy":0}
      .*.
      .@.
      ...`);
    turn(s);
    assert.deepEqual(pos(s), ['2,0']);
    assert.deepEqual(heads(s), ['right']);
  });
});

describe('smart-dog sheep: fear', () => {
  it('flees from a bark along the larger axis; the half-board tie crosses the edge', () => {
    let s = game('.@...*..');
    turn(s, 'do 1 bark');
    assert.deepEqual(pos(s), ['4,0'], 'dx is −4 (half of 8, toward the edge) → left');
    assert.equal(s.sheep[0]!.heading, 'left');
    s = game('.*...@..');
    turn(s, 'do 1 bark');
    assert.deepEqual(pos(s), ['2,0'], 'from x=5 to x=1: +4 crosses the edge → right');
    s = game('*.....@.');
    turn(s, 'do 1 bark');
    assert.deepEqual(pos(s), ['1,0'], 'the short way round is +2 → right');
    s = game(`*
      .
      @
      .`);
    turn(s, 'do 1 bark');
    assert.deepEqual(pos(s), ['0,1'], 'dy is +2 (half of 4, across the edge) → down, even toward the dog');
  });

  it('exact diagonals and other ties go vertical', () => {
    let s = game(`@...
      .*..
      ....
      ....`);
    turn(s, 'do 1 bark');
    assert.deepEqual(pos(s), ['1,2']);
    s = game(`{"dogBarkingR":3}
      ....
      ..*.
      ....
      @...
      ....`);
    // dog (0,3) → sheep (2,1): dx 2, dy −2 → up
    turn(s, 'do 1 bark');
    assert.deepEqual(pos(s), ['2,0']);
  });

  it('only sheep within dogBarkingR (dx²+dy² ≤ R²) are scared, penned ones included, and they flee out of pens', () => {
    const s = game(`{"dogBarkingR":2}
      @.o...
      ......
      .*....
      ......`);
    turn(s, 'do 1 bark');
    // (2,0): dx 2, dy 0 → within 2, flees right off the pen; (1,2): 1+4 > 4 → calm
    assert.deepEqual(pos(s), ['3,0', '1,2']);
  });

  it('re-scare replaces the direction and restarts the counter; a scared sheep flees sheepScaryTurns turns', () => {
    const s = game(`{"sheepScaryTurns":3,"sheepStandBy":99}
      .......
      .@.*...
      .......
      .......
      .......
      .......
      ...@...`);
    turn(s, 'do 1 bark');
    assert.deepEqual(pos(s), ['4,1']);
    assert.match(viewOf(s, 1).join('\n'), /"type":"Sheep","x":4,"y":1,"action":"panic","direction":"right"/);
    turn(s, 'do 2 bark'); // dog (3,6) → sheep (4,1): dx 1, dy +2 across the edge → down
    assert.deepEqual(pos(s), ['4,2']);
    turn(s);
    turn(s);
    assert.deepEqual(pos(s), ['4,4']);
    turn(s);
    assert.deepEqual(pos(s), ['4,4'], 'three turns of flight, then calm');
    assert.equal(s.sheep[0]!.fear, 0);
    assert.equal(s.sheep[0]!.heading, 'down', 'the flight direction stays its heading');
  });

  it('a fleeing sheep pushes: the pushed ones catch fear first and flee too', () => {
    const s = game(`{"sheepStandBy":99,"dogBarkingR":1,"sheepScaryTurns":2}
      ########
      #@****.#
      ########`);
    turn(s, 'do 1 bark');
    assert.deepEqual(pos(s), ['3,1', '4,1', '5,1', '6,1']);
    assert.deepEqual(
      s.sheep.map((sh) => sh.chain),
      [[], [0], [0, 1], [0, 1, 2]],
    );
  });

  it('fear runs forward along a line in one turn, but backward only one sheep per turn', () => {
    const line = (dog: string) => `{"sheepScaryTurns":2,"sheepStandBy":99,"dogBarkingR":1}
      ${dog}
      #****#
      ######`;
    let s = game(line('.@....'));
    turn(s, 'do 1 bark');
    assert.deepEqual(
      s.sheep.map((sh) => [sh.fear, sh.fearDir]),
      [
        [1, 'down'],
        [1, 'down'],
        [1, 'down'],
        [1, 'down'],
      ],
    );
    s = game(line('....@.'));
    turn(s, 'do 1 bark');
    assert.deepEqual(
      s.sheep.map((sh) => sh.fear),
      [0, 0, 1, 1],
    );
    turn(s);
    assert.deepEqual(
      s.sheep.map((sh) => sh.fear),
      [0, 1, 0, 0],
      'the second from the left caught it from the third, whose fear then ran out',
    );
    assert.deepEqual(s.sheep[1]!.chain, [3, 2]);
  });

  it('a calm sheep in its scared neighbour’s fear chain stays calm; the next sheep catches fear with the chain extended', () => {
    const s = game(`{"sheepScaryTurns":2,"sheepStandBy":99}
      @.....
      #***.#
      ######`);
    Object.assign(s.sheep[1]!, { fear: 1, fearDir: 'down', chain: [0] });
    endTurn(s);
    assert.equal(s.sheep[0]!.fear, 0, 'sheep 0 is in sheep 1’s chain');
    assert.deepEqual(s.sheep[2]!.chain, [0, 1]);
  });

  it('a sheep that catches fear takes the flight direction as its heading, and keeps it when the fear runs out before it could flee', () => {
    // The original has one direction field: catching fear overwrites it (smart-dog, games/smart-dog/server/sheep.js,
    // Sheep.prototype._scare: `p.direction = scaryObject.direction ? …`), and a calm sheep starts its normal move
    // from it (_doMove: `[p.direction].concat(p.direction.next)`). Run on the original engine (its tests/test_helper.js,
    // this map, sheepStandBy 1, sheepScaryTurns 1, dogBarkingR 1, a bark on turn 1), the lower sheep is seen on
    // turn 2 as `2,2 move right` and ends turn 2 at 3,2; the upper one as `3,1 move right`, then at 4,1.
    // This is the collector-1 divergence of issue 32 (turn 171's bark, turn 172's `right`).
    const s = game(`{"sheepStandBy":1,"sheepScaryTurns":1,"dogBarkingR":1}
      ........
      .@*.....
      ..*.....
      ........
      ........`);
    turn(s, 'do 1 bark');
    assert.deepEqual(pos(s), ['3,1', '2,2'], 'the upper sheep fled right; the lower one stood (not a move turn)');
    assert.equal(s.sheep[1]!.fear, 0, 'its fear (1 turn) ran out before turn 2');
    const sheepLines = viewOf(s, 1).filter((l) => l.includes('"Sheep"'));
    assert.deepEqual(sheepLines, [
      'obj  "type":"Sheep","x":2,"y":2,"action":"move","direction":"right"',
      'obj  "type":"Sheep","x":3,"y":1,"action":"move","direction":"right"',
    ]);
    turn(s);
    assert.deepEqual(pos(s), ['4,1', '3,2'], 'the lower sheep goes right, not down');
  });

  it('with keepHeading (config fearHeading false, which replays written before the rule play by) the sheep keeps its heading', () => {
    const s = game(`{"sheepStandBy":1,"sheepScaryTurns":1,"dogBarkingR":1}
      ........
      .@*.....
      ..*.....
      ........
      ........`);
    s.keepHeading = true;
    turn(s, 'do 1 bark');
    turn(s);
    assert.deepEqual(pos(s), ['4,1', '2,3'], 'the lower sheep goes down, its old heading');
  });
});
