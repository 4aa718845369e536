import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addPair, eloEstimate, eloFromScore, erf, erfc, expectedScore, normalCdf, sprt, type Pentanomial, type SprtBounds } from './sprt.js';

/** The usual test: H0 "no better" against H1 "10 Elo better", 5 % errors each way. */
const B: SprtBounds = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 };
/** s(10) − s(0) = 0.5143871841659986… − ½ (10^(−1/40) = 0.9440608762859234…). */
const D = 0.014387184165998657;
/** ±400·log10(3): expected scores exactly ¼ and ¾, for LLRs that come out as fractions. */
const QUARTERS: SprtBounds = { elo0: -400 * Math.log10(3), elo1: 400 * Math.log10(3), alpha: 0.05, beta: 0.05 };

function close(actual: number, expected: number, tolerance: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} is not within ${tolerance} of ${expected}`);
}

/** Plays `pairs` pairs scoring `points(i)` each, and returns the 1-based pair each decision first came at, the last state and the highest LLR seen. */
function run(points: (i: number) => number, pairs: number, bounds = B) {
  let counts: Pentanomial = [0, 0, 0, 0, 0];
  const first: { H1: number | null; H0: number | null } = { H1: null, H0: null };
  let maxLlr = -Infinity;
  let state = sprt(counts, bounds);
  for (let i = 0; i < pairs; i++) {
    counts = addPair(counts, points(i));
    state = sprt(counts, bounds);
    maxLlr = Math.max(maxLlr, state.llr);
    if (state.decision && first[state.decision] === null) first[state.decision] = i + 1;
  }
  return { first, state, maxLlr, counts };
}

describe('sprt', () => {
  it("has Wald's bounds: ±ln(19) = ±2.9444389791664403 for alpha = beta = 0.05", () => {
    const s = sprt([0, 0, 0, 0, 0], B);
    close(s.upper, 2.9444389791664403, 1e-15);
    close(s.lower, -2.9444389791664403, 1e-15);
    const t = sprt([0, 0, 0, 0, 0], { elo0: 0, elo1: 5, alpha: 0.01, beta: 0.1 });
    close(t.upper, Math.log(0.9 / 0.01), 1e-15); // ln 90 = 4.4998
    close(t.lower, Math.log(0.1 / 0.99), 1e-15); // ln(0.1/0.99) = −2.2925
  });

  it('no pairs: LLR 0, no decision', () => {
    assert.deepEqual(sprt([0, 0, 0, 0, 0], B), { llr: 0, lower: Math.log(0.05 / 0.95), upper: Math.log(0.95 / 0.05), decision: null, pairs: 0 });
  });

  it('computes the LLR of a full pentanomial by hand (no regularisation: every cell holds a pair)', () => {
    // counts [1, 2, 3, 4, 5]: N = 15 pairs, fractions 0, ¼, ½, ¾, 1
    //   Σx  = 0·1 + ¼·2 + ½·3 + ¾·4 + 1·5        = 0 + 0.5 + 1.5 + 3 + 5 = 10  → x̄ = 10/15 = 2/3
    //   Σx² = 0·1 + (1/16)·2 + ¼·3 + (9/16)·4 + 1·5 = 0.125 + 0.75 + 2.25 + 5 = 8.125 → mean(x²) = 13/24
    //   σ²  = 13/24 − (2/3)² = 39/72 − 32/72 = 7/72
    // with s0 = ¼, s1 = ¾ (elo ∓190.85): LLR = 15·(¾ − ¼)·(4/3 − 1)/(2·7/72) = 15·½·⅓·36/7 = 90/7
    const q = sprt([1, 2, 3, 4, 5], QUARTERS);
    close(q.llr, 90 / 7, 1e-9, 'LLR');
    assert.equal(q.decision, 'H1');
    assert.equal(q.pairs, 15);
    // with s0 = ½, s1 = s(10) = ½ + D: LLR = 15·D·(4/3 − 1 − D)/(7/36) = (540/7)·D·(1/3 − D)
    //   = 77.142857142857…·0.014387184165998656·0.318946149167334677 = 0.353988281862503205
    const s = sprt([1, 2, 3, 4, 5], B);
    close(s.llr, 0.3539882818625032, 1e-9, 'LLR');
    close(s.llr, (540 / 7) * D * (1 / 3 - D), 1e-12);
    assert.equal(s.decision, null);
  });

  it('regularises empty cells with half a pair each, by hand', () => {
    // [0, 0, 0, 0, 3] → [½, ½, ½, ½, 3]: N = 5
    //   Σx  = ½·(0 + ¼ + ½ + ¾) + 3       = 0.75 + 3   = 3.75   → x̄ = ¾
    //   Σx² = ½·(0 + 1/16 + ¼ + 9/16) + 3 = 0.4375 + 3 = 3.4375 → mean(x²) = 0.6875
    //   σ²  = 0.6875 − 0.5625 = ⅛
    // with s0 = ¼, s1 = ¾: LLR = 5·½·(1.5 − 1)/(2·⅛) = 5
    const q = sprt([0, 0, 0, 0, 3], QUARTERS);
    close(q.llr, 5, 1e-9);
    assert.equal(q.pairs, 3, 'pairs counts the real pairs only');
    assert.ok(Number.isFinite(sprt([0, 0, 0, 0, 1], B).llr), 'σ² = 0 in the data is never a division by zero');
    assert.ok(Number.isFinite(sprt([0, 0, 7, 0, 0], B).llr));
  });

  it('a candidate that wins every pair reaches H1 after 19 pairs (elo0 0, elo1 10, alpha = beta = 0.05)', () => {
    // n won pairs → [½, ½, ½, ½, n]: N = n + 2, x̄ = (n + ¾)/(n + 2), mean(x²) = (n + 7/16)/(n + 2).
    // n = 18: x̄ = 18.75/20 = 0.9375, σ² = 18.4375/20 − 0.9375² = 0.0429688, LLR = 20·D·(1.875 − 1 − D)/(2σ²) = 2.8816 < 2.9444
    // n = 19: x̄ = 19.75/21 = 0.9404762, σ² = 19.4375/21 − x̄² = 0.0411002, LLR = 21·D·(2x̄ − 1 − D)/(2σ²) = 3.1851 ≥ 2.9444
    close(sprt([0, 0, 0, 0, 18], B).llr, 2.8815813997434, 1e-9);
    close(sprt([0, 0, 0, 0, 19], B).llr, 3.1851282133919, 1e-9);
    const r = run(() => 2, 40);
    assert.equal(r.first.H1, 19);
    assert.equal(r.first.H0, null);
    // (the exact pentanomial GSPRT would need N·ln(s1/s0) ≥ 2.944, i.e. 104 such pairs: a whitewash is only
    // weak evidence between two hypotheses 10 Elo apart, since a 50 % score could be half whitewashes and half
    // routs; the normal approximation with this prior is bolder, fishtest's 0.001 prior far bolder: 1 pair.)
  });

  it('a strong candidate with some draws and lost games still reaches H1 early', () => {
    // per 10 pairs: 7 won, 2 at 1½, 1 at 1: x̄ = 0.9 once the pattern has repeated
    const pattern = [2, 2, 1.5, 2, 1, 2, 2, 1.5, 2, 2];
    const r = run((i) => pattern[i % pattern.length]!, 200);
    assert.equal(r.first.H1, 27);
    assert.equal(r.first.H0, null);
  });

  it('self-play, every pair drawn: the LLR is never positive, and H0 (not 10 Elo better) comes after 93 pairs', () => {
    // n drawn pairs → [½, ½, n, ½, ½]: the prior is symmetric, so x̄ = ½ exactly and 2x̄ − s0 − s1 = −D < 0:
    // LLR = −N·D²/(2σ²) with N = n + 2, σ² = ½·(¼ + 1/16 + 1/16 + ¼)/N = 0.3125/N, so LLR = −N²·D²/0.625.
    // It reaches −2.9444 when N² ≥ 2.9444·0.625/D² = 8890.6, N ≥ 94.29: n = 93.
    const r = run(() => 1, 500);
    assert.ok(r.maxLlr < 0, `max LLR ${r.maxLlr}`);
    assert.equal(r.first.H1, null);
    assert.equal(r.first.H0, 93);
    close(sprt([0, 0, 92, 0, 0], B).llr, (-(94 ** 2) * D * D) / 0.625, 1e-9);
  });

  it('self-play, a realistic mix symmetric around ½: undecided after 500 pairs, never H1, H0 after 1366', () => {
    // every 20 pairs: one 0, four ½, ten 1, four 1½, one 2 (mean 1 point: x̄ = ½ at the end of each cycle)
    // σ² = (1·¼ + 4·1/16 + 0 + 4·1/16 + 1·¼)/20 = 0.05. After 500 pairs ([25, 100, 250, 100, 25], no empty
    // cell) LLR = −500·D²/(2·0.05) = −5000·D² = −1.0350: well inside ±2.944, undecided.
    // At the ends of cycles the LLR is −N·D²/0.1, past −2.944 from N ≥ 1422.5, so by pair 1440 at the latest;
    // within a cycle x̄ dips below ½ (the 0 comes before the 2), which brings H0 earlier: at pair 1366.
    const cycle = [1, 0.5, 1.5, 1, 1, 0, 2, 1, 0.5, 1.5, 1, 1, 0.5, 1.5, 1, 1, 0.5, 1.5, 1, 1];
    assert.equal(
      cycle.reduce((a, b) => a + b, 0),
      20,
    );
    const r500 = run((i) => cycle[i % 20]!, 500);
    assert.deepEqual(r500.counts, [25, 100, 250, 100, 25]);
    close(r500.state.llr, -5000 * D * D, 1e-9);
    close(r500.state.llr, -1.0349553411318122, 1e-9);
    assert.equal(r500.state.decision, null);
    assert.deepEqual(r500.first, { H1: null, H0: null });
    const long = run((i) => cycle[i % 20]!, 2000);
    assert.equal(long.first.H1, null);
    assert.ok(long.maxLlr < 1, `max LLR ${long.maxLlr}`);
    assert.equal(long.first.H0, 1366);
  });

  it('rejects bad counts and bounds', () => {
    assert.throws(() => sprt([0, 0, -1, 0, 0], B), RangeError);
    assert.throws(() => sprt([0, 0, 0.5, 0, 0], B), RangeError);
    assert.throws(() => sprt([0, 0, 0, 0] as unknown as Pentanomial, B), RangeError);
    assert.throws(() => sprt([1, 1, 1, 1, 1], { ...B, elo1: 0 }), RangeError);
    assert.throws(() => sprt([1, 1, 1, 1, 1], { ...B, elo0: NaN }), RangeError);
    assert.throws(() => sprt([1, 1, 1, 1, 1], { ...B, alpha: 0 }), RangeError);
    assert.throws(() => sprt([1, 1, 1, 1, 1], { ...B, beta: 1 }), RangeError);
  });
});

describe('eloEstimate', () => {
  it('75 % of the points is +190.8 Elo (400·log10 3)', () => {
    const e = eloEstimate([0, 0, 0, 7, 0]);
    close(e.elo, 190.84850188786498, 1e-9);
    assert.equal(e.score, 0.75);
    close(eloEstimate([1, 0, 0, 0, 3]).elo, 190.84850188786498, 1e-9, 'any mix scoring 75 %');
    close(eloFromScore(0.25), -190.84850188786498, 1e-9);
  });

  it('computes the interval and LOS of a full pentanomial', () => {
    // [1, 2, 3, 4, 5]: x̄ = 2/3, σ² = 7/72, σ/√N = √(7/72/15) = 0.0805076485899413
    // elo(2/3) = 400·log10 2 = 120.41; 95 %: elo(2/3 ∓ 1.959964·0.0805076) = elo(0.508876…) … elo(0.824457…)
    // LOS = Φ((2/3 − ½)/0.0805076) = Φ(2.070197) = 0.98078
    const e = eloEstimate([1, 2, 3, 4, 5]);
    close(e.elo, 120.41199826559247, 1e-9);
    close(e.low, 6.167333979226466, 1e-9);
    close(e.high, 268.71590805190647, 1e-9);
    close(e.los, 0.9807830348816091, 1e-12);
    assert.equal(e.pairs, 15);
  });

  it('LOS is ½ at a score of ½, and the interval is symmetric', () => {
    for (const c of [
      [0, 0, 5, 0, 0],
      [1, 2, 3, 2, 1],
      [25, 100, 250, 100, 25],
    ] as Pentanomial[]) {
      const e = eloEstimate(c);
      assert.equal(e.los, 0.5);
      assert.equal(e.elo, 0);
      assert.ok(Object.is(e.elo, 0), 'not −0');
      close(e.low, -e.high, 1e-9);
      assert.ok(e.high > 0);
    }
  });

  it('no pairs: elo 0, LOS ½, score ½, the interval −∞ to +∞', () => {
    assert.deepEqual(eloEstimate([0, 0, 0, 0, 0]), { elo: 0, low: -Infinity, high: Infinity, los: 0.5, score: 0.5, pairs: 0 });
  });

  it('a perfect or a zero score stays finite: clamped half a step (1/(8N)) inside (0, 1)', () => {
    const one = eloEstimate([0, 0, 0, 0, 1]);
    close(one.elo, 400 * Math.log10(7), 1e-9); // 338.04
    assert.equal(one.high, one.elo);
    assert.ok(Number.isFinite(one.low) && one.low < one.elo);
    const hundred = eloEstimate([0, 0, 0, 0, 100]);
    close(hundred.elo, 1161.0187117255966, 1e-9); // 400·log10(799)
    assert.ok(hundred.los > 0.999999);
    const zero = eloEstimate([10, 0, 0, 0, 0]);
    close(zero.elo, -400 * Math.log10(79), 1e-9);
    assert.ok(Number.isFinite(zero.low) && zero.high > zero.elo && zero.los < 1e-6);
  });
});

describe('addPair', () => {
  it('counts a pair by its points, in a new array', () => {
    const c: Pentanomial = [0, 0, 0, 0, 0];
    const d = [0, 0.5, 1, 1.5, 2, 2, 1].reduce((acc, p) => addPair(acc, p), c);
    assert.deepEqual(d, [1, 1, 2, 1, 2]);
    assert.deepEqual(c, [0, 0, 0, 0, 0]);
  });

  it('throws on anything but 0, ½, 1, 1½, 2', () => {
    for (const p of [-0.5, 0.25, 2.5, 3, NaN, Infinity, '1' as unknown as number]) assert.throws(() => addPair([0, 0, 0, 0, 0], p), RangeError, String(p));
  });
});

describe('the logistic Elo curve and the normal CDF', () => {
  it('expectedScore and eloFromScore are inverses', () => {
    close(expectedScore(10), 0.5143871841659987, 1e-15);
    assert.equal(expectedScore(0), 0.5);
    for (const e of [-800, -190, -10, 0, 3, 400]) close(eloFromScore(expectedScore(e)), e, 1e-9);
    assert.equal(eloFromScore(1), Infinity);
    assert.equal(eloFromScore(0), -Infinity);
  });

  it('erf and erfc match reference values (mpmath, 40 digits) far inside 1e-7', () => {
    const table: [number, number, number][] = [
      [0, 0, 1],
      [1e-9, 1.1283791670955127e-9, 0.9999999988716208],
      [0.1, 0.1124629160182849, 0.887537083981715],
      [-0.3, -0.3286267594591274, 1.3286267594591274],
      [0.5, 0.5204998778130465, 0.4795001221869535],
      [1, 0.8427007929497149, 0.15729920705028513],
      [-1, -0.8427007929497149, 1.8427007929497148],
      [1.5, 0.9661051464753108, 0.033894853524689274],
      [2, 0.9953222650189527, 0.004677734981047266],
      [2.4999, 0.9995928300996666, 0.0004071699003334514],
      [2.5, 0.999593047982555, 0.0004069520174449589],
      [-2.5, -0.999593047982555, 1.999593047982555],
      [2.6, 0.9997639655834707, 0.00023603441652934908],
      [3, 0.9999779095030014, 0.00002209049699858544],
      [-3.5, -0.9999992569016276, 1.9999992569016276],
      [4, 0.9999999845827421, 1.541725790028002e-8],
      [5, 0.9999999999984626, 1.537459794428035e-12],
      [6, 1, 2.1519736712498913e-17],
      [10, 1, 2.088487583762545e-45],
    ];
    for (const [x, e, c] of table) {
      close(erf(x), e, 1e-15, `erf(${x})`);
      close(erfc(x), c, 1e-12 * c, `erfc(${x})`);
    }
    assert.equal(erf(Infinity), 1);
    assert.equal(erf(-Infinity), -1);
    assert.ok(Number.isNaN(erf(NaN)) && Number.isNaN(erfc(NaN)));
  });

  it('Φ(1.96) = 0.9750021…', () => {
    close(normalCdf(1.96), 0.9750021048517795, 1e-15);
    close(normalCdf(-1.96), 0.024997895148220435, 1e-15);
    close(normalCdf(1), 0.8413447460685429, 1e-15);
    close(normalCdf(3), 0.9986501019683699, 1e-15);
    close(normalCdf(-5), 2.866515718791939e-7, 1e-12 * 2.9e-7);
    assert.equal(normalCdf(0), 0.5);
    assert.equal(normalCdf(Infinity), 1);
    assert.equal(normalCdf(-Infinity), 0);
  });
});
