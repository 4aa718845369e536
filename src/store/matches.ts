import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { lookupable } from './bots.js';
import { brokenConstraint, ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import {
  decodeCursor,
  encodeCursor,
  int,
  isoNow,
  json,
  lineText,
  limitOf,
  matchFromRow,
  matchKind,
  matchStatus,
  nameText,
  reasonText,
  seatFromRow,
} from './rows.js';
import type { Database, MatchesTable, MatchSeatsTable } from './schema.js';
import { LIMITS, type Claim, type LiveAttempt, type MatchFilter, type MatchPage, type MatchRow, type NewMatchRow, type RecentOutcome } from './store.js';

// The matches table and its seats: queueing, the status changes, reads and keyset pages.

type Db = Kysely<Database>;

const MAX_SEED = 0xffffffff;

/** Store.createMatch: a queued match and its seats, in one transaction. */
export async function createMatch(db: Db, clock: () => Date, m: NewMatchRow): Promise<MatchRow> {
  return db.transaction().execute((trx) => insertMatch(trx, clock, m));
}

/** A queued match and its seats written with `trx` (a transaction the caller holds). */
export async function insertMatch(trx: Db, clock: () => Date, m: NewMatchRow): Promise<MatchRow> {
  const id = m.id === undefined ? randomUUID() : lineText('id', m.id, 128);
  const game = nameText('game', m.game);
  const kind = matchKind(m.kind);
  if (typeof m.rated !== 'boolean') throw new InvalidInputError(`rated: expected true or false, got ${JSON.stringify(m.rated)}`);
  if (kind === 'test' && m.rated) throw new InvalidInputError('rated: a test match is never rated');
  if (kind === 'contest' && m.rated) throw new InvalidInputError("rated: a contest's match is never rated (a final does not move the ladder's ratings)");
  const row: MatchesTable = {
    id,
    game,
    kind,
    rated: m.rated ? 1 : 0,
    status: 'queued',
    seed: int('seed', m.seed, 0, MAX_SEED),
    config: json('config', m.config ?? {}),
    job: json('job', m.job ?? null),
    created_at: isoNow(clock),
    started_at: null,
    finished_at: null,
    result: null,
    abort_reason: null,
    tries: 0,
    worker: null,
    alive_until: null,
  };
  if (!Array.isArray(m.seats) || m.seats.length < 1 || m.seats.length > LIMITS.seats)
    throw new InvalidInputError(`seats: expected 1 to ${LIMITS.seats} seats, got ${Array.isArray(m.seats) ? m.seats.length : typeof m.seats}`);
  {
    const ids = [...new Set(m.seats.filter((s): s is string => typeof s === 'string'))];
    const bots = new Map(
      (ids.length ? await trx.selectFrom('bots').select(['id', 'game', 'name']).where('id', 'in', ids.filter(lookupable)).execute() : []).map((b) => [b.id, b]),
    );
    const seats: MatchSeatsTable[] = m.seats.map((s, slot) => {
      const base = { match_id: id, slot, rank: null, score: null, fault_kind: null, fault_detail: null, fault_turn: null };
      if (typeof s !== 'string') return { ...base, bot_id: null, name: lineText(`seats[${slot}].name`, s?.name, LIMITS.name) };
      const bot = bots.get(s);
      if (!bot) throw new NotFoundError(`seats[${slot}]: no bot ${JSON.stringify(s)}`);
      if (bot.game !== game) throw new InvalidInputError(`seats[${slot}]: bot "${bot.name}" plays ${bot.game}, not ${game}`);
      return { ...base, bot_id: bot.id, name: bot.name };
    });
    try {
      await trx.insertInto('matches').values(row).execute();
    } catch (err) {
      throw brokenConstraint(err) === 'unique' ? new ConflictError(`a match with id ${id} exists already`, { cause: err }) : err;
    }
    await trx.insertInto('match_seats').values(seats).execute();
    return matchFromRow(row, seats.map(seatFromRow));
  }
}

/** Store.startMatch: queued → running, one worker only. */
export async function startMatch(db: Db, clock: () => Date, id: string, worker?: string): Promise<boolean> {
  if (!lookupable(id)) return false;
  const r = await db
    .updateTable('matches')
    .set((eb) => ({
      status: 'running',
      started_at: isoNow(clock),
      tries: eb('tries', '+', 1),
      worker: worker === undefined ? null : lineText('worker', worker, 200),
      alive_until: null,
    }))
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Store.claimMatch: see there. */
export async function claimMatch(db: Db, clock: () => Date, id: string, worker: string, aliveMs?: number): Promise<Claim> {
  if (!lookupable(id)) return null;
  const name = lineText('worker', worker, 200);
  if (aliveMs !== undefined) int('aliveMs', aliveMs, 1, MAX_ALIVE_MS);
  // A claim that finds the holder alive changes nothing; one whose holder's heartbeat ran out between the two
  // reads below tries again (a heartbeat only ever moves forward while its attempt holds the match).
  for (let round = 0; round < 3; round++) {
    const at = clock();
    const now = at.toISOString();
    const r = await db
      .updateTable('matches')
      .set((eb) => ({
        status: 'running',
        started_at: now,
        tries: eb('tries', '+', 1),
        worker: name,
        alive_until: aliveMs === undefined ? null : new Date(at.getTime() + aliveMs).toISOString(),
      }))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb.or([eb('alive_until', 'is', null), eb('alive_until', '<=', now)])])]),
      )
      .returning('tries')
      .executeTakeFirst();
    if (r) return Number(r.tries);
    const held = await liveAttempt(db, clock, id);
    if (held) return { held };
    const row = await db.selectFrom('matches').select('status').where('id', '=', id).executeTakeFirst();
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return null;
  }
  const held = await liveAttempt(db, clock, id);
  return held ? { held } : null;
}

