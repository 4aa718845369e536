// A final's results from its match lines: standings with a score and an interval, the pairwise matrix, each
// configuration's standings, and each entrant's faults. Pure and deterministic (the interval's bootstrap draws
// from the contest's seed), and JSON-stable: the same lines, in any order, give byte-identical JSON. verify.ts
// compares the published results.json with the recomputed results field by field (a store that reorders a JSON
// object's keys, as Postgres's jsonb does, changes nothing that is compared).
import type { ResultLine } from '../core/replay.js';
import { deriveSeed } from '../core/rng.js';
import type { ContestDefinition, ContestEntrant } from './definition.js';
import { gamesPerConfig, planFinal } from './plan.js';

/** One finished match of the final, as matches.jsonl keeps it: its place in the plan and `play --json`'s result. */
export interface ContestMatchLine extends ResultLine {
  index: number;
  key: string;
  round: number;
  /** the configuration's label */
  config: string;
  /** the entrants by seat (indices in seeding order) */
  seats: number[];
  matchId: string;
  /** the replay's path in the archive: replays/MATCHID.json */
  replay: string;
}

/** An entrant's line in the standings. */
export interface ContestStanding {
  /** 1 for the first; entrants level on everything the order looks at share a place */
  place: number;
  entrant: number;
  name: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** a win 1, a draw ½; Swiss byes add a won pairing's points each */
  points: number;
  byes: number;
  /** points per game played, 0..1 (byes not counted), 3 decimals */
  score: number;
  /** the 95 % bootstrap interval of the score, 3 decimals (null before any game) */
  interval: [number, number] | null;
  /** knockout: the round the entrant went out in (null: the champion, or not a knockout) */
  out: number | null;
  /** faults by kind, over every game */
  faults: Record<string, number>;
}

/** One cell of the pairwise matrix: the row entrant's games against the column's. */
export interface PairCell {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  points: number;
}

/** An entrant's line in one configuration's standings. */
export type ConfigStanding = Omit<ContestStanding, 'interval' | 'out' | 'place' | 'byes'>;

/** The results of a final. */
export interface ContestResults {
  contest: string;
  game: string;
  format: ContestDefinition['format'];
  /** matches counted; those ended as an error count only their faults */
  matches: number;
  errors: number;
  /** how the standings' intervals were drawn: a bootstrap over pairs of games, from the contest's seed */
  interval: { method: 'bootstrap'; unit: 'pair of games'; level: 0.95; samples: number };
  standings: ContestStanding[];
  /** [row][column], by entrant index */
  matrix: PairCell[][];
  /** each configuration's standings (no intervals) */
  perConfig: { label: string; standings: ConfigStanding[] }[];
  /** knockout: the champion's entrant index */
  champion: number | null;
}

/** Bootstrap samples per entrant: enough for a 95 % interval's ends to be stable to about a hundredth. */
export const BOOTSTRAP_SAMPLES = 2000;

/** A number to 3 decimals (JSON-stable). */
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** A seat's points in a duel: 1 a win, ½ a draw (a shared first place), 0 a loss. */
function seatPoints(l: Pick<ContestMatchLine, 'players'>, slot: number): number {
  const firsts = l.players.filter((p) => p.rank === 1).length;
  if (l.players[slot]!.rank !== 1) return 0;
  return firsts === 1 ? 1 : 1 / firsts;
}

