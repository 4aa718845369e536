import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { brokenConstraint, ConflictError, NotFoundError } from './errors.js';
import { botFromRow, botStatus, int, isoNow, limitOf, lineText, nameText, oneOf, reasonText, text } from './rows.js';
import type { BotsTable, Database } from './schema.js';
import { LIMITS, type BotPatch, type BotRow, type BotStatus, type BuiltinBot, type NewBotRow } from './store.js';

// The bots table: registering, reading, editing, soft deletion, the built-in bots.

type Db = Kysely<Database>;

/** Whether a value can be an id or name at all: anything else has no row (and never reaches the database). */
export const lookupable = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 256 && !v.includes('\0');

const HASH_MAX = 1024;
const CAPACITY_MAX = 1000;

/** The ConflictError for a name its game has, when `err` is that; `err` itself otherwise. */
function nameTaken(err: unknown, game: string, name: string): unknown {
  return brokenConstraint(err) === 'unique' ? new ConflictError(`the ${game} bot name "${name}" is taken: choose another name`, { cause: err }) : err;
}

/** Store.createBot: a new bot (checked texts, a random UUID), ConflictError for a taken name. */
export async function createBot(db: Db, clock: () => Date, bot: NewBotRow): Promise<BotRow> {
  const now = isoNow(clock);
  const row: BotsTable = {
    id: randomUUID(),
    game: nameText('game', bot.game),
    name: nameText('name', bot.name),
    endpoint: lineText('endpoint', bot.endpoint, LIMITS.endpoint),
    builtin: bot.builtin ? 1 : 0,
    description: text('description', bot.description ?? '', LIMITS.description),
    owner_contact: text('ownerContact', bot.ownerContact ?? '', LIMITS.ownerContact),
    token_hash: bot.tokenHash === undefined || bot.tokenHash === null ? null : text('tokenHash', bot.tokenHash, HASH_MAX),
    status: oneOf<BotStatus>('status', bot.status ?? 'checking', ['checking', 'active', 'away', 'paused']),
    status_reason: reasonText(bot.statusReason),
    doctor_report: null,
    capacity: int('capacity', bot.capacity ?? 1, 1, CAPACITY_MAX),
    created_at: now,
    updated_at: now,
  };
  try {
    await db.insertInto('bots').values(row).execute();
  } catch (err) {
    throw nameTaken(err, row.game, row.name);
  }
  return botFromRow(row);
}

/** Store.getBot: a bot by id, deleted ones included. */
export async function getBot(db: Db, id: string): Promise<BotRow | null> {
  if (!lookupable(id)) return null;
  const row = await db.selectFrom('bots').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? botFromRow(row) : null;
}

/** Store.getBotByName: the game's bot of that name that is not deleted. */
export async function getBotByName(db: Db, game: string, name: string): Promise<BotRow | null> {
  if (!lookupable(game) || !lookupable(name)) return null;
  const row = await db.selectFrom('bots').selectAll().where('game', '=', game).where('name', '=', name).where('status', '<>', 'deleted').executeTakeFirst();
  return row ? botFromRow(row) : null;
}

/** Store.listBots: bots by game and status, deleted ones only when asked for. */
export async function listBots(db: Db, filter: { game?: string; status?: BotStatus; limit?: number } = {}): Promise<BotRow[]> {
  let q = db.selectFrom('bots').selectAll();
  if (filter.game !== undefined) {
    if (!lookupable(filter.game)) return [];
    q = q.where('game', '=', filter.game);
  }
  q = filter.status !== undefined ? q.where('status', '=', botStatus(filter.status)) : q.where('status', '<>', 'deleted');
  const rows = await q
    .orderBy('game')
    .orderBy('name')
    .orderBy('id')
    .limit(limitOf(filter.limit, LIMITS.rows, LIMITS.rows))
    .execute();
  return rows.map(botFromRow);
}

