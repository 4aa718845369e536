import type { Kysely, Transaction } from 'kysely';
import { lookupable } from './bots.js';
import { InvalidInputError } from './errors.js';
import type { Dialect } from './migrations.js';
import { finite, int, json, ratingSystem, reasonText, text } from './rows.js';
import type { Database, MatchSeatsTable } from './schema.js';
import { LIMITS, type KeptRatings, type MatchFinish, type PairDelta, type RatingChange, type RatingUpdate } from './store.js';

// Finishing a match: everything it leaves in one transaction, at most once per match.

type Trx = Transaction<Database>;

const bytes = (field: string, v: unknown): Buffer => {
  if (!(v instanceof Uint8Array)) throw new InvalidInputError(`${field}: expected bytes (a Buffer or Uint8Array)`);
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
};
const count = (field: string, v: unknown) => int(field, v, 0, Number.MAX_SAFE_INTEGER);

/** The seats as rows, checked before the transaction starts. */
function seatRows(matchId: string, f: MatchFinish): MatchSeatsTable[] {
  if (!Array.isArray(f.seats) || f.seats.length > LIMITS.seats) throw new InvalidInputError(`seats: expected at most ${LIMITS.seats} seats`);
  return f.seats.map((s, i) => ({
    match_id: matchId,
    slot: int(`seats[${i}].slot`, s.slot, 0, LIMITS.seats - 1),
    bot_id: s.botId === null ? null : text(`seats[${i}].botId`, s.botId, 256),
    name: text(`seats[${i}].name`, s.name, 256),
    rank: int(`seats[${i}].rank`, s.rank, 1, LIMITS.seats),
    score: s.score === null || s.score === undefined ? null : finite(`seats[${i}].score`, s.score),
    // Fault details are the arena's words about a bot's output: cut and cleaned, never refused.
    fault_kind: s.fault ? text(`seats[${i}].fault.kind`, s.fault.kind, 100) : null,
    fault_detail: s.fault ? reasonText(s.fault.detail) : null,
    fault_turn: s.fault ? int(`seats[${i}].fault.turn`, s.fault.turn, 0, Number.MAX_SAFE_INTEGER) : null,
  }));
}

function checkChange(c: RatingChange, i: number): RatingChange {
  const at = `ratingChanges[${i}]`;
  ratingSystem(c.system);
  text(`${at}.botId`, c.botId, 256);
  finite(`${at}.before`, c.before);
  finite(`${at}.after.rating`, c.after.rating);
  for (const k of ['games', 'wins', 'draws', 'losses'] as const) count(`${at}.after.${k}`, c.after[k]);
  if (c.after.mu !== null) finite(`${at}.after.mu`, c.after.mu);
  if (c.after.sigma !== null) finite(`${at}.after.sigma`, c.after.sigma);
  return c;
}

function checkPair(p: PairDelta, i: number): PairDelta {
  text(`pairDeltas[${i}].botId`, p.botId, 256);
  text(`pairDeltas[${i}].opponentId`, p.opponentId, 256);
  for (const k of ['wins', 'draws', 'losses'] as const) count(`pairDeltas[${i}].${k}`, p[k]);
  return p;
}

/** The seated bots' ratings as kept now (Postgres: their rows locked until the transaction ends). */
async function keptRatings(trx: Trx, dialect: Dialect, botIds: string[]): Promise<Map<string, KeptRatings>> {
  const kept = new Map<string, KeptRatings>();
  if (!botIds.length) return kept;
  // Two matches of one bot finishing at once on two connections would both read its rating and the later
  // write would lose the earlier: lock the bots (in id order, so finishers never wait on each other in a
  // circle). NO KEY UPDATE does not block inserts that merely reference the bots. SQLite needs no lock:
  // the transaction holds the database's write lock since its first statement.
  if (dialect === 'postgres') await trx.selectFrom('bots').select('id').where('id', 'in', botIds).orderBy('id').forNoKeyUpdate().execute();
  const rows = await trx.selectFrom('ratings').selectAll().where('bot_id', 'in', botIds).execute();
  for (const r of rows) {
    const k = kept.get(r.bot_id) ?? {};
    const counts = { games: Number(r.games), wins: Number(r.wins), draws: Number(r.draws), losses: Number(r.losses) };
    if (r.system === 'elo') k.elo = { rating: Number(r.rating), ...counts };
    else if (r.mu !== null && r.sigma !== null) k.skill = { mu: Number(r.mu), sigma: Number(r.sigma), ...counts };
    kept.set(r.bot_id, k);
  }
  return kept;
}

/** A rating function's answer as changes. */
function changesOf(u: RatingUpdate): RatingChange[] {
  const out: RatingChange[] = [];
  for (const [botId, { before, row }] of u.elo)
    out.push({
      botId,
      system: 'elo',
      before,
      after: { rating: row.rating, mu: null, sigma: null, games: row.games, wins: row.wins, draws: row.draws, losses: row.losses },
    });
  for (const [botId, { before, row }] of u.skill)
    out.push({
      botId,
      system: 'openskill',
      before,
      after: { rating: row.ordinal, mu: row.mu, sigma: row.sigma, games: row.games, wins: row.wins, draws: row.draws, losses: row.losses },
    });
  return out;
}

