// A final's results from its match lines: standings with a score and an interval, the pairwise matrix, each
// configuration's standings, and each entrant's faults. Pure and deterministic (the interval's bootstrap draws
// from the contest's seed), and JSON-stable: the same lines give byte-identical JSON, so verify.ts compares the
// published results.json with the one it recomputes as text.
import type { ResultLine } from '../core/replay.js';
import type { ContestDefinition, ContestEntrant } from './definition.js';

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

/** The results of a final. */
export interface ContestResults {
  contest: string;
  game: string;
  format: ContestDefinition['format'];
  /** matches counted; those ended as an error count only their faults */
  matches: number;
  errors: number;
  interval: { method: 'bootstrap'; level: 0.95; samples: number; seed: number };
  standings: ContestStanding[];
  /** [row][column], by entrant index */
  matrix: PairCell[][];
  /** each configuration's standings (no intervals) */
  perConfig: { label: string; standings: Omit<ContestStanding, 'interval' | 'out' | 'place'>[] }[];
  /** knockout: the champion's entrant index */
  champion: number | null;
}

/** The results of a final from its match lines (any order; each index once). */
export function contestResults(def: ContestDefinition, entrants: readonly ContestEntrant[], lines: readonly ContestMatchLine[]): ContestResults {
  void def;
  void entrants;
  void lines;
  throw new Error('contestResults: not written yet');
}

/** The results as results.json holds them: 2-space JSON and a newline. */
export function resultsJson(results: ContestResults): string {
  return JSON.stringify(results, null, 2) + '\n';
}
