import type { Kysely } from 'kysely';
import { NotFoundError } from './errors.js';
import { lookupable } from './bots.js';
import { isoNow, lineText, oneOf } from './rows.js';
import type { BotVersionsTable, Database } from './schema.js';
import { LIMITS, type BotVersionRow, type NewBotVersion, type VersionState } from './store.js';

// The bot_versions table: each upload of a bot's code, its check's state, and which one plays.

type Db = Kysely<Database>;

const SHA256 = /^[0-9a-f]{64}$/;

function versionFromRow(r: Omit<BotVersionsTable, 'code'>): BotVersionRow {
  return {
    botId: r.bot_id,
    version: Number(r.version),
    sha256: r.sha256,
    size: Number(r.size),
    expanded: Number(r.expanded),
    language: r.language,
    spec: r.spec,
    state: r.state as VersionState,
    report: r.report,
    createdAt: r.created_at,
  };
}

const COLUMNS = ['bot_id', 'version', 'sha256', 'size', 'expanded', 'language', 'spec', 'state', 'report', 'created_at'] as const;

/** Store.addBotVersion: numbered after the bot's last version, in one transaction (two uploads at once get two numbers). */
export async function addBotVersion(db: Db, clock: () => Date, botId: string, v: NewBotVersion): Promise<BotVersionRow> {
  if (!SHA256.test(v.sha256)) throw new NotFoundError(`sha256 ${JSON.stringify(v.sha256)} is not 64 hex digits`);
  const spec = lineText('spec', v.spec, LIMITS.endpoint);
  const language = lineText('language', v.language, LIMITS.name);
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (tx) => {
        const bot = await tx
          .selectFrom('bots')
          .select(['id', 'status'])
          .where('id', '=', lookupable(botId) ? botId : '')
          .executeTakeFirst();
        if (!bot || bot.status === 'deleted') throw new NotFoundError(`no bot ${botId}`);
        const last = await tx
          .selectFrom('bot_versions')
          .select((eb) => eb.fn.max('version').as('n'))
          .where('bot_id', '=', botId)
          .executeTakeFirst();
        const row: BotVersionsTable = {
          bot_id: botId,
          version: Number(last?.n ?? 0) + 1,
          sha256: v.sha256,
          size: v.code.length,
          expanded: v.expanded,
          code: Buffer.from(v.code),
          language,
          spec,
          state: 'checking',
          report: null,
          created_at: isoNow(clock),
        };
        await tx.insertInto('bot_versions').values(row).execute();
        const { code: _code, ...rest } = row;
        return versionFromRow(rest);
      });
    } catch (err) {
      // Two uploads numbering at once: the second's insert breaks the primary key; it numbers again.
      if (err instanceof NotFoundError || attempt >= 3) throw err;
    }
  }
}

/** Store.listBotVersions: newest first. */
export async function listBotVersions(db: Db, botId: string): Promise<BotVersionRow[]> {
  if (!lookupable(botId)) return [];
  const rows = await db.selectFrom('bot_versions').select(COLUMNS).where('bot_id', '=', botId).orderBy('version', 'desc').limit(LIMITS.rows).execute();
  return rows.map(versionFromRow);
}

/** Store.getBotVersion. */
export async function getBotVersion(db: Db, botId: string, version: number): Promise<BotVersionRow | null> {
  if (!lookupable(botId) || !Number.isSafeInteger(version)) return null;
  const row = await db.selectFrom('bot_versions').select(COLUMNS).where('bot_id', '=', botId).where('version', '=', version).executeTakeFirst();
  return row ? versionFromRow(row) : null;
}

/** Store.refuseBotVersion. */
export async function refuseBotVersion(db: Db, botId: string, version: number, report: string): Promise<void> {
  await db
    .updateTable('bot_versions')
    .set({ state: oneOf<VersionState>('state', 'refused', ['refused']), report })
    .where('bot_id', '=', botId)
    .where('version', '=', version)
    .execute();
}

/** Store.activateBotVersion: the version, the bot's active version and its endpoint (and its ratings restarted, when asked), in one transaction. */
export async function activateBotVersion(
  db: Db,
  clock: () => Date,
  botId: string,
  version: number,
  report: string | null,
  opts: { restartRatings?: boolean } = {},
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const v = await tx.selectFrom('bot_versions').select(['spec']).where('bot_id', '=', botId).where('version', '=', version).executeTakeFirst();
    if (!v) throw new NotFoundError(`bot ${botId} has no version ${version}`);
    const before = await tx.selectFrom('bots').select(['active_version']).where('id', '=', botId).executeTakeFirst();
    const replaced = before?.active_version !== null && before?.active_version !== undefined && Number(before.active_version) !== version;
    if (opts.restartRatings && replaced) await tx.deleteFrom('ratings').where('bot_id', '=', botId).execute();
    const r = await tx
      .updateTable('bots')
      .set({ active_version: version, endpoint: v.spec, updated_at: isoNow(clock) })
      .where('id', '=', botId)
      .where('status', '<>', 'deleted')
      .executeTakeFirst();
    if (r.numUpdatedRows === 0n) return false;
    await tx.updateTable('bot_versions').set({ state: 'active', report }).where('bot_id', '=', botId).where('version', '=', version).execute();
    return true;
  });
}

/** Store.checkingVersions: oldest first (their bots not deleted). */
export async function checkingVersions(db: Db, limit?: number): Promise<BotVersionRow[]> {
  const rows = await db
    .selectFrom('bot_versions')
    .innerJoin('bots', 'bots.id', 'bot_versions.bot_id')
    .select(COLUMNS.map((c) => `bot_versions.${c}` as const))
    .where('bot_versions.state', '=', 'checking')
    .where('bots.status', '<>', 'deleted')
    .orderBy('bot_versions.created_at')
    .orderBy('bot_versions.bot_id')
    .orderBy('bot_versions.version')
    .limit(Math.max(1, Math.min(limit ?? 1000, LIMITS.rows)))
    .execute();
  return rows.map(versionFromRow);
}

/** Store.versionCode: the bytes of any version with this sha256. */
export async function versionCode(db: Db, sha256: string): Promise<Buffer | null> {
  if (!SHA256.test(sha256)) return null;
  const row = await db.selectFrom('bot_versions').select('code').where('sha256', '=', sha256).limit(1).executeTakeFirst();
  return row ? Buffer.from(row.code) : null;
}
