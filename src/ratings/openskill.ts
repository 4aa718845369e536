import { ordinal, rate, rating, type Rating } from 'openskill';
import { getOr } from './elo.js';
import { nameResults, type MatchOutcome } from './results.js';

/** A bot's line in a game's OpenSkill table: its skill estimate μ ± σ and the ordinal μ − 3σ it is ranked by. */
export interface SkillRow {
  name: string;
  mu: number;
  sigma: number;
  /** μ − 3σ: a skill the bot very likely has at least; it starts at 0 and rises as σ shrinks */
  ordinal: number;
  /** rated matches, and how each ended for it (as for the ELO table: see `nameResults`) */
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/**
 * OpenSkill ratings (the Weng-Lin Bayesian model of the `openskill` package, Plackett-Luce, default options:
 * μ 25, σ 25/3) of every game, fed one finished match at a time. Unlike ELO, a match of any number of seats is
 * one update of all its bots at once, each a team of one, by the ranks as given (ties allowed). ELO's duels
 * carry the spec's rules; this second opinion also says how sure it is (σ).
 */
export class SkillLadder {
  /** game → name → that bot's rating and counts */
  private readonly rows = new Map<string, Map<string, SkillRow>>();

  /**
   * Rates one match. A bot holding several seats is rated once, at the best rank it reached: the seats it
   * held otherwise are dropped. Skipping the whole match would lose what the other bots did, and rating every
   * seat would update the one rating several times in one match, as if it had played itself. A match whose
   * seats all hold one name changes nothing.
   */
  rate(outcome: MatchOutcome): void {
    const results = nameResults(outcome);
    if (!results.length) return;
    const rows = getOr(this.rows, outcome.game, () => new Map<string, SkillRow>());
    const players = results.map((r) => getOr(rows, r.name, () => ({ name: r.name, ...fresh(), games: 0, wins: 0, draws: 0, losses: 0 })));
    const after = rate(
      players.map((p): Rating[] => [{ mu: p.mu, sigma: p.sigma }]),
      { rank: results.map((r) => r.rank) },
    );
    players.forEach((p, i) => {
      const { mu, sigma } = after[i]![0]!;
      Object.assign(p, { mu, sigma, ordinal: ordinal({ mu, sigma }), games: p.games + 1 });
      const result = results[i]!.result;
      if (result === 'win') p.wins++;
      else if (result === 'draw') p.draws++;
      else p.losses++;
    });
  }

  /** Puts back a bot's row as it was kept (a server's store), in place of what the ladder holds for it. */
  restore(game: string, row: SkillRow): void {
    getOr(this.rows, game, () => new Map<string, SkillRow>()).set(row.name, { ...row, ordinal: ordinal({ mu: row.mu, sigma: row.sigma }) });
  }

  /** A bot's rating in a game: the starting one until it has played a rated match there. */
  rating(game: string, name: string): { mu: number; sigma: number; ordinal: number } {
    const row = this.rows.get(game)?.get(name);
    return row ? { mu: row.mu, sigma: row.sigma, ordinal: row.ordinal } : fresh();
  }

  /** A game's table, best ordinal first (equal ordinals by name); copies, so changing them changes nothing here. */
  table(game: string): SkillRow[] {
    return [...(this.rows.get(game)?.values() ?? [])]
      .map((r) => ({ ...r }))
      .sort((x, y) => y.ordinal - x.ordinal || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  }

  /** The games rated so far, in the order their first match came. */
  games(): string[] {
    return [...this.rows.keys()];
  }
}

/** The package's starting rating and its ordinal. */
function fresh(): { mu: number; sigma: number; ordinal: number } {
  const r = rating();
  return { mu: r.mu, sigma: r.sigma, ordinal: ordinal(r) };
}
