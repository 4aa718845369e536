import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeCell } from '../bench/fresh.js';

// `npm run bench` runs the rules tables in several fresh processes and merges their cells: what it prints
// in bench/RESULTS.md must say what the runs measured.
describe("the bench merges fresh processes' tables cell by cell", () => {
  it('keeps a cell every run agrees on', () => {
    assert.equal(mergeCell([800, 800, 800]), 800);
    assert.equal(mergeCell(['1.0×', '1.0×']), '1.0×');
  });

  it('gives a number that varies as its median and range, with as many decimals as the runs wrote', () => {
    assert.equal(mergeCell(['0.44', '0.40', '0.52', '0.41', '0.46']), '0.44 (0.40–0.52)');
    assert.equal(mergeCell([7, 9, 8]), '8 (7–9)');
    assert.equal(mergeCell(['-2.5', '1.5', '0.5']), '0.5 (-2.5–1.5)');
  });

  it("keeps a ratio's ×, and merges each number inside a sentence on its own", () => {
    assert.equal(mergeCell(['2.8×', '3.1×', '2.6×']), '2.8× (2.6–3.1×)');
    assert.equal(
      mergeCell(['(set-up: 7.4 µs a match, 12 games)', '(set-up: 6.9 µs a match, 14 games)', '(set-up: 8.0 µs a match, 13 games)']),
      '(set-up: 7.4 (6.9–8.0) µs a match, 13 (12–14) games)',
    );
  });

  it('shows every run when their texts differ otherwise than in numbers', () => {
    assert.equal(mergeCell(['2.8×', 'Infinity×', '2.6×']), '2.8× | Infinity× | 2.6×');
  });
});