/** Store.updateBot: the fields a patch gives, checked; NotFoundError for no bot or a deleted one. */
export async function updateBot(db: Db, clock: () => Date, id: string, patch: BotPatch): Promise<BotRow> {
  const set: Partial<BotsTable> = { updated_at: isoNow(clock) };
  if (patch.name !== undefined) set.name = nameText('name', patch.name);
  if (patch.endpoint !== undefined) set.endpoint = lineText('endpoint', patch.endpoint, LIMITS.endpoint);
  if (patch.description !== undefined) set.description = text('description', patch.description, LIMITS.description);
  if (patch.ownerContact !== undefined) set.owner_contact = text('ownerContact', patch.ownerContact, LIMITS.ownerContact);
  if (patch.tokenHash !== undefined) set.token_hash = patch.tokenHash === null ? null : text('tokenHash', patch.tokenHash, HASH_MAX);
  if (patch.status !== undefined) set.status = botStatus(patch.status);
  if (patch.statusReason !== undefined) set.status_reason = reasonText(patch.statusReason);
  // The doctor report is JSON the arena wrote: its size is the caller's business (see store.ts).
  if (patch.doctorReport !== undefined)
    set.doctor_report = patch.doctorReport === null ? null : text('doctorReport', patch.doctorReport, Number.MAX_SAFE_INTEGER);
  if (patch.capacity !== undefined) set.capacity = int('capacity', patch.capacity, 1, CAPACITY_MAX);
  if (!lookupable(id)) throw new NotFoundError(`no bot ${JSON.stringify(id)}`);
  let row: BotsTable | undefined;
  try {
    row = await db.updateTable('bots').set(set).where('id', '=', id).where('status', '<>', 'deleted').returningAll().executeTakeFirst();
  } catch (err) {
    const game = (await getBot(db, id))?.game ?? 'game';
    throw nameTaken(err, game, set.name ?? '');
  }
  if (!row) throw new NotFoundError((await getBot(db, id)) ? `bot ${id} was deleted: a deleted bot is not edited` : `no bot ${id}`);
  return botFromRow(row);
}

/** Store.deleteBot: status 'deleted', the row kept. */
export async function deleteBot(db: Db, clock: () => Date, id: string): Promise<boolean> {
  if (!lookupable(id)) return false;
  const r = await db
    .updateTable('bots')
    .set({ status: 'deleted', updated_at: isoNow(clock) })
    .where('id', '=', id)
    .where('status', '<>', 'deleted')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Store.ensureBuiltinBots: the built-in bots registered once and kept up to date. */
export async function ensureBuiltinBots(db: Db, clock: () => Date, bots: readonly BuiltinBot[]): Promise<{ bots: BotRow[]; conflicts: string[] }> {
  const out: BotRow[] = [];
  const conflicts: string[] = [];
  for (const b of bots) {
    const game = nameText('game', b.game);
    const name = nameText('name', b.name);
    const endpoint = lineText('endpoint', b.endpoint, LIMITS.endpoint);
    const description = text('description', b.description ?? '', LIMITS.description);
    const now = isoNow(clock);
    // Inserted unless a bot not deleted has the name (that bot is then looked at below); several servers
    // starting at once insert it once.
    const deletedBuiltin = await db
      .selectFrom('bots')
      .select('id')
      .where('game', '=', game)
      .where('name', '=', name)
      .where('builtin', '=', 1)
      .where('status', '=', 'deleted')
      .executeTakeFirst();
    if (deletedBuiltin) continue;
    await db
      .insertInto('bots')
      .values({
        id: randomUUID(),
        game,
        name,
        endpoint,
        builtin: 1,
        description,
        owner_contact: '',
        token_hash: null,
        status: 'active',
        status_reason: null,
        doctor_report: null,
        capacity: CAPACITY_MAX,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const current = await getBotByName(db, game, name);
    if (!current) continue;
    if (!current.builtin) {
      conflicts.push(`the ${game} bot "${name}" is a registered bot, so the built-in bot of that name is not registered`);
      continue;
    }
    if (current.endpoint !== endpoint || current.description !== description) {
      out.push(await updateBot(db, clock, current.id, { endpoint, description }));
    } else out.push(current);
  }
  return { bots: out, conflicts };
}
