import { deriveSeed, rngCreate, rngShuffle } from '../core/rng.js';

/**
 * Who plays whom in a tournament: pure functions of the bots' count, the format, the games per pairing and the
 * tournament's seed (and, for Swiss and knockout, the results so far), so a run that stopped can be scheduled
 * again exactly and resumed. Bots are numbered by their order on the command line.
 *
 * Fairness: a duel's games come in pairs on the same seed with the seats swapped, so neither bot gains from
 * moving first or from the map. A game for more players seats all the bots at once; its matches come in
 * cycles of one rotation per bot over a shuffled order, so every bot sits in every seat once per cycle, and
 * a cycle's matches share their seed.
 */

export type Format = 'round-robin' | 'swiss' | 'gauntlet' | 'knockout';
export const FORMATS: Format[] = ['round-robin', 'swiss', 'gauntlet', 'knockout'];

/** One scheduled match: the bots by seat, its seed, and its round (0 for formats without rounds). */
export interface Scheduled {
  seats: number[];
  seed: number;
  round: number;
}

/** The seed of the `pair`-th pair of games of a pairing (or of a cycle of seatings): the same for both seats. */
export function pairSeed(seed: number, pairing: string, pair: number): number {
  return deriveSeed(seed, `${pairing}/${pair}`);
}

/** `games` games between bots a and b: pairs on one seed, seats swapped (a last odd game has a first). */
export function duel(a: number, b: number, games: number, seed: number, round = 0, key = `${a}-${b}`): Scheduled[] {
  const out: Scheduled[] = [];
  for (let g = 0; g < games; g++) out.push({ seats: g % 2 === 0 ? [a, b] : [b, a], seed: pairSeed(seed, key, g >> 1), round });
  return out;
}

/** Every pair of bots plays `games` games (duels), in the order (0,1), (0,2)…, (1,2)… */
export function roundRobin(bots: number, games: number, seed: number): Scheduled[] {
  const out: Scheduled[] = [];
  for (let a = 0; a < bots; a++) for (let b = a + 1; b < bots; b++) out.push(...duel(a, b, games, seed));
  return out;
}

/** The first bot plays every other one `games` games. */
export function gauntlet(bots: number, games: number, seed: number): Scheduled[] {
  const out: Scheduled[] = [];
  for (let b = 1; b < bots; b++) out.push(...duel(0, b, games, seed));
  return out;
}

/**
 * All the bots in every match (a game for several players), `games` matches rounded up to whole cycles: each
 * cycle shuffles the bots (the first cycle keeps their order) and plays one rotation per seat, on one seed.
 */
export function allTogether(bots: number, games: number, seed: number): Scheduled[] {
  const out: Scheduled[] = [];
  const cycles = Math.max(1, Math.ceil(games / bots));
  const rng = rngCreate(deriveSeed(seed, 'seatings'));
  for (let c = 0; c < cycles; c++) {
    const order = c === 0 ? [...Array(bots).keys()] : rngShuffle(rng, [...Array(bots).keys()]);
    const cycleSeed = pairSeed(seed, 'all', c);
    for (let r = 0; r < bots; r++) out.push({ seats: order.map((_, slot) => order[(slot + r) % bots]!), seed: cycleSeed, round: c });
  }
  return out;
}

/** How many Swiss rounds are played by default: enough to separate the bots (⌈log₂ n⌉, at least 1). */
export function swissRounds(bots: number): number {
  return Math.max(1, Math.ceil(Math.log2(bots)));
}

/**
 * One Swiss round's pairs: the bots in standing order (most points first, then command-line order), each paired
 * with the next one it has not met; when no such pairing of everybody exists, the fewest repeats. An odd bot
 * out gets a bye: the lowest in the standings that has not had one. Returns the pairs and the bye (or null).
 */
export function swissPairs(points: number[], met: Set<string>, byes: Set<number>): { pairs: [number, number][]; bye: number | null } {
  const order = [...points.keys()].sort((a, b) => points[b]! - points[a]! || a - b);
  let bye: number | null = null;
  if (order.length % 2 === 1) {
    bye = [...order].reverse().find((b) => !byes.has(b)) ?? order[order.length - 1]!;
    order.splice(order.indexOf(bye), 1);
  }
  // A search for a pairing with no repeat, the higher-placed bots paired first; bounded, then repeats are allowed.
  let steps = 0;
  const search = (rest: number[], allowRepeat: boolean): [number, number][] | null => {
    if (!rest.length) return [];
    if (++steps > 200_000) return null;
    const [a, ...others] = rest as [number, ...number[]];
    for (let i = 0; i < others.length; i++) {
      const b = others[i]!;
      if (!allowRepeat && met.has(pairKey(a, b))) continue;
      const tail = search([...others.slice(0, i), ...others.slice(i + 1)], allowRepeat);
      if (tail) return [[a, b], ...tail];
    }
    return null;
  };
  const pairs = search(order, false) ?? search(order, true)!;
  return { pairs, bye };
}

/** The key of an unordered pair of bots, as `swissPairs` reads `met`. */
export function pairKey(a: number, b: number): string {
  return a < b ? `${a}-${b}` : `${b}-${a}`;
}

/**
 * A knockout bracket's first round for `bots` seeded in command-line order: the bracket is the next power of
 * two, the best seeds get the byes, and seed i meets seed (size + 1 − i), as in tennis. Returns the pairs (a
 * bye is a pair with null) in bracket order, so winners meet their neighbours in the next round.
 */
export function knockoutFirstRound(bots: number): [number, number | null][] {
  let size = 1;
  while (size < bots) size *= 2;
  // Bracket order of seeds 1..size: 1, size, …, built by doubling so that 1 and 2 meet only in the final.
  let order = [1];
  while (order.length < size) {
    const n = order.length * 2;
    order = order.flatMap((s) => [s, n + 1 - s]);
  }
  const pairs: [number, number | null][] = [];
  for (let i = 0; i < order.length; i += 2) {
    const [a, b] = [order[i]! - 1, order[i + 1]! - 1];
    pairs.push([a, b < bots ? b : null]);
  }
  return pairs;
}
