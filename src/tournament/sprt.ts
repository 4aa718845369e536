/**
 * The statistics of `botarena ab`: is the candidate better than the baseline? Pure functions, no dependencies.
 *
 * Games come in pairs on one seed with the seats swapped, so the luck of the seed and of the first move cancel
 * within a pair. The unit of evidence is therefore the pair, not the game: a pair gives the candidate 0, ½, 1,
 * 1½ or 2 points, and the counts of pairs by those five scores are the pentanomial (the model fishtest uses
 * for its paired openings). A pair's *fraction* is x = points / 2 ∈ {0, ¼, ½, ¾, 1}.
 *
 * Three things are computed from the counts:
 *
 * - `sprt`: a sequential test between H0 "the candidate is `elo0` better" and H1 "it is `elo1` better", which
 *   may stop as soon as the evidence is strong enough (Wald's SPRT, in the generalised form with the normal
 *   approximation that cutechess-cli and fishtest call "logistic");
 * - `eloEstimate`: the Elo difference with a 95 % interval and the likelihood of superiority;
 * - `addPair`: one more pair in the counts.
 *
 * Elo is the logistic scale with 400 points per factor of ten in the odds: a player `e` Elo better expects the
 * score s(e) = 1 / (1 + 10^(−e/400)), and a score s means elo(s) = −400·log10(1/s − 1).
 */

/** Counts of pairs by the candidate's pair score: [0, 0.5, 1, 1.5, 2] points out of 2. */
export type Pentanomial = [number, number, number, number, number];

/** The SPRT's hypotheses (in Elo, elo0 < elo1) and error rates (each in (0, 1)). */
export interface SprtBounds {
  /** H0: the candidate is this much better (usually 0) */
  elo0: number;
  /** H1: the candidate is this much better (above elo0) */
  elo1: number;
  /** the chance of accepting H1 when H0 holds */
  alpha: number;
  /** the chance of accepting H0 when H1 holds */
  beta: number;
}

/** Where the test stands: the log-likelihood ratio, its two stopping bounds, the decision if any, the pairs seen. */
export interface SprtState {
  llr: number;
  /** ln(β / (1 − α)): at or below it, H0 is accepted */
  lower: number;
  /** ln((1 − β) / α): at or above it, H1 is accepted */
  upper: number;
  decision: 'H1' | 'H0' | null;
  /** the real pairs counted (without the regularisation's pseudo-pairs) */
  pairs: number;
}

/** The candidate's Elo advantage as measured, with its 95 % interval and likelihood of superiority. */
export interface EloEstimate {
  /** elo(score); a score of exactly 0 or 1 is clamped first (see `eloEstimate`) so the figure stays finite */
  elo: number;
  /** the 95 % interval, ends clamped likewise; ±Infinity when no pair was played */
  low: number;
  high: number;
  /** likelihood of superiority: the (normal-approximation) chance that the candidate's true score exceeds ½ */
  los: number;
  /** the mean pair fraction x̄ (the candidate's share of the points), ½ when no pair was played */
  score: number;
  pairs: number;
}

/** The pair fractions of the five cells: 0, ¼, ½, ¾, 1. */
const FRACTIONS = [0, 0.25, 0.5, 0.75, 1] as const;

/**
 * Pseudo-pairs put into each *empty* cell before the SPRT's mean and variance are taken (see `regularise`).
 */
export const PRIOR_PAIRS = 0.5;

/** The two-sided 95 % quantile of the standard normal distribution. */
const Z95 = 1.959963984540054;

