import type { Kysely } from 'kysely';
import { lookupable } from './bots.js';
import { brokenConstraint, ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { insertMatch } from './matches.js';
import { isoNow, json, lineText, limitOf, matchFromRow, nameText, oneOf, seatFromRow } from './rows.js';
import type { ContestEntriesTable, ContestsTable, Database, MatchSeatsTable } from './schema.js';
import {
  LIMITS,
  type ContestEntryRow,
  type ContestMatchRow,
  type ContestRow,
  type ContestStatus,
  type MatchRow,
  type MatchStatus,
  type NewContestRow,
  type NewMatchRow,
} from './store.js';

// Contests (issue 38): the contest, its entrants (with the version each plays the final with, fixed at the
// freeze), and the final's matches: each a `matches` row of kind 'contest' linked by the plan's key, unique in
// its contest, written in the same transaction as the match, so a planned match is created once whatever
// crashes between two plans.

type Db = Kysely<Database>;

const CONTEST_STATUSES: readonly ContestStatus[] = ['entry', 'frozen', 'running', 'done'];
export const contestStatus = (v: unknown) => oneOf('status', v, CONTEST_STATUSES);
const CONTEST_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function contestFromRow(r: ContestsTable): ContestRow {
  return {
    id: r.id,
    game: r.game,
    name: r.name,
    status: r.status as ContestStatus,
    definition: JSON.parse(r.definition) as unknown,
    closesAt: r.closes_at,
    createdAt: r.created_at,
    frozenAt: r.frozen_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    results: r.results === null ? null : (JSON.parse(r.results) as unknown),
  };
}

/** An ISO 8601 time as the store writes it, or null. */
function timeOrNull(field: string, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) throw new InvalidInputError(`${field}: expected an ISO 8601 time, got ${JSON.stringify(v)}`);
  return new Date(t).toISOString();
}

/** Store.createContest: status 'entry'. ConflictError for an id taken. */
export async function createContest(db: Db, clock: () => Date, c: NewContestRow): Promise<ContestRow> {
  const id = typeof c.id === 'string' && CONTEST_ID.test(c.id) ? c.id : null;
  if (!id) throw new InvalidInputError(`id: expected 1 to 128 letters, digits, . _ - (not first), got ${JSON.stringify(c.id)}`);
  const row: ContestsTable = {
    id,
    game: nameText('game', c.game),
    name: lineText('name', c.name, 200),
    definition: json('definition', c.definition),
    status: 'entry',
    closes_at: timeOrNull('closesAt', c.closesAt),
    created_at: isoNow(clock),
    frozen_at: null,
    started_at: null,
    finished_at: null,
    results: null,
  };
  try {
    await db.insertInto('contests').values(row).execute();
  } catch (err) {
    throw brokenConstraint(err) === 'unique' ? new ConflictError(`a contest with id ${JSON.stringify(id)} exists already`, { cause: err }) : err;
  }
  return contestFromRow(row);
}

/** Store.getContest. */
export async function getContest(db: Db, id: string): Promise<ContestRow | null> {
  if (!lookupable(id)) return null;
  const row = await db.selectFrom('contests').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? contestFromRow(row) : null;
}

/** Store.listContests: newest first. */
export async function listContests(db: Db, f: { game?: string; status?: ContestStatus; limit?: number } = {}): Promise<ContestRow[]> {
  let q = db.selectFrom('contests').selectAll();
  if (f.game !== undefined) {
    if (!lookupable(f.game)) return [];
    q = q.where('game', '=', f.game);
  }
  if (f.status !== undefined) q = q.where('status', '=', contestStatus(f.status));
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limitOf(f.limit, 100, LIMITS.rows))
    .execute();
  return rows.map(contestFromRow);
}

/**
 * Takes the contest's row lock while it is in `status` (an update that changes nothing), so that a change of
 * its status by another transaction waits for this one: an entry never slips in beside a freeze. Throws
 * NotFoundError for no contest, ConflictError (with `closed`'s words) when it is in another status.
 */
async function holdIn(trx: Db, id: string, status: ContestStatus, closed: (c: ContestRow) => string): Promise<void> {
  const r = await trx.updateTable('contests').set({ status }).where('id', '=', id).where('status', '=', status).executeTakeFirst();
  if (r.numUpdatedRows > 0n) return;
  const c = await getContest(trx, id);
  if (!c) throw new NotFoundError(`no contest ${JSON.stringify(id)}`);
  throw new ConflictError(closed(c));
}

