import type { Kysely } from 'kysely';
import * as bots from './bots.js';
import * as contests from './contests.js';
import { finishMatch } from './finish.js';
import * as matches from './matches.js';
import type { Dialect } from './migrations.js';
import * as ratings from './ratings.js';
import * as versions from './versions.js';
import { isoNow } from './rows.js';
import type { Database } from './schema.js';
import type {
  ArenaPolicy,
  BotPatch,
  BotStatus,
  BuiltinBot,
  ContestStatus,
  NewContestRow,
  MatchFilter,
  MatchFinish,
  NewBotRow,
  NewBotVersion,
  NewMatchRow,
  RatingSystem,
  Store,
} from './store.js';

/**
 * The store on a Kysely database: the same queries on SQLite and on Postgres (`openStore` picks the dialect
 * and migrates). Each method is one of the small functions in bots.ts, matches.ts, finish.ts and ratings.ts.
 */
export class KyselyStore implements Store {
  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect,
    private readonly label: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  describe(): string {
    return this.label;
  }

  createBot(bot: NewBotRow) {
    return bots.createBot(this.db, this.clock, bot);
  }
  getBot(id: string) {
    return bots.getBot(this.db, id);
  }
  getBotByName(game: string, name: string) {
    return bots.getBotByName(this.db, game, name);
  }
  listBots(filter?: { game?: string; status?: BotStatus; limit?: number }) {
    return bots.listBots(this.db, filter);
  }
  updateBot(id: string, patch: BotPatch) {
    return bots.updateBot(this.db, this.clock, id, patch);
  }
  deleteBot(id: string) {
    return bots.deleteBot(this.db, this.clock, id);
  }
  ensureBuiltinBots(list: readonly BuiltinBot[]) {
    return bots.ensureBuiltinBots(this.db, this.clock, list);
  }

  addBotVersion(botId: string, version: NewBotVersion) {
    return versions.addBotVersion(this.db, this.clock, botId, version);
  }
  listBotVersions(botId: string) {
    return versions.listBotVersions(this.db, botId);
  }
  getBotVersion(botId: string, version: number) {
    return versions.getBotVersion(this.db, botId, version);
  }
  refuseBotVersion(botId: string, version: number, report: string) {
    return versions.refuseBotVersion(this.db, botId, version, report);
  }
  activateBotVersion(botId: string, version: number, report: string | null, opts?: { restartRatings?: boolean }) {
    return versions.activateBotVersion(this.db, this.clock, botId, version, report, opts);
  }
  checkingVersions(limit?: number) {
    return versions.checkingVersions(this.db, limit);
  }
  versionCode(sha256: string) {
    return versions.versionCode(this.db, sha256);
  }

  createMatch(match: NewMatchRow) {
    return matches.createMatch(this.db, this.clock, match);
  }
  startMatch(id: string, worker?: string) {
    return matches.startMatch(this.db, this.clock, id, worker);
  }
  claimMatch(id: string, worker: string, aliveMs?: number) {
    return matches.claimMatch(this.db, this.clock, id, worker, aliveMs);
  }
  beatMatch(id: string, attempt: number, aliveMs: number) {
    return matches.beatMatch(this.db, this.clock, id, attempt, aliveMs);
  }
  liveAttempt(id: string) {
    return matches.liveAttempt(this.db, this.clock, id);
  }
  releaseMatch(id: string, worker: string) {
    return matches.releaseMatch(this.db, id, worker);
  }
  activeMatchCounts() {
    return matches.activeMatchCounts(this.db);
  }
  finishMatch(id: string, finish: MatchFinish) {
    return finishMatch(this.db, this.dialect, () => isoNow(this.clock), id, finish);
  }
  async abortMatch(id: string, reason: string, attempt?: number) {
    return (await matches.abortMatches(this.db, this.clock, reason, { id, statuses: ['queued', 'running'], attempt })).length > 0;
  }
  abortRunning(reason: string, opts: { queued?: boolean } = {}) {
    return matches.abortMatches(this.db, this.clock, reason, { statuses: opts.queued ? ['queued', 'running'] : ['running'] });
  }
  getMatch(id: string) {
    return matches.getMatch(this.db, id);
  }
  listMatches(query: MatchFilter & { limit?: number; cursor?: string | null }) {
    return matches.listMatches(this.db, query);
  }
  countMatches(filter?: MatchFilter) {
    return matches.countMatches(this.db, filter);
  }
  getReplay(id: string) {
    return matches.getReplay(this.db, id);
  }
  getLogs(id: string, slot: number) {
    return matches.getLogs(this.db, id, slot);
  }
  recentOutcomes(botId: string, limit: number) {
    return matches.recentOutcomes(this.db, botId, limit);
  }
  recentMatchCounts(game: string, since: number | Date) {
    return matches.recentMatchCounts(this.db, game, since);
  }