/** The score a player `elo` Elo better expects: 1 / (1 + 10^(−elo/400)). */
export function expectedScore(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/**
 * The Elo difference a score `s` (0..1) means: −400·log10(1/s − 1), written as 400·log10(s / (1 − s)) so that
 * ½ gives +0 rather than −0; −Infinity at 0, +Infinity at 1.
 */
export function eloFromScore(s: number): number {
  return 400 * Math.log10(s / (1 - s));
}

/** One more pair in the counts (a new array): `candidatePoints` is 0, 0.5, 1, 1.5 or 2; anything else throws. */
export function addPair(counts: Pentanomial, candidatePoints: number): Pentanomial {
  const cell = typeof candidatePoints === 'number' ? candidatePoints * 2 : NaN;
  if (!Number.isInteger(cell) || cell < 0 || cell > 4) throw new RangeError(`a pair gives 0, 0.5, 1, 1.5 or 2 points, not ${candidatePoints}`);
  checkCounts(counts);
  const out: Pentanomial = [...counts];
  out[cell]!++;
  return out;
}

/**
 * The sequential probability ratio test on the pentanomial counts.
 *
 * The statistic: by the central limit theorem the mean pair fraction x̄ of N pairs is about normal, with mean the
 * true expected score s and variance σ²/N, σ² being the per-pair variance. The generalised SPRT plugs in the
 * measured σ² = mean(x²) − x̄² (a nuisance parameter, estimated rather than assumed), and the log of the ratio of
 * the two normal likelihoods, s1 = s(elo1) against s0 = s(elo0), is
 *
 *     LLR = N·[(x̄ − s0)² − (x̄ − s1)²] / (2σ²) = N·(s1 − s0)·(2x̄ − s0 − s1) / (2σ²).
 *
 * It grows with N when x̄ is nearer s1 than s0 and falls when nearer s0. Wald's stopping bounds for error rates
 * α (accepting H1 under H0) and β (accepting H0 under H1) are ln(β/(1 − α)) below and ln((1 − β)/α) above:
 * 'H1' when LLR ≥ upper, 'H0' when LLR ≤ lower, else no decision yet (null).
 *
 * Degenerate cases:
 * - no pairs: LLR 0, no decision (nothing is known, whatever the prior would say);
 * - an empty cell, and in particular σ² = 0 (every pair scored the same): the normal approximation divides by
 *   σ², so a run of identical pairs would be infinitely convincing after one pair. As fishtest does, empty
 *   cells get a small prior before x̄, σ² and N are taken (the regularised counts are treated as the data); see
 *   `regularise` for its size. With it σ² > 0 whenever a pair was played, the LLR is always finite, and with
 *   elo0 0, elo1 10, α = β = 0.05 a candidate that wins every pair reaches H1 after 19 pairs, while one that
 *   draws every pair never leans to H1 and accepts H0 after 93.
 *
 * Throws a RangeError for counts that are not non-negative integers, or bounds that are not finite with
 * elo0 < elo1 and α, β in (0, 1).
 */
export function sprt(counts: Pentanomial, bounds: SprtBounds): SprtState {
  checkCounts(counts);
  const { elo0, elo1, alpha, beta } = bounds;
  if (!Number.isFinite(elo0) || !Number.isFinite(elo1) || !(elo0 < elo1)) throw new RangeError(`the SPRT needs finite elo0 < elo1, not ${elo0} and ${elo1}`);
  if (!(alpha > 0 && alpha < 1) || !(beta > 0 && beta < 1)) throw new RangeError(`the SPRT needs alpha and beta in (0, 1), not ${alpha} and ${beta}`);
  const lower = Math.log(beta / (1 - alpha));
  const upper = Math.log((1 - beta) / alpha);
  const pairs = total(counts);
  if (pairs === 0) return { llr: 0, lower, upper, decision: null, pairs };
  const { n, mean, variance } = moments(regularise(counts));
  const s0 = expectedScore(elo0);
  const s1 = expectedScore(elo1);
  const llr = (n * (s1 - s0) * (2 * mean - s0 - s1)) / (2 * variance);
  const decision = llr >= upper ? 'H1' : llr <= lower ? 'H0' : null;
  return { llr, lower, upper, decision, pairs };
}

/**
 * The Elo difference the counts measure, its 95 % interval and the likelihood of superiority.
 *
 * - score x̄: the mean pair fraction of the real pairs (no prior: 75 % of the points is +190.8 Elo, whatever the
 *   spread), and elo = elo(x̄);
 * - interval: x̄ ± 1.96·σ/√N (the normal approximation to the mean's distribution, as for the SPRT) mapped
 *   through elo(); elo() is increasing, so the ends map to the ends. σ is taken from the regularised counts
 *   (`regularise`, the SPRT's), so a run of identical pairs still has an interval of some width rather than
 *   none; when every cell holds a pair this is the plain sample σ;
 * - clamping: x̄ moves in steps of 1/(4N), and the score and both ends are clamped to half a step inside
 *   (0, 1), i.e. to [1/(8N), 1 − 1/(8N)] (the usual half-count correction), so every figure is finite: a
 *   perfect score over N pairs reads as 400·log10(8N − 1) Elo (338.0 after one pair, 1161.0 after 100), a
 *   bound the data cannot see past rather than a measurement;
 * - LOS = Φ((x̄ − ½) / (σ/√N)), Φ the standard normal CDF: how likely the true score is above ½ given the data,
 *   under the same normal approximation with a flat prior.
 *
 * No pairs: elo 0, score ½, LOS ½, and the interval −Infinity to +Infinity (nothing is excluded). Those are
 * printable as numbers (the CLI prints them as −∞ / +∞), but JSON.stringify writes them as null.
 */
export function eloEstimate(counts: Pentanomial): EloEstimate {
  checkCounts(counts);
  const pairs = total(counts);
  if (pairs === 0) return { elo: 0, low: -Infinity, high: Infinity, los: 0.5, score: 0.5, pairs };
  const score = moments(counts).mean;
  const sigma = Math.sqrt(moments(regularise(counts)).variance);
  const se = sigma / Math.sqrt(pairs);
  const edge = 1 / (8 * pairs);
  const clamped = (s: number) => eloFromScore(Math.min(1 - edge, Math.max(edge, s)));
  return {
    elo: clamped(score),
    low: clamped(score - Z95 * se),
    high: clamped(score + Z95 * se),
    los: normalCdf((score - 0.5) / se),
    score,
    pairs,
  };
}

/**
 * The counts the SPRT (and the estimate's σ) work on: every empty cell gets `PRIOR_PAIRS` (½) pseudo-pairs,
 * cells that hold a pair are left as they are.
 *
 * This is fishtest's rule (mix a small prior into the empty cells only), with a bigger prior. Fishtest puts
 * 0.001 of a pair there, which suits its exact (maximum-likelihood) LLR; with the normal approximation the LLR
 * goes as 1/σ², and 0.001 leaves σ² so small that one won pair is a decision (LLR 3.8 ≥ 2.94 for 0/10 Elo at
 * 5 %) and five drawn pairs are too. Half a pair per empty cell is the Jeffreys prior's weight for a count
 * (Dirichlet ½): small enough to vanish once the cells fill (a cell that holds a pair is never touched, so a
 * long run with every outcome seen gets the textbook formula exactly), large enough that a few identical pairs
 * are not yet proof. It pulls an extreme x̄ towards the middle, the cautious direction for both decisions.
 */
function regularise(counts: Pentanomial): Pentanomial {
  return counts.map((c) => (c === 0 ? PRIOR_PAIRS : c)) as Pentanomial;
}

/** The total weight n, mean fraction and variance (mean of squares minus square of the mean) of the counts. */
function moments(counts: Pentanomial): { n: number; mean: number; variance: number } {
  let n = 0;
  let sum = 0;
  let squares = 0;
  counts.forEach((c, i) => {
    n += c;
    sum += c * FRACTIONS[i]!;
    squares += c * FRACTIONS[i]! ** 2;
  });
  const mean = sum / n;
  return { n, mean, variance: Math.max(0, squares / n - mean * mean) };
}

function total(counts: Pentanomial): number {
  return counts.reduce((a, b) => a + b, 0);
}

function checkCounts(counts: Pentanomial): void {
  if (counts.length !== 5 || !counts.every((c) => Number.isInteger(c) && c >= 0))
    throw new RangeError(`pentanomial counts are five non-negative integers, not [${counts.join(', ')}]`);
}

/** 2/√π */
const TWO_OVER_SQRT_PI = 1.1283791670955126;
/** Below this |x|, erf comes from its series; above, erfc from its continued fraction. */
const ERF_SPLIT = 2.5;

/**
 * The error function, to about 1e-15 absolute (far inside the 1e-7 that A&S 7.1.26 gives).
 *
 * For |x| < 2.5 the series erf(x) = (2/√π)·e^(−x²)·Σₙ 2ⁿ·x^(2n+1) / (1·3·5···(2n+1)) (A&S 7.1.6), whose terms
 * are all positive, so nothing cancels; it is summed until a term no longer changes the sum. Beyond, erf(x) =
 * ±(1 − erfc(|x|)).
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const a = Math.abs(x);
  if (a >= ERF_SPLIT) return Math.sign(x) * (1 - erfcTail(a));
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let k = 1; k < 200; k++) {
    term *= (2 * x2) / (2 * k + 1);
    const next = sum + term;
    if (next === sum) break;
    sum = next;
  }
  return TWO_OVER_SQRT_PI * Math.exp(-x2) * sum;
}

/**
 * The complementary error function 1 − erf(x), computed directly in the upper tail so that small values keep
 * their relative precision (erfc(5) ≈ 1.5e−12 is not 1 minus something close to 1).
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x >= ERF_SPLIT) return erfcTail(x);
  if (x <= -ERF_SPLIT) return 2 - erfcTail(-x);
  return 1 - erf(x);
}

/**
 * erfc(x) for x ≥ 2.5 by its continued fraction (A&S 7.1.14):
 *   erfc(x) = (e^(−x²)/√π) · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …))))),
 * evaluated from a fixed depth back to the front; 60 levels are far more than double precision needs here.
 */
function erfcTail(x: number): number {
  if (x === Infinity) return 0;
  let f = x;
  for (let k = 60; k >= 1; k--) f = x + k / 2 / f;
  return ((TWO_OVER_SQRT_PI / 2) * Math.exp(-x * x)) / f;
}

/** The standard normal CDF Φ(z) = ½·erfc(−z/√2); ±Infinity give 1 and 0. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}
