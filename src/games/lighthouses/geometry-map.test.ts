import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onSegment, orient2d, rasterizeTriangle, segmentsCross, type Point } from './geometry.js';
import { parseMap } from './map.js';
import { MAPS } from './maps.js';

const key = (cells: [number, number][]) => cells.map(([x, y]) => `${x},${y}`).sort();

describe('lighthouses geometry', () => {
  it('rasterizes (0,0),(5,0),(0,5) to the 10 cells with y ≥ 1 and x+y ≤ 4', () => {
    const want: [number, number][] = [];
    for (let y = 1; y <= 4; y++) for (let x = 0; x + y <= 4; x++) want.push([x, y]);
    assert.equal(want.length, 10);
    assert.deepEqual(key(rasterizeTriangle([0, 0], [5, 0], [0, 5])), key(want));
  });

  it('rasterizes (5,5),(5,0),(0,5) to 15 cells, and the two halves tile the 5×5 square exactly once', () => {
    const a = rasterizeTriangle([0, 0], [5, 0], [0, 5]);
    const b = rasterizeTriangle([5, 5], [5, 0], [0, 5]);
    assert.equal(b.length, 15);
    const all = key([...a, ...b]);
    assert.equal(new Set(all).size, 25, 'no cell counted twice');
    const square: [number, number][] = [];
    for (let y = 1; y <= 5; y++) for (let x = 0; x <= 4; x++) square.push([x, y]);
    assert.deepEqual(all, key(square));
  });

  it('rasterizes (0,0),(10,0),(5,10) to 45 cells and (3,3),(1,2),(5,2) to none', () => {
    assert.equal(rasterizeTriangle([0, 0], [10, 0], [5, 10]).length, 45);
    assert.equal(rasterizeTriangle([3, 3], [1, 2], [5, 2]).length, 0);
  });

  it('gives the same cells whatever the vertex order', () => {
    const tri: Point[] = [
      [1, 5],
      [5, 5],
      [3, 2],
    ];
    const orders = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    const results = orders.map(([i, j, k]) => key(rasterizeTriangle(tri[i!]!, tri[j!]!, tri[k!]!)));
    for (const r of results) assert.deepEqual(r, results[0]);
    // Hand-checked: the top edge y=5 is in (x 1..4, the right end lies on a non-top edge), 3 cells at y=4, 1 at y=3, the apex out.
    assert.deepEqual(
      results[0],
      key([
        [1, 5],
        [2, 5],
        [3, 5],
        [4, 5],
        [2, 4],
        [3, 4],
        [4, 4],
        [3, 3],
      ]),
    );
  });

  it('counts cells whose centres lie on an edge once between neighbours (a shared diagonal)', () => {
    const left = rasterizeTriangle([0, 0], [4, 4], [0, 4]);
    const right = rasterizeTriangle([0, 0], [4, 0], [4, 4]);
    const shared = key(left).filter((k) => key(right).includes(k));
    assert.deepEqual(shared, []);
    assert.equal(left.length + right.length, 16, 'the 4×4 square (top-left rule) is covered exactly');
  });

  it('tells proper crossings from touching, shared ends and collinear segments', () => {
    assert.equal(orient2d([0, 0], [2, 0], [1, 1]), 2);
    assert.ok(segmentsCross([0, 0], [4, 4], [0, 4], [4, 0]), 'an X crosses');
    assert.ok(!segmentsCross([0, 0], [4, 4], [4, 4], [8, 0]), 'a shared end is not a crossing');
    assert.ok(!segmentsCross([0, 0], [4, 4], [2, 2], [6, 0]), 'an end touching the other segment is not a crossing');
    assert.ok(!segmentsCross([0, 0], [4, 0], [2, 0], [6, 0]), 'collinear overlap is not a crossing');
    assert.ok(!segmentsCross([0, 0], [4, 0], [0, 1], [4, 1]), 'parallel segments do not cross');
    assert.ok(onSegment([0, 0], [6, 3], [2, 1]) && !onSegment([0, 0], [6, 3], [8, 4]) && !onSegment([0, 0], [6, 3], [2, 2]));
  });
});

describe('lighthouses maps', () => {
  it('reads rows bottom-up, lighthouses in scan order, start slots by character then x then y', () => {
    const m = parseMap(['#######', '#B ! A#', '#  A  #', '#!   B#', '#######'].join('\n'));
    assert.equal(m.width, 7);
    assert.equal(m.height, 5);
    assert.deepEqual(m.island[0], [0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(m.island[1], [0, 1, 1, 1, 1, 1, 0]);
    assert.deepEqual(m.lighthouses, [
      [1, 1],
      [3, 3],
    ]);
    assert.deepEqual(m.starts, [
      [3, 2],
      [5, 3],
      [1, 3],
      [5, 1],
    ]);
  });

  for (const [text, problem] of [
    [['#####', '# ! #', '#### '].join('\n'), /line 3, column 5 .* on the border/],
    [['#####', '# ! #', '## #'].join('\n'), /line 3 is 4 characters wide, line 1 is 5/],
    [['#######', '#A#!# #', '#######'].join('\n'), /the island is split: cell x=3, y=1/],
    [['#######', '#A# #!#', '#######'].join('\n'), /the island is split: cell x=3, y=1/],
    [['#####', '# A #', '#####'].join('\n'), /no lighthouse/],
    [['#####', '# ! #', '#####'].join('\n'), /no start slot/],
  ] as const) {
    it(`refuses a bad map with the rule and the place: ${problem}`, () => assert.throws(() => parseMap(text), problem));
  }

  it('accepts islands joined only diagonally', () => {
    assert.doesNotThrow(() => parseMap(['######', '#A####', '##!###', '######'].join('\n')));
  });

  it('ships at least four valid maps, from 2 players to 8', () => {
    const parsed = Object.entries(MAPS).map(([name, m]) => ({ name, m: parseMap(m.text) }));
    assert.ok(parsed.length >= 4);
    assert.ok(
      parsed.some(({ m }) => m.starts.length === 2 && m.width * m.height < 200),
      'a small 2-player map',
    );
    assert.ok(
      parsed.some(({ m }) => m.starts.length >= 4 && m.width * m.height > 800),
      'a large map for 4+ players',
    );
  });
});