  leaderboard(game: string, system: RatingSystem, limit?: number) {
    return ratings.leaderboard(this.db, game, system, limit);
  }
  ratingsFor(game: string, system: RatingSystem) {
    return ratings.ratingsFor(this.db, game, system);
  }
  ratingsOf(botId: string) {
    return ratings.ratingsOf(this.db, botId);
  }
  ratingHistory(botId: string, system: RatingSystem, limit?: number) {
    return ratings.ratingHistory(this.db, botId, system, limit);
  }
  headToHead(botId: string) {
    return ratings.headToHead(this.db, botId);
  }

  createContest(contest: NewContestRow) {
    return contests.createContest(this.db, this.clock, contest);
  }
  getContest(id: string) {
    return contests.getContest(this.db, id);
  }
  listContests(filter?: { game?: string; status?: ContestStatus; limit?: number }) {
    return contests.listContests(this.db, filter);
  }
  enterContest(contestId: string, botId: string) {
    return contests.enterContest(this.db, this.clock, contestId, botId);
  }
  contestEntries(contestId: string) {
    return contests.contestEntries(this.db, contestId);
  }
  closeEntries(contestId: string) {
    return contests.closeEntries(this.db, this.clock, contestId);
  }
  freezeEntry(contestId: string, botId: string, frozen: unknown, place: number) {
    return contests.freezeEntry(this.db, contestId, botId, frozen, place);
  }
  startContest(contestId: string) {
    return contests.startContest(this.db, this.clock, contestId);
  }
  finishContest(contestId: string, results: unknown) {
    return contests.finishContest(this.db, this.clock, contestId, results);
  }
  createContestMatch(contestId: string, key: string, position: number, match: NewMatchRow, replacing?: string) {
    return contests.createContestMatch(this.db, this.clock, contestId, key, position, match, replacing);
  }
  contestMatches(contestId: string) {
    return contests.contestMatches(this.db, contestId);
  }
  contestMatchCounts(contestId: string) {
    return contests.contestMatchCounts(this.db, contestId);
  }

  private arena: string | null = null;
  async arenaId(): Promise<string> {
    this.arena ??= (await this.db.selectFrom('arena').select('id').orderBy('created_at').executeTakeFirstOrThrow()).id;
    return this.arena;
  }

  async arenaPolicy(): Promise<ArenaPolicy | null> {
    const row = await this.db
      .selectFrom('arena')
      .select('policy')
      .where('id', '=', await this.arenaId())
      .executeTakeFirst();
    return row?.policy ? (JSON.parse(row.policy) as ArenaPolicy) : null;
  }
  async setArenaPolicy(policy: ArenaPolicy): Promise<void> {
    await this.db
      .updateTable('arena')
      .set({ policy: JSON.stringify(policy) })
      .where('id', '=', await this.arenaId())
      .execute();
  }

  private closing: Promise<void> | null = null;
  close(): Promise<void> {
    this.closing ??= this.db.destroy();
    return this.closing;
  }
}
