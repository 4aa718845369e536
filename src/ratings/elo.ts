import { nameResults, type MatchOutcome } from './results.js';

/**
 * The botsarena ELO ladder (shared/spec/botsarena.md §6), in our words:
 *
 * - Every bot starts at 1500, separately in each game: a rating belongs to a (game, bot name) pair, never to a
 *   name alone (the original looked ratings up by name only, so one game's results moved another's ratings).
 * - A rated duel between A (rating ra) and B (rb) gives A the expected score E = 1 / (1 + 10^((rb − ra) / 400)),
 *   and B the same with ra and rb swapped. A scores S = 1 for a win, ½ for a draw, 0 for a loss, and moves to
 *   ra + K(ra)·(S − E); B likewise with its own score and its own K. K depends only on the player's rating
 *   before the duel: 80 below 1000, 50 below 2000, 30 from 2000 up to 2400 inclusive, 20 above 2400.
 * - Both sides are computed from the ratings before the duel (the original computed B's from A's new rating),
 *   and ratings are kept unrounded (the original stored integers).
 * - A two-player match is one duel: rank 1 beats rank 2, equal ranks draw.
 * - A match of more players is a series of duels, lap by lap (Tron: the bots that died in the same lap share a
 *   rank, and an earlier death is a worse rank). Taking the groups of equal rank from the worst to the best:
 *   every pair within the group draws, once per unordered pair, lower slot first (the original applied each
 *   such draw twice); then every bot of the group, in slot order, loses to every bot ranked better, in slot
 *   order. The best group (those still alive at the end, or dying together last) draws among itself. Each
 *   duel starts from the ratings, and so the K, the previous one left.
 * - A bot may hold several seats: a duel between two seats of the same name is skipped, neither rated nor
 *   recorded.
 * - Beside the ratings, each ordered pair of bots keeps its record of duels (wins, losses, draws), as the
 *   original's "scores" pages showed.
 */

/** The rating every bot starts from, in every game. */
export const ELO_START = 1500;

/** K for a player rated `rating` before the duel: 80 below 1000, 50 below 2000, 30 up to 2400, 20 above. */
export function eloK(rating: number): number {
  return rating < 1000 ? 80 : rating < 2000 ? 50 : rating <= 2400 ? 30 : 20;
}

/** The expected score of a player rated `ra` against one rated `rb`. */
export function expectedScore(ra: number, rb: number): number {
  return 1 / (1 + 10 ** ((rb - ra) / 400));
}

/** One duel of a match, by slots: `score` is what slot `a` scored against slot `b` (1, ½ or 0). */
export interface Duel {
  a: number;
  b: number;
  score: 0 | 0.5 | 1;
}

/**
 * The duels a match stands for, in the order they are applied, from its seats' ranks (1 is best): for each
 * group of equal rank from the worst to the best, the draws within it (pairs in slot order, lower slot first),
 * then its losses (each of its slots in order, against each better-ranked slot in order, `a` the loser).
 * Duels between seats of one name are not removed here: the ladder skips them.
 */
export function eloDuels(ranks: readonly number[]): Duel[] {
  const duels: Duel[] = [];
  const groups = [...new Set(ranks)].sort((x, y) => y - x);
  for (const rank of groups) {
    const group = ranks.flatMap((r, slot) => (r === rank ? [slot] : []));
    for (let i = 0; i < group.length; i++) for (let j = i + 1; j < group.length; j++) duels.push({ a: group[i]!, b: group[j]!, score: 0.5 });
    for (const loser of group) ranks.forEach((r, better) => r < rank && duels.push({ a: loser, b: better, score: 0 }));
  }
  return duels;
}

/**
 * The 95 % half-width of the Elo difference that a score share (points per game: a win 1, a draw ½) over `games`
 * games stands for: 1.96 · 400 / ln 10 / √(games · share · (1 − share)). None (null) before any game and at a
 * share of 0 or 1, where the interval has no end. The tournament table's ELO ± and the leaderboards' are this.
 */
