import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMapPart, tileBoard } from './map.js';
import { resolveOptions } from './options.js';
import { setup } from './rules.js';
import { startLines } from './view.js';

const PART = `{"turnsLimit":"7","note":"ignored"}
  #--#
  @.*o

`;

describe('smart-dog map parts', () => {
  it('reads the options line, trims rows and drops blank lines', () => {
    const p = parseMapPart(PART);
    assert.deepEqual(p.options, { turnsLimit: '7', note: 'ignored' });
    assert.deepEqual(p.rows, ['#--#', '@.*o']);
    assert.equal(p.width, 4);
    assert.equal(p.height, 2);
  });

  it('names the line and column of an unknown character, the line of a ragged row, and a missing dog', () => {
    assert.throws(() => parseMapPart('{}\n..\n.x\n@*'), /map line 3, column 2: unknown character "x"/);
    assert.throws(() => parseMapPart('@*.\n\n..'), /map line 3: row has 2 cells, but the first row \(line 1\) has 3/);
    assert.throws(() => parseMapPart('..*'), /no dog/);
    assert.throws(() => parseMapPart('{"a":\n@*'), /line 1: the options line is not valid JSON/);
    assert.throws(() => parseMapPart('[1]\n@*'), /unknown character "\["/);
    assert.throws(() => parseMapPart('\n\n'), /no rows/);
    assert.throws(() => parseMapPart('@*x', 'meadow'), /^Error: meadow line 1, column 3/);
  });

  it('tiles per player count with the spec layouts, territories and pens as owner digits', () => {
    const p = parseMapPart('@-\n*o');
    const one = tileBoard(p, 1);
    assert.deepEqual(one.terrain, ['.1', '.1']);
    const two = tileBoard(p, 2);
    assert.deepEqual(two.terrain, ['.1.2', '.1.2']);
    assert.deepEqual(two.territories, [
      { x1: 0, y1: 0, x2: 1, y2: 1 },
      { x1: 2, y1: 0, x2: 3, y2: 1 },
    ]);
    const three = tileBoard(p, 3);
    assert.deepEqual(three.terrain, ['.1....', '.1....', '...2..', '...2..', '.....3', '.....3']);
    assert.deepEqual(three.territories[2], { x1: 4, y1: 4, x2: 5, y2: 5 });
    const four = tileBoard(p, 4);
    assert.deepEqual(four.terrain, ['.1...3..', '.1...3..', '...2...4', '...2...4']);
    assert.deepEqual(four.territories[3], { x1: 6, y1: 2, x2: 7, y2: 3 });
    assert.equal(four.tileSheep, 2);
    assert.equal(four.tilePenned, 1);
    assert.throws(() => tileBoard(p, 5), /1 to 4 players, not 5/);
  });

  it('creates objects in layout reading order (with 4 players: 1, 3, 2, 4) and cell order inside a tile', () => {
    const b = tileBoard(parseMapPart('*@\n@o'), 4, 100);
    assert.deepEqual(
      b.dogs.map((d) => [d.id, d.owner, d.x, d.y]),
      [
        [100, 1, 1, 0],
        [101, 1, 0, 1],
        [102, 3, 5, 0],
        [103, 3, 4, 1],
        [104, 2, 3, 2],
        [105, 2, 2, 3],
        [106, 4, 7, 2],
        [107, 4, 6, 3],
      ],
    );
    assert.deepEqual(
      b.sheep.map((s) => [s.x, s.y]),
      [
        [0, 0],
        [1, 1],
        [4, 0],
        [5, 1],
        [2, 2],
        [3, 3],
        [6, 2],
        [7, 3],
      ],
    );
    assert.ok(b.sheep.every((s) => s.heading === 'down' && s.fear === 0));
  });

  it('resolves options: defaults < hub < map, numeric strings as numbers, bad values named', () => {
    assert.deepEqual(resolveOptions(), {
      turnsLimit: 100,
      waitForTurn: 300000,
      dogVisibilityR: 4,
      dogBarkingR: 4,
      sheepStandBy: 4,
      sheepScaryTurns: 1,
      dogScaryTurns: 4,
    });
    const o = resolveOptions({ turnsLimit: 50, dogBarkingR: '3', sheepStandBy: 2 }, { turnsLimit: '7' });
    assert.equal(o.turnsLimit, 7);
    assert.equal(o.dogBarkingR, 3);
    assert.equal(o.sheepStandBy, 2);
    assert.throws(() => resolveOptions({ dogScaryTurns: 'many' }), /hub options: option dogScaryTurns is "many"; expected a number/);
    assert.throws(() => resolveOptions({}, { turnsLimit: 0 }), /map options: option turnsLimit is 0; it must be at least 1/);
  });

  it('sends start with exactly the spec keys in order, as numbers, and the landscape rows', () => {
    const s = setup({ map: PART, players: 2, hubOptions: { dogVisibilityR: '5' } });
    const [start, landscape] = startLines(s, 2);
    assert.equal(
      start,
      'start "you":2,"rows":2,"cols":8,"players":2,"x1":4,"x2":7,"y1":0,"y2":1,"waitForTurn":300000,"dogVisibilityR":5,"dogBarkingR":4,"sheepStandBy":4,"sheepScaryTurns":1,"turnsLimit":7,"dogScaryTurns":4,"maxSheepsCount":2,"iniSheepsCount":1',
    );
    assert.equal(landscape, 'landscape "#11##22#","...1...2"');
  });
});