/** Store.enterContest: see there. */
export async function enterContest(db: Db, clock: () => Date, contestId: string, botId: string): Promise<ContestEntryRow> {
  if (!lookupable(contestId)) throw new NotFoundError(`no contest ${JSON.stringify(contestId)}`);
  return db.transaction().execute(async (trx) => {
    await holdIn(trx, contestId, 'entry', (c) => `contest ${c.id} takes no more entries: it is ${c.status} (entries close at the freeze)`);
    const contest = (await trx.selectFrom('contests').select(['game']).where('id', '=', contestId).executeTakeFirstOrThrow()) as { game: string };
    const bot = lookupable(botId)
      ? await trx.selectFrom('bots').select(['id', 'game', 'name', 'status', 'builtin']).where('id', '=', botId).executeTakeFirst()
      : undefined;
    if (!bot || bot.status === 'deleted') throw new NotFoundError(`no bot ${JSON.stringify(botId)}`);
    if (bot.game !== contest.game) throw new InvalidInputError(`bot: ${bot.name} plays ${bot.game}; contest ${contestId} is played in ${contest.game}`);
    const had = await trx.selectFrom('contest_entries').select('bot_id').where('contest_id', '=', contestId).where('bot_id', '=', bot.id).executeTakeFirst();
    if (had) throw new ConflictError(`${bot.name} has entered contest ${contestId} already`);
    const row: ContestEntriesTable = { contest_id: contestId, bot_id: bot.id, entered_at: isoNow(clock), frozen: null, place: null };
    try {
      await trx.insertInto('contest_entries').values(row).execute();
    } catch (err) {
      throw brokenConstraint(err) === 'unique' ? new ConflictError(`${bot.name} has entered contest ${contestId} already`, { cause: err }) : err;
    }
    return { contestId, botId: bot.id, name: bot.name, builtin: Number(bot.builtin) === 1, enteredAt: row.entered_at, frozen: null, place: null };
  });
}

/** Store.contestEntries: in seeding order once frozen (place), else in the order they entered. */
export async function contestEntries(db: Db, contestId: string): Promise<ContestEntryRow[]> {
  if (!lookupable(contestId)) return [];
  const rows = await db
    .selectFrom('contest_entries')
    .innerJoin('bots', 'bots.id', 'contest_entries.bot_id')
    .select(['contest_entries.bot_id', 'contest_entries.entered_at', 'contest_entries.frozen', 'contest_entries.place', 'bots.name', 'bots.builtin'])
    .where('contest_entries.contest_id', '=', contestId)
    .orderBy('contest_entries.entered_at')
    .orderBy('contest_entries.bot_id')
    .execute();
  const entries = rows.map((r) => ({
    contestId,
    botId: r.bot_id,
    name: r.name,
    builtin: Number(r.builtin) === 1,
    enteredAt: r.entered_at,
    frozen: r.frozen === null ? null : (JSON.parse(r.frozen) as unknown),
    place: r.place === null ? null : Number(r.place),
  }));
  // Stable: those without a place (before the freeze) keep the order they entered in, after the placed ones.
  return entries.sort((a, b) => (a.place ?? Infinity) - (b.place ?? Infinity));
}

