import { EloLadder, SkillLadder, type EloRow, type SkillRow } from '../ratings/index.js';

// What one rated match changes, computed from the ratings its bots had before it: the server reads those
// from its store inside the transaction that records the match, so a match is rated once, from the ratings
// the previous match left, however many processes finish matches. Bots are named by their ids here.

/** A bot's kept ratings in one game: absent for a bot's first rated match there. */
export interface KeptRatings {
  elo?: Omit<EloRow, 'name'>;
  skill?: Omit<SkillRow, 'name' | 'ordinal'>;
}

/** One match's changes: each seated bot's rows after it, and the duels' records by ordered pair. */
export interface RatingUpdate {
  elo: Map<string, { before: number; row: Omit<EloRow, 'name'> }>;
  skill: Map<string, { before: number; row: Omit<SkillRow, 'name'> }>;
  /** (bot, opponent) → what this match added to the bot's record against it (duels, as botsarena kept them) */
  pairs: { botId: string; opponentId: string; wins: number; draws: number; losses: number }[];
}

/**
 * Rates one finished match of `game`: `seats` are the bots' ids and ranks by slot (a bot may hold several
 * seats: it is never rated against itself), `kept` their ratings before it. ELO per botsarena's rules (lap
 * duels for many players), OpenSkill for all at once.
 */
export function rateFinishedMatch(game: string, seats: { botId: string; rank: number }[], kept: ReadonlyMap<string, KeptRatings>): RatingUpdate {
  const elo = new EloLadder();
  const skill = new SkillLadder();
  const ids = [...new Set(seats.map((s) => s.botId))];
  const eloBefore = new Map<string, number>();
  const skillBefore = new Map<string, number>();
  for (const id of ids) {
    const k = kept.get(id);
    if (k?.elo) elo.restore(game, { name: id, ...k.elo });
    if (k?.skill) skill.restore(game, { name: id, ...k.skill, ordinal: 0 });
    eloBefore.set(id, elo.rating(game, id));
    skillBefore.set(id, skill.rating(game, id).ordinal);
  }
  const outcome = { game, players: seats.map((s) => ({ name: s.botId, rank: s.rank })) };
  elo.rate(outcome);
  skill.rate(outcome);
  const update: RatingUpdate = { elo: new Map(), skill: new Map(), pairs: [] };
  for (const { name, ...row } of elo.table(game)) if (ids.includes(name)) update.elo.set(name, { before: eloBefore.get(name)!, row });
  for (const { name, ...row } of skill.table(game)) if (ids.includes(name)) update.skill.set(name, { before: skillBefore.get(name)!, row });
  for (const a of ids) {
    for (const b of ids) {
      if (a === b) continue;
      const r = elo.history(game, a, b);
      if (r.wins + r.draws + r.losses > 0) update.pairs.push({ botId: a, opponentId: b, wins: r.wins, draws: r.draws, losses: r.losses });
    }
  }
  return update;
}
