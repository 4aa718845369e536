// What a tournament records and how it is scored: the spec and the results file's lines (the record types the
// runner in tournament.ts writes), and the standings, head-to-head table, errors and copies read from them.
import type { JobTimeouts } from '../arena/match-job.js';
import type { ResultLine } from '../core/replay.js';
import type { Format } from './schedule.js';

/** Everything that decides a tournament: the same spec schedules the same matches, so a stopped run resumes. */
export interface TournamentSpec {
  game: string;
  /** the bots in command-line order; names identify them in results and ratings, and are unique */
  bots: { name: string; bot: string }[];
  format: Format;
  /** games per pairing (duels: in pairs with the seats swapped); for all-bots matches, matches in all */
  games: number;
  /** Swiss: rounds (default ⌈log₂ bots⌉) */
  rounds?: number;
  seed: number;
  config: Record<string, unknown>;
  timeouts: JobTimeouts;
}

/** One finished match as the results file keeps it: `play --json`'s result, and where it sits in the tournament. */
export interface MatchLine extends ResultLine {
  index: number;
  matchId: string;
  round: number;
  /** the bots by seat, as indices into the spec's bots */
  seats: number[];
  /** the replay's file, relative to the output folder */
  replay?: string;
  /** what identifies the game as played (vary.ts): two matches with one key are copies of one game */
  key?: string;
}

/** A bot's standing from the matches so far. */
export interface Standing {
  name: string;
  bot: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** duels: 1 a win, ½ a draw; all-bots matches: (players − rank) / (players − 1) */
  points: number;
  /** byes (Swiss): a point each, no game */
  byes: number;
  faults: Record<string, number>;
}

/** Whether a line is a game between bots a and b. */
export function sameDuel(l: MatchLine, a: number, b: number): boolean {
  return l.seats.length === 2 && l.seats.includes(a) && l.seats.includes(b);
}

/**
 * The points bot `bot` made in these duels, to decide a knockout pairing. A game that ended as an error was not
 * played, but someone must go on: it is lost by the seat(s) named as faulty and won by the other (both faulty:
 * neither scores). Standings and ratings still leave such games out (standingsOf).
 */
export function knockoutPoints(lines: MatchLine[], bot: number): number {
  let p = 0;
  for (const l of lines) {
    const slot = l.seats.indexOf(bot);
    if (!l.error) p += matchPoints(l, slot);
    else {
      const faulty = faultySlots(l);
      if (faulty.size && !faulty.has(slot)) p += 1;
    }
  }
  return p;
}

/**
 * The seats a match that ended as an error names as faulty: "(slot N)" in its error text (paint's "unresponsive
 * players: bob (slot 1)"); lines written before the slot was named give ids only, so then the seats with a fault.
 */
function faultySlots(l: MatchLine): Set<number> {
  const named = [...(l.error ?? '').matchAll(/\(slot (\d+)\)/g)].map((m) => Number(m[1])).filter((s) => s < l.seats.length);
  if (named.length) return new Set(named);
  return new Set(l.players.flatMap((p, slot) => (p.fault ? [slot] : [])));
}

/** A seat's points in a match: 1 for a lone first place, shared first places split… in duels ½; else by rank. */
function matchPoints(l: MatchLine, slot: number): number {
  const n = l.players.length;
  const rank = l.players[slot]!.rank;
  if (n === 2) return rank === 1 ? (l.players[1 - slot]!.rank === 1 ? 0.5 : 1) : 0;
  return (n - rank) / (n - 1);
}

/**
 * Standings from match lines: games, wins/draws/losses, points, byes and faults by kind, per bot. A match that
 * ended as an error (`error`: paint's failed ready handshake) is no game: only its faults are counted.
 */
export function standingsOf(spec: TournamentSpec, lines: MatchLine[], byes: Set<number> = new Set()): Standing[] {
  const rows: Standing[] = spec.bots.map((b, i) => ({
    name: b.name,
    bot: b.bot,
    games: 0,
    wins: 0,
    draws: 0,
    losses: 0,
    points: 0,
    byes: byes.has(i) ? 1 : 0,
    faults: {},
  }));
  for (const l of lines) {
    const firsts = l.players.filter((p) => p.rank === 1).length;
    l.seats.forEach((bot, slot) => {
      const row = rows[bot]!;
      const p = l.players[slot]!;
      if (p.fault) row.faults[p.fault.kind] = (row.faults[p.fault.kind] ?? 0) + 1;
      if (l.error) return;
      row.games++;
      if (p.rank === 1 && firsts === 1) row.wins++;
      else if (p.rank === 1) row.draws++;
      else row.losses++;
      row.points += matchPoints(l, slot);
    });
  }
  return rows;
}

/** The matches that ended as an error (paint's failed ready handshake): neither scored nor rated. */
export function errorsOf(lines: MatchLine[]): number {
  return lines.filter((l) => l.error).length;
}

/** The matches (by schedule order) that repeat an earlier one move for move; lines without a key are never copies. */
export function copiesOf(lines: MatchLine[]): number {
  const seen = new Set<string>();
  let copies = 0;
  for (const l of [...lines].sort((a, b) => a.index - b.index)) {
    if (l.key === undefined) continue;
    if (seen.has(l.key)) copies++;
    else seen.add(l.key);
  }
  return copies;
}

/** Wins, draws and losses of each bot against each other (by rank within each match), indexed [row][column]. */
export function headToHead(spec: TournamentSpec, lines: MatchLine[]): { wins: number; draws: number; losses: number }[][] {
  const n = spec.bots.length;
  const m = Array.from({ length: n }, () => Array.from({ length: n }, () => ({ wins: 0, draws: 0, losses: 0 })));
  for (const l of lines) {
    if (l.error) continue; // no game was played
    for (let i = 0; i < l.seats.length; i++) {
      for (let j = 0; j < l.seats.length; j++) {
        const [a, b] = [l.seats[i]!, l.seats[j]!];
        if (i === j || a === b) continue;
        const [ra, rb] = [l.players[i]!.rank, l.players[j]!.rank];
        const cell = m[a]![b]!;
        if (ra < rb) cell.wins++;
        else if (ra === rb) cell.draws++;
        else cell.losses++;
      }
    }
  }
  return m;
}