/** The longest a heartbeat may promise (a day): a longer one is a mistake, not a slow match. */
export const MAX_ALIVE_MS = 24 * 3600_000;

/** Store.liveAttempt: the running match's attempt whose heartbeat has not run out, or null. */
export async function liveAttempt(db: Db, clock: () => Date, id: string): Promise<LiveAttempt | null> {
  if (!lookupable(id)) return null;
  const row = await db.selectFrom('matches').select(['status', 'tries', 'worker', 'alive_until']).where('id', '=', id).executeTakeFirst();
  if (!row || row.status !== 'running' || row.alive_until === null || row.alive_until <= isoNow(clock)) return null;
  return { attempt: Number(row.tries), worker: row.worker, aliveUntil: row.alive_until };
}

/** Store.beatMatch: the attempt that holds a running match says it is alive for `aliveMs` more; false when it does not hold it. */
export async function beatMatch(db: Db, clock: () => Date, id: string, attempt: number, aliveMs: number): Promise<boolean> {
  if (!lookupable(id)) return false;
  int('attempt', attempt, 1, Number.MAX_SAFE_INTEGER);
  int('aliveMs', aliveMs, 1, MAX_ALIVE_MS);
  const r = await db
    .updateTable('matches')
    .set({ alive_until: new Date(clock().getTime() + aliveMs).toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('tries', '=', attempt)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Store.releaseMatch: running by this worker → queued, no worker (a hand-back); false when it does not hold it. */
export async function releaseMatch(db: Db, id: string, worker: string): Promise<boolean> {
  if (!lookupable(id)) return false;
  const r = await db
    .updateTable('matches')
    .set({ status: 'queued', worker: null })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('worker', '=', lineText('worker', worker, 200))
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Store.abortMatch and abortRunning: the matches in these statuses (one, or all) marked aborted; their ids. */
export async function abortMatches(db: Db, clock: () => Date, reason: string, which: { id?: string; statuses: string[]; attempt?: number }): Promise<string[]> {
  if (which.id !== undefined && !lookupable(which.id)) return [];
  if (which.attempt !== undefined) int('attempt', which.attempt, 0, Number.MAX_SAFE_INTEGER);
  let q = db
    .updateTable('matches')
    .set({ status: 'aborted', abort_reason: reasonText(reason) ?? 'aborted', finished_at: isoNow(clock) })
    .where('status', 'in', which.statuses);
  if (which.id !== undefined) q = q.where('id', '=', which.id);
  // An attempt's own abort: refused once another attempt holds the match.
  if (which.attempt !== undefined) q = q.where('tries', '=', which.attempt);
  return (await q.returning('id').execute()).map((r) => r.id);
}

/** The seats of these matches, by match id, in slot order. */
export async function seatsOf(db: Db, ids: string[]): Promise<Map<string, MatchSeatsTable[]>> {
  const out = new Map<string, MatchSeatsTable[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await db.selectFrom('match_seats').selectAll().where('match_id', 'in', ids).orderBy('match_id').orderBy('slot').execute();
  for (const r of rows) out.get(r.match_id)?.push(r);
  return out;
}

/** Store.getMatch: a match with its seats. */
export async function getMatch(db: Db, id: string): Promise<MatchRow | null> {
  if (!lookupable(id)) return null;
  const row = await db.selectFrom('matches').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return matchFromRow(row, (await seatsOf(db, [id])).get(id)!.map(seatFromRow));
}

/** The conditions of a filter (empty: every match); a value no row can have gives `null`. */
function filterOf(
  f: MatchFilter,
): ((eb: ExpressionBuilder<Database, 'matches'>) => ReturnType<ExpressionBuilder<Database, 'matches'>['and']>) | null | undefined {
  const status = f.status === undefined ? undefined : matchStatus(f.status);
  const kind = f.kind === undefined ? undefined : matchKind(f.kind);
  if ((f.game !== undefined && !lookupable(f.game)) || (f.botId !== undefined && !lookupable(f.botId))) return null;
  if (f.game === undefined && f.botId === undefined && !status && !kind) return undefined;
  return (eb) =>
    eb.and([
      ...(f.game !== undefined ? [eb('matches.game', '=', f.game)] : []),
      ...(status ? [eb('matches.status', '=', status)] : []),
      ...(kind ? [eb('matches.kind', '=', kind)] : []),
      ...(f.botId !== undefined
        ? [
            eb.exists(
              eb
                .selectFrom('match_seats')
                .select('match_seats.slot')
                .whereRef('match_seats.match_id', '=', 'matches.id')
                .where('match_seats.bot_id', '=', f.botId),
            ),
          ]
        : []),
    ]);
}

/** Store.listMatches: a keyset page, newest first. */
export async function listMatches(db: Db, query: MatchFilter & { limit?: number; cursor?: string | null }): Promise<MatchPage> {
  const limit = limitOf(query.limit, 20, LIMITS.matchPage);
  const filter = filterOf(query);
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  if (filter === null) return { items: [], next: null };
  let q = db.selectFrom('matches').selectAll('matches');
  if (filter) q = q.where(filter);
  // Keyset: newest first by (created_at, id); the next page starts below the last row of this one.
  if (after) q = q.where((eb) => eb(eb.refTuple('matches.created_at', 'matches.id'), '<', eb.tuple(after[0], after[1])));
  const rows = await q
    .orderBy('matches.created_at', 'desc')
    .orderBy('matches.id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const seats = await seatsOf(
    db,
    page.map((r) => r.id),
  );
  const last = page[page.length - 1];
  return {
    items: page.map((r) => matchFromRow(r, seats.get(r.id)!.map(seatFromRow))),
    next: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** Store.countMatches: how many matches a filter selects. */
export async function countMatches(db: Db, f: MatchFilter = {}): Promise<number> {
  const filter = filterOf(f);
  if (filter === null) return 0;
  let q = db.selectFrom('matches').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (filter) q = q.where(filter);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Store.getReplay: a finished match's gzipped replay. */
export async function getReplay(db: Db, id: string): Promise<Buffer | null> {
  if (!lookupable(id)) return null;
  const row = await db.selectFrom('replays').select('gz').where('match_id', '=', id).executeTakeFirst();
  return row ? Buffer.from(row.gz) : null;
}

/** Store.getLogs: one seat's gzipped message log. */
export async function getLogs(db: Db, id: string, slot: number): Promise<Buffer | null> {
  if (!lookupable(id) || !Number.isInteger(slot)) return null;
  const row = await db.selectFrom('match_logs').select('gz').where('match_id', '=', id).where('slot', '=', slot).executeTakeFirst();
  return row ? Buffer.from(row.gz) : null;
}

/** Store.recentOutcomes: a bot's last finished rated matches, newest first, with its fault. */
export async function recentOutcomes(db: Db, botId: string, limit: number): Promise<RecentOutcome[]> {
  if (!lookupable(botId)) return [];
  const n = limitOf(limit, 10, LIMITS.rows);
  // From the bot's seats (indexed by bot), not from every match.
  const matches = await db
    .selectFrom('match_seats')
    .innerJoin('matches', 'matches.id', 'match_seats.match_id')
    .select(['matches.id', 'matches.finished_at'])
    .where('match_seats.bot_id', '=', botId)
    .where('matches.status', '=', 'finished')
    .where('matches.rated', '=', 1)
    .groupBy(['matches.id', 'matches.finished_at'])
    .orderBy('matches.finished_at', 'desc')
    .orderBy('matches.id', 'desc')
    .limit(n)
    .execute();
  const seats = await seatsOf(
    db,
    matches.map((m) => m.id),
  );
  return matches.map((m) => {
    const faulted = seats.get(m.id)!.find((s) => s.bot_id === botId && s.fault_kind !== null);
    return { matchId: m.id, fault: faulted ? seatFromRow(faulted).fault : null };
  });
}

/** Store.activeMatchCounts: per bot, its matches queued or running. */
export async function activeMatchCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('match_seats')
    .innerJoin('matches', 'matches.id', 'match_seats.match_id')
    .select((eb) => ['match_seats.bot_id', eb.fn.count<number | string>('matches.id').distinct().as('n')])
    .where('matches.status', 'in', ['queued', 'running'])
    .where('match_seats.bot_id', 'is not', null)
    .groupBy('match_seats.bot_id')
    .execute();
  return new Map(rows.map((r) => [r.bot_id!, Number(r.n)]));
}

/** Store.recentMatchCounts: ladder matches per bot of a game since a time. */
export async function recentMatchCounts(db: Db, game: string, since: number | Date): Promise<Map<string, number>> {
  const from = new Date(since);
  if (Number.isNaN(from.getTime())) throw new InvalidInputError(`since: ${String(since)} is not a time`);
  if (!lookupable(game)) return new Map();
  const rows = await db
    .selectFrom('match_seats')
    .innerJoin('matches', 'matches.id', 'match_seats.match_id')
    .select((eb) => ['match_seats.bot_id', eb.fn.count<number | string>('matches.id').distinct().as('n')])
    .where('matches.game', '=', game)
    .where('matches.kind', '=', 'ladder')
    .where('matches.created_at', '>=', from.toISOString())
    .where('match_seats.bot_id', 'is not', null)
    .groupBy('match_seats.bot_id')
    .execute();
  return new Map(rows.map((r) => [r.bot_id!, Number(r.n)]));
}