export function eloMargin(games: number, share: number): number | null {
  if (!(games > 0) || !(share > 0 && share < 1)) return null;
  return (1.96 * 400) / Math.LN10 / Math.sqrt(games * share * (1 - share));
}

/** A bot's line in a game's ELO table. */
export interface EloRow {
  name: string;
  rating: number;
  /** rated matches, and how each ended for it (see `nameResults`) */
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** One bot's duels against another in a game. */
export interface PairRecord {
  wins: number;
  losses: number;
  draws: number;
}

/** The botsarena ELO ladder of every game, fed one finished match at a time, in the order they were played. */
export class EloLadder {
  /** game → name → that bot's row */
  private readonly rows = new Map<string, Map<string, EloRow>>();
  /** game → name → opponent → the name's record against it */
  private readonly pairs = new Map<string, Map<string, Map<string, PairRecord>>>();

  /** Rates one match (see the rules above); a match whose seats all hold one name changes nothing. */
  rate(outcome: MatchOutcome): void {
    const results = nameResults(outcome);
    if (!results.length) return;
    const rows = getOr(this.rows, outcome.game, () => new Map<string, EloRow>());
    const row = (name: string) => getOr(rows, name, () => ({ name, rating: ELO_START, games: 0, wins: 0, draws: 0, losses: 0 }));
    for (const r of results) {
      const x = row(r.name);
      x.games++;
      if (r.result === 'win') x.wins++;
      else if (r.result === 'draw') x.draws++;
      else x.losses++;
    }
    const players = outcome.players;
    for (const duel of eloDuels(players.map((p) => p.rank))) {
      const [a, b] = [row(players[duel.a]!.name), row(players[duel.b]!.name)];
      if (a === b) continue;
      const [ra, rb] = [a.rating, b.rating];
      a.rating = ra + eloK(ra) * (duel.score - expectedScore(ra, rb));
      b.rating = rb + eloK(rb) * (1 - duel.score - expectedScore(rb, ra));
      this.record(outcome.game, a.name, b.name, duel.score);
      this.record(outcome.game, b.name, a.name, 1 - duel.score);
    }
  }

  /**
   * Puts back a bot's row as it was kept (a server's store, a ladder carried on from earlier results), in
   * place of what the ladder holds for it; its pair records are not part of a row and stay as they are.
   */
  restore(game: string, row: EloRow): void {
    getOr(this.rows, game, () => new Map<string, EloRow>()).set(row.name, { ...row });
  }

  /** A bot's rating in a game: ELO_START until it has played a rated duel there. */
  rating(game: string, name: string): number {
    return this.rows.get(game)?.get(name)?.rating ?? ELO_START;
  }

  /** A game's ladder, best rating first (equal ratings by name); copies, so changing them changes nothing here. */
  table(game: string): EloRow[] {
    return [...(this.rows.get(game)?.values() ?? [])]
      .map((r) => ({ ...r }))
      .sort((x, y) => y.rating - x.rating || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  }

  /** The games rated so far, in the order their first match came. */
  games(): string[] {
    return [...this.rows.keys()];
  }

  /** `a`'s duels against `b` in a game: wins, losses and draws (zeros when they never met). */
  history(game: string, a: string, b: string): PairRecord {
    const rec = this.pairs.get(game)?.get(a)?.get(b);
    return rec ? { ...rec } : { wins: 0, losses: 0, draws: 0 };
  }

  private record(game: string, a: string, b: string, score: number): void {
    const byName = getOr(this.pairs, game, () => new Map<string, Map<string, PairRecord>>());
    const rec = getOr(
      getOr(byName, a, () => new Map<string, PairRecord>()),
      b,
      () => ({ wins: 0, losses: 0, draws: 0 }),
    );
    if (score === 1) rec.wins++;
    else if (score === 0) rec.losses++;
    else rec.draws++;
  }
}

/** The map's value for `key`, made and stored first when there is none. */
export function getOr<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}