async function applyRatings(trx: Trx, game: string, matchId: string, at: string, changes: readonly RatingChange[], pairs: readonly PairDelta[]): Promise<void> {
  for (const c of changes) {
    const values = {
      rating: c.after.rating,
      mu: c.after.mu,
      sigma: c.after.sigma,
      games: c.after.games,
      wins: c.after.wins,
      draws: c.after.draws,
      losses: c.after.losses,
      updated_at: at,
    };
    await trx
      .insertInto('ratings')
      .values({ bot_id: c.botId, system: c.system, game, ...values })
      .onConflict((oc) => oc.columns(['bot_id', 'system']).doUpdateSet(values))
      .execute();
    await trx
      .insertInto('rating_history')
      .values({ bot_id: c.botId, match_id: matchId, system: c.system, before: c.before, after: c.after.rating, at })
      .execute();
  }
  for (const p of pairs) {
    await trx
      .insertInto('pair_results')
      .values({ game, bot_id: p.botId, opponent_id: p.opponentId, wins: p.wins, draws: p.draws, losses: p.losses })
      .onConflict((oc) =>
        oc.columns(['bot_id', 'opponent_id']).doUpdateSet((eb) => ({
          wins: eb('pair_results.wins', '+', eb.ref('excluded.wins')),
          draws: eb('pair_results.draws', '+', eb.ref('excluded.draws')),
          losses: eb('pair_results.losses', '+', eb.ref('excluded.losses')),
        })),
      )
      .execute();
  }
}

/** See Store.finishMatch. */
export async function finishMatch(db: Kysely<Database>, dialect: Dialect, clock: () => string, id: string, f: MatchFinish): Promise<boolean> {
  const now = clock();
  if (!lookupable(id)) return false;
  const result = json('result', f.result);
  const seats = seatRows(id, f);
  const replay = bytes('replayGz', f.replayGz);
  const logs = (f.logs ?? []).map((l, i) => ({ match_id: id, slot: int(`logs[${i}].slot`, l.slot, 0, LIMITS.seats - 1), gz: bytes(`logs[${i}].gz`, l.gz) }));
  const given = (f.ratingChanges ?? []).map(checkChange);
  const givenPairs = (f.pairDeltas ?? []).map(checkPair);
  const attempt = f.attempt === undefined ? undefined : int('attempt', f.attempt, 1, Number.MAX_SAFE_INTEGER);
  return db.transaction().execute(async (trx) => {
    // The claim comes first, and it is a write: on SQLite it takes the database's write lock at once (waiting
    // out another process's transaction under the busy timeout); on Postgres it locks the match's row, so a
    // second finisher waits here and then finds it finished. Either way the match is recorded once.
    // Fencing: the finish of an attempt (the `tries` it started as) is refused once another attempt took the
    // match over; the caller reads who holds it (Store.finishMatch returns false).
    let q = trx.updateTable('matches').set({ status: 'finished', finished_at: now, result }).where('id', '=', id).where('status', 'in', ['queued', 'running']);
    if (attempt !== undefined) q = q.where('tries', '=', attempt);
    const claimed = await q.returning('game').executeTakeFirst();
    if (!claimed) return false;
    for (const s of seats) {
      await trx
        .insertInto('match_seats')
        .values(s)
        .onConflict((oc) =>
          oc.columns(['match_id', 'slot']).doUpdateSet({
            bot_id: s.bot_id,
            name: s.name,
            rank: s.rank,
            score: s.score,
            fault_kind: s.fault_kind,
            fault_detail: s.fault_detail,
            fault_turn: s.fault_turn,
          }),
        )
        .execute();
    }
    await trx.insertInto('replays').values({ match_id: id, gz: replay }).execute();
    if (logs.length) await trx.insertInto('match_logs').values(logs).execute();
    const changes = [...given];
    const pairs = [...givenPairs];
    if (f.rate) {
      const botIds = [...new Set(seats.map((s) => s.bot_id).filter((b): b is string => b !== null))];
      const update = f.rate(await keptRatings(trx, dialect, botIds));
      changes.push(...changesOf(update).map(checkChange));
      pairs.push(...update.pairs.map(checkPair));
      // The time of the rating changes is read once the bots' ratings are this transaction's (locked): two
      // matches of a bot finishing at once are then dated in the order they were rated, so its history ends
      // on the rating it has (dated before the lock, the one that waited could come out first).
      await applyRatings(trx, claimed.game, id, clock(), changes, pairs);
      return true;
    }
    await applyRatings(trx, claimed.game, id, now, changes, pairs);
    return true;
  });
}