/** Store.closeEntries: entry → frozen; false when it was not taking entries. */
export async function closeEntries(db: Db, clock: () => Date, contestId: string): Promise<boolean> {
  if (!lookupable(contestId)) return false;
  const r = await db
    .updateTable('contests')
    .set({ status: 'frozen', frozen_at: isoNow(clock) })
    .where('id', '=', contestId)
    .where('status', '=', 'entry')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Store.freezeEntry: an entrant's frozen version and seeding place, once; false when it had them already (or is no entrant). */
export async function freezeEntry(db: Db, contestId: string, botId: string, frozen: unknown, place: number): Promise<boolean> {
  if (!lookupable(contestId) || !lookupable(botId)) return false;
  if (!Number.isInteger(place) || place < 0 || place > 1_000_000)
    throw new InvalidInputError(`place: expected an integer from 0, got ${JSON.stringify(place)}`);
  const r = await db
    .updateTable('contest_entries')
    .set({ frozen: json('frozen', frozen), place })
    .where('contest_id', '=', contestId)
    .where('bot_id', '=', botId)
    .where('frozen', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Store.startContest: frozen → running, once every entrant's version is fixed; false otherwise. */
export async function startContest(db: Db, clock: () => Date, contestId: string): Promise<boolean> {
  if (!lookupable(contestId)) return false;
  const r = await db
    .updateTable('contests')
    .set({ status: 'running', started_at: isoNow(clock) })
    .where('id', '=', contestId)
    .where('status', '=', 'frozen')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('contest_entries')
            .select('contest_entries.bot_id')
            .whereRef('contest_entries.contest_id', '=', 'contests.id')
            .where('contest_entries.frozen', 'is', null),
        ),
      ),
    )
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Store.finishContest: running → done with the published results; false when it was not running. */
export async function finishContest(db: Db, clock: () => Date, contestId: string, results: unknown): Promise<boolean> {
  if (!lookupable(contestId)) return false;
  const r = await db
    .updateTable('contests')
    .set({ status: 'done', finished_at: isoNow(clock), results: json('results', results) })
    .where('id', '=', contestId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Store.createContestMatch: see there. */
export async function createContestMatch(
  db: Db,
  clock: () => Date,
  contestId: string,
  key: string,
  position: number,
  m: NewMatchRow,
  replacing?: string,
): Promise<{ match: MatchRow; created: boolean }> {
  if (!lookupable(contestId)) throw new NotFoundError(`no contest ${JSON.stringify(contestId)}`);
  const k = lineText('key', key, 200);
  if (!Number.isInteger(position) || position < 0 || position > Number.MAX_SAFE_INTEGER)
    throw new InvalidInputError(`position: expected an integer from 0, got ${JSON.stringify(position)}`);
  if (m.kind !== 'contest') throw new InvalidInputError(`kind: a contest's match is of kind "contest", got ${JSON.stringify(m.kind)}`);
  const existing = async (trx: Db) => {
    const had = await trx.selectFrom('contest_matches').select('match_id').where('contest_id', '=', contestId).where('key', '=', k).executeTakeFirst();
    if (!had) return null;
    const row = await trx.selectFrom('matches').selectAll().where('id', '=', had.match_id).executeTakeFirstOrThrow();
    const seats = await trx.selectFrom('match_seats').selectAll().where('match_id', '=', row.id).orderBy('slot').execute();
    return matchFromRow(row, seats.map(seatFromRow));
  };
  try {
    return await db.transaction().execute(async (trx) => {
      await holdIn(trx, contestId, 'running', (c) => `contest ${c.id} is ${c.status}: its final's matches are created while it runs`);
      const had = await existing(trx);
      // Played again: the key's aborted match gives its place to the new one (only that match, only aborted).
      if (had && replacing !== undefined && had.id === replacing && had.status === 'aborted') {
        const match = await insertMatch(trx, clock, m);
        await trx
          .updateTable('contest_matches')
          .set({ match_id: match.id })
          .where('contest_id', '=', contestId)
          .where('key', '=', k)
          .where('match_id', '=', replacing)
          .execute();
        return { match, created: true };
      }
      if (had) return { match: had, created: false };
      const match = await insertMatch(trx, clock, m);
      await trx.insertInto('contest_matches').values({ contest_id: contestId, key: k, position, match_id: match.id }).execute();
      return { match, created: true };
    });
  } catch (err) {
    // Two planners at once: the other's insert won (its transaction held the key first); that match is the one.
    if (brokenConstraint(err) !== 'unique') throw err;
    const had = await existing(db);
    if (!had) throw new ConflictError(`contest ${contestId}: match ${k} could not be created (a match with its id exists already)`, { cause: err });
    return { match: had, created: false };
  }
}

/** Store.contestMatches: the final's matches in the plan's order, with their seats and results. */
export async function contestMatches(db: Db, contestId: string): Promise<ContestMatchRow[]> {
  if (!lookupable(contestId)) return [];
  const rows = await db
    .selectFrom('contest_matches')
    .innerJoin('matches', 'matches.id', 'contest_matches.match_id')
    .selectAll('matches')
    .select(['contest_matches.key as contest_key', 'contest_matches.position as contest_position'])
    .where('contest_matches.contest_id', '=', contestId)
    .orderBy('contest_matches.position')
    .orderBy('contest_matches.key')
    .execute();
  const seatRows = await db
    .selectFrom('match_seats')
    .innerJoin('contest_matches', 'contest_matches.match_id', 'match_seats.match_id')
    .selectAll('match_seats')
    .where('contest_matches.contest_id', '=', contestId)
    .orderBy('match_seats.match_id')
    .orderBy('match_seats.slot')
    .execute();
  const seats = new Map<string, MatchSeatsTable[]>();
  for (const s of seatRows) (seats.get(s.match_id) ?? seats.set(s.match_id, []).get(s.match_id)!).push(s);
  return rows.map(({ contest_key, contest_position, ...m }) => ({
    key: contest_key,
    position: Number(contest_position),
    match: matchFromRow(m, (seats.get(m.id) ?? []).map(seatFromRow)),
  }));
}

/** Store.contestMatchCounts: the final's matches by status. */
export async function contestMatchCounts(db: Db, contestId: string): Promise<Record<MatchStatus, number>> {
  const out: Record<MatchStatus, number> = { queued: 0, running: 0, finished: 0, aborted: 0 };
  if (!lookupable(contestId)) return out;
  const rows = await db
    .selectFrom('contest_matches')
    .innerJoin('matches', 'matches.id', 'contest_matches.match_id')
    .select((eb) => ['matches.status', eb.fn.countAll<number | string>().as('n')])
    .where('contest_matches.contest_id', '=', contestId)
    .groupBy('matches.status')
    .execute();
  for (const r of rows) if (r.status in out) out[r.status as MatchStatus] = Number(r.n);
  return out;
}
