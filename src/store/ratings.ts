import type { Kysely } from 'kysely';
import { lookupable } from './bots.js';
import { limitOf, ratingFromRow, ratingSystem } from './rows.js';
import type { Database } from './schema.js';
import { LIMITS, type HeadToHeadRow, type LeaderboardRow, type RatingHistoryRow, type RatingRow, type RatingSystem } from './store.js';

// Reading what finishMatch keeps: leaderboards, kept ratings, histories, head-to-head records.

type Db = Kysely<Database>;

/** Store.leaderboard: a game's table in one system, best first, deleted bots left out. */
export async function leaderboard(db: Db, game: string, system: RatingSystem, limit?: number): Promise<LeaderboardRow[]> {
  const sys = ratingSystem(system);
  if (!lookupable(game)) return [];
  const rows = await db
    .selectFrom('ratings')
    .innerJoin('bots', 'bots.id', 'ratings.bot_id')
    .selectAll('ratings')
    .select(['bots.name', 'bots.builtin', 'bots.status', 'bots.active_version', 'bots.endpoint'])
    .where('ratings.game', '=', game)
    .where('ratings.system', '=', sys)
    .where('bots.status', '<>', 'deleted')
    .orderBy('ratings.rating', 'desc')
    .orderBy('bots.name')
    .orderBy('bots.id')
    .limit(limitOf(limit, 100, LIMITS.rows))
    .execute();
  return rows.map((r, i) => ({
    ...ratingFromRow(r),
    position: i + 1,
    name: r.name,
    builtin: Number(r.builtin) === 1,
    status: r.status as LeaderboardRow['status'],
    // The version of its uploaded code that plays; null for a bot that is not uploaded code (now).
    version: r.active_version === null || r.active_version === undefined || !r.endpoint.startsWith('upload:') ? null : Number(r.active_version),
  }));
}

/** Store.ratingsFor: every kept rating of a game in one system. */
export async function ratingsFor(db: Db, game: string, system: RatingSystem): Promise<RatingRow[]> {
  const sys = ratingSystem(system);
  if (!lookupable(game)) return [];
  // Every bot of the game: one row each, as many as the game has bots (registration is rate-limited).
  const rows = await db.selectFrom('ratings').selectAll().where('game', '=', game).where('system', '=', sys).orderBy('bot_id').execute();
  return rows.map(ratingFromRow);
}

/** Store.ratingsOf: a bot's kept ratings. */
export async function ratingsOf(db: Db, botId: string): Promise<RatingRow[]> {
  if (!lookupable(botId)) return [];
  const rows = await db.selectFrom('ratings').selectAll().where('bot_id', '=', botId).orderBy('system').execute();
  return rows.map(ratingFromRow);
}

/** Store.ratingHistory: a bot's last rating changes in one system, oldest first. */
export async function ratingHistory(db: Db, botId: string, system: RatingSystem, limit?: number): Promise<RatingHistoryRow[]> {
  const sys = ratingSystem(system);
  if (!lookupable(botId)) return [];
  const rows = await db
    .selectFrom('rating_history')
    .select(['match_id', 'before', 'after', 'at'])
    .where('bot_id', '=', botId)
    .where('system', '=', sys)
    .orderBy('at', 'desc')
    .orderBy('match_id', 'desc')
    .limit(limitOf(limit, LIMITS.rows, LIMITS.rows))
    .execute();
  return rows.reverse().map((r) => ({ matchId: r.match_id, before: Number(r.before), after: Number(r.after), at: r.at }));
}

/** Store.headToHead: a bot's records against each opponent, most games first. */
export async function headToHead(db: Db, botId: string): Promise<HeadToHeadRow[]> {
  if (!lookupable(botId)) return [];
  const rows = await db
    .selectFrom('pair_results')
    .innerJoin('bots', 'bots.id', 'pair_results.opponent_id')
    .select(['pair_results.opponent_id', 'bots.name', 'pair_results.wins', 'pair_results.draws', 'pair_results.losses'])
    .where('pair_results.bot_id', '=', botId)
    .orderBy((eb) => eb(eb('pair_results.wins', '+', eb.ref('pair_results.draws')), '+', eb.ref('pair_results.losses')), 'desc')
    .orderBy('bots.name')
    .orderBy('pair_results.opponent_id')
    .limit(LIMITS.rows)
    .execute();
  return rows.map((r) => ({ opponentId: r.opponent_id, opponentName: r.name, wins: Number(r.wins), draws: Number(r.draws), losses: Number(r.losses) }));
}