/** The faults of a tally in a fixed order (by kind), so the JSON is stable. */
const sortedFaults = (f: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(f).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

interface Tally {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  points: number;
  faults: Record<string, number>;
}
const tally = (): Tally => ({ games: 0, wins: 0, draws: 0, losses: 0, points: 0, faults: {} });

/** Adds a seat's game to a tally (a match ended as an error adds only its fault). */
function count(t: Tally, l: ContestMatchLine, slot: number): void {
  const p = l.players[slot]!;
  if (p.fault) t.faults[p.fault.kind] = (t.faults[p.fault.kind] ?? 0) + 1;
  if (l.error) return;
  const pts = seatPoints(l, slot);
  t.games++;
  t.points += pts;
  if (pts === 1) t.wins++;
  else if (pts > 0) t.draws++;
  else t.losses++;
}

/**
 * A small seeded generator (mulberry32) for the bootstrap: 32-bit integer steps, the same on every machine,
 * and cheap enough for thousands of samples of hundreds of games per entrant.
 */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The 95 % interval of an entrant's score (points per game) by a bootstrap: its games are grouped in the pairs
 * they were played in (one seed, seats swapped, so the pair's two games are not independent), the pairs are
 * drawn with replacement BOOTSTRAP_SAMPLES times from a generator seeded by the contest's seed and the entrant,
 * and the interval is the 2.5th to the 97.5th percentile of the samples' scores. Null before any game.
 */
function bootstrap(units: { points: number; games: number }[], seed: number): [number, number] | null {
  if (!units.length) return null;
  const next = mulberry32(seed);
  const scores = new Float64Array(BOOTSTRAP_SAMPLES);
  for (let s = 0; s < BOOTSTRAP_SAMPLES; s++) {
    let points = 0;
    let games = 0;
    for (let i = 0; i < units.length; i++) {
      const u = units[Math.floor(next() * units.length)]!;
      points += u.points;
      games += u.games;
    }
    scores[s] = points / games;
  }
  scores.sort();
  return [r3(scores[Math.floor(0.025 * BOOTSTRAP_SAMPLES)]!), r3(scores[Math.ceil(0.975 * BOOTSTRAP_SAMPLES) - 1]!)];
}

/**
 * The results of a final from its match lines (any order; one line per match). Standings: by points (a win 1, a
 * draw ½ per game, a Swiss bye a won pairing's points), then wins, then the seeding; a knockout by the round each
 * entrant went out in (the champion first), then the same. Entrants level on all but the seeding share a place.
 * The interval is a bootstrap over pairs of games (see `bootstrap`) rather than the tournament table's ELO ±:
 * it is the standings' own figure (points per game) whatever the format, has ends at a score of 0 or 1 where
 * the Elo margin has none, and is a function of the games and the contest's seed, so verify recomputes it exactly.
 */
export function contestResults(def: ContestDefinition, entrants: readonly ContestEntrant[], lines: readonly ContestMatchLine[]): ContestResults {
  const n = entrants.length;
  // A line that seats no entrant of this final (a store's stray row) has nobody to count for: left out.
  const sorted = lines
    .filter((l) => l.seats.length === l.players.length && l.seats.every((e) => Number.isInteger(e) && e >= 0 && e < n))
    .sort((a, b) => a.index - b.index);
  const plan = planFinal(def, n, sorted);
  const rows = entrants.map(() => tally());
  const units = entrants.map(() => new Map<string, { points: number; games: number }>());
  const lastRound = entrants.map(() => -1);
  const matrix: PairCell[][] = entrants.map(() => entrants.map(() => ({ games: 0, wins: 0, draws: 0, losses: 0, points: 0 })));
  const perConfig = def.configs.map(() => entrants.map(() => tally()));
  const configIndex = new Map(def.configs.map((c, i) => [c.label, i]));
  for (const l of sorted) {
    l.seats.forEach((e, slot) => {
      count(rows[e]!, l, slot);
      const c = configIndex.get(l.config);
      if (c !== undefined) count(perConfig[c]![e]!, l, slot);
      lastRound[e] = Math.max(lastRound[e]!, l.round);
      if (l.error) return;
      const unit = l.key.replace(/:g(\d+)$/, (_, g: string) => `:p${Number(g) >> 1}`);
      const u = units[e]!.get(unit) ?? { points: 0, games: 0 };
      u.points += seatPoints(l, slot);
      u.games++;
      units[e]!.set(unit, u);
      const other = l.seats[1 - slot];
      if (other === undefined || other === e) return;
      const cell = matrix[e]![other]!;
      const pts = seatPoints(l, slot);
      cell.games++;
      cell.points += pts;
      if (pts === 1) cell.wins++;
      else if (pts > 0) cell.draws++;
      else cell.losses++;
    });
  }
  const byePoints = gamesPerConfig(def) * def.configs.length;
  const byes = entrants.map((_, e) => plan.byes.filter((b) => b === e).length);
  const knockout = def.format === 'knockout';
  const out = entrants.map((_, e) => (knockout && plan.done && plan.champion !== e ? lastRound[e]! : null));
  const standings: ContestStanding[] = entrants.map((ent, e) => {
    const t = rows[e]!;
    return {
      place: 0,
      entrant: e,
      name: ent.name,
      games: t.games,
      wins: t.wins,
      draws: t.draws,
      losses: t.losses,
      points: t.points + byes[e]! * byePoints,
      byes: byes[e]!,
      score: t.games ? r3(t.points / t.games) : 0,
      interval: bootstrap([...units[e]!.values()], deriveSeed(def.seed, `bootstrap/${e}`)),
      out: out[e]!,
      faults: sortedFaults(t.faults),
    };
  });
  // The champion (out null) first, then the later a knockout entrant went out, the better.
  const outRank = (s: ContestStanding) => (!knockout ? 0 : s.out === null ? Infinity : s.out);
  const level = (a: ContestStanding, b: ContestStanding) => outRank(b) - outRank(a) || b.points - a.points || b.wins - a.wins;
  standings.sort((a, b) => level(a, b) || a.entrant - b.entrant);
  standings.forEach((s, i) => (s.place = i > 0 && level(standings[i - 1]!, s) === 0 ? standings[i - 1]!.place : i + 1));
  return {
    contest: def.id,
    game: def.game,
    format: def.format,
    matches: sorted.length,
    errors: sorted.filter((l) => l.error).length,
    interval: { method: 'bootstrap', unit: 'pair of games', level: 0.95, samples: BOOTSTRAP_SAMPLES },
    standings,
    matrix,
    perConfig: def.configs.map((c, ci) => ({
      label: c.label,
      standings: entrants.map((ent, e): ConfigStanding => {
        const t = perConfig[ci]![e]!;
        return {
          entrant: e,
          name: ent.name,
          games: t.games,
          wins: t.wins,
          draws: t.draws,
          losses: t.losses,
          points: t.points,
          score: t.games ? r3(t.points / t.games) : 0,
          faults: sortedFaults(t.faults),
        };
      }),
    })),
    champion: knockout && plan.done ? plan.champion : null,
  };
}

/** The results as results.json holds them: 2-space JSON and a newline (stable: the same results, the same bytes). */
export function resultsJson(results: ContestResults): string {
  return JSON.stringify(results, null, 2) + '\n';
}
