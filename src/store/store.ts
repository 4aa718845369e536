// The store port: what an arena server keeps (bots, matches, replays, owners' logs, ratings) behind one
// interface. One implementation (`KyselyStore`) runs on SQLite by default and on Postgres when the URL says
// so; `contract.kit.ts` is the behaviour both must have. JSON columns (configs, jobs, results, doctor reports)
// and blobs (replays, logs) are stored as given: their size is the caller's business (the server caps what it
// accepts and what a match may log); the texts a person types are checked against `LIMITS`. The types it
// speaks are in records.ts (exported from here too).
import type {
  ArenaPolicy,
  BotPatch,
  BotRow,
  BotStatus,
  BotVersionRow,
  BuiltinBot,
  Claim,
  ContestEntryRow,
  ContestMatchRow,
  ContestRow,
  ContestStatus,
  MatchStatus,
  NewContestRow,
  HeadToHeadRow,
  LeaderboardRow,
  LiveAttempt,
  MatchFilter,
  MatchFinish,
  MatchPage,
  MatchRow,
  NewBotRow,
  NewBotVersion,
  NewMatchRow,
  RatingHistoryRow,
  RatingRow,
  RatingSystem,
  RecentOutcome,
} from './records.js';

export * from './records.js';

export interface Store {
  /** what this store is, for logs: "SQLite /path/file" or "Postgres postgres://user@host:port/db" */
  describe(): string;

  // ——— bots ———
  /** Registers a bot (id: a random UUID). ConflictError when its game has a bot of that name already. */
  createBot(bot: NewBotRow): Promise<BotRow>;
  /** A bot by id, deleted ones included; null when there is none. */
  getBot(id: string): Promise<BotRow | null>;
  /** The bot of a game that has this name now (deleted bots' names are free again). */
  getBotByName(game: string, name: string): Promise<BotRow | null>;
  /** Bots by game and status, by game then name; deleted bots only when `status: 'deleted'` asks for them. */
  listBots(filter?: { game?: string; status?: BotStatus; limit?: number }): Promise<BotRow[]>;
  /** Edits a bot: NotFoundError when there is none or it was deleted, ConflictError for a taken name. */
  updateBot(id: string, patch: BotPatch): Promise<BotRow>;
  /** Deletes a bot (kept, status 'deleted': its matches and ratings stay); false when there was none to delete. */
  deleteBot(id: string): Promise<boolean>;
  /**
   * Registers the built-in bots (active, no token), or brings their endpoint and description up to date;
   * idempotent. A built-in the admin deleted stays deleted; a name a registered bot holds is left to it and
   * reported in `conflicts`.
   */
  ensureBuiltinBots(bots: readonly BuiltinBot[]): Promise<{ bots: BotRow[]; conflicts: string[] }>;

  // ——— uploaded code (bot versions) ———
  /** Adds a version of a bot's code (numbered after its last one), state 'checking'. NotFoundError for no bot. */
  addBotVersion(botId: string, version: NewBotVersion): Promise<BotVersionRow>;
  /** A bot's versions, newest first (without their bytes). */
  listBotVersions(botId: string): Promise<BotVersionRow[]>;
  getBotVersion(botId: string, version: number): Promise<BotVersionRow | null>;
  /** A version that did not pass: state 'refused' with its report; the bot's active version stays. */
  refuseBotVersion(botId: string, version: number, report: string): Promise<void>;
  /**
   * In one transaction: the version becomes 'active' (with its report) and the bot's active version, and the
   * bot's endpoint becomes the version's spec. False when the bot was deleted meanwhile. With `restartRatings`,
   * a bot that had another version active loses its ratings (every system, its game): it is rated anew from its
   * next rated match, from the starting rating; its history and results stay.
   */
  activateBotVersion(botId: string, version: number, report: string | null, opts?: { restartRatings?: boolean }): Promise<boolean>;
  /** Versions still 'checking' (their check was cut off: a server stopped mid-check), oldest first, at most `limit`. */
  checkingVersions(limit?: number): Promise<BotVersionRow[]>;
  /** The canonical bytes kept for a sha256 (any bot's version with it), or null. */
  versionCode(sha256: string): Promise<Buffer | null>;

  // ——— matches ———
  /** Queues a match. */
  createMatch(match: NewMatchRow): Promise<MatchRow>;
  /** queued → running (tries + 1, by `worker`); false when it was not queued (another worker has it, or it ended). */
  startMatch(id: string, worker?: string): Promise<boolean>;
  /**
   * queued or running → running, tries + 1, by `worker`: a worker taking a match up, again when one before it
   * died mid-match (it is replayed from the start). Returns the tries so far, counting this one; null when the
   * match has ended (finished or aborted) or does not exist. The tries are this attempt's token (fencing):
   * its finish, abort and heartbeats carry it. With `aliveMs`, the attempt's heartbeat is alive that long
   * (renewed by `beatMatch`), and while it is, another claim gets `{ held }` and changes nothing.
   */
  claimMatch(id: string, worker: string, aliveMs?: number): Promise<Claim>;
  /** The attempt `attempt` of a running match is alive `aliveMs` more; false when another attempt holds it, or it ended. */
  beatMatch(id: string, attempt: number, aliveMs: number): Promise<boolean>;
  /** The attempt playing a running match, while its heartbeat lives; null otherwise. */
  liveAttempt(id: string): Promise<LiveAttempt | null>;
  /**
   * running by `worker` → queued, no worker: a stopping worker handed the match back to the queue, and the next
   * claim starts it at once. Its tries stay (they count every start). False when `worker` does not hold it
   * (another took it over) or it ended.
   */
  releaseMatch(id: string, worker: string): Promise<boolean>;
  /**
   * Records a finished match in ONE transaction: result, seats, replay, logs, rating changes (ratings and
   * their history) and pair records, status 'finished'. A match that is not queued or running (finished or
   * aborted already) changes nothing: false. Whatever fails inside leaves nothing of it stored.
   */
  finishMatch(id: string, finish: MatchFinish): Promise<boolean>;
  /** queued or running → aborted with a reason; false otherwise (and when `attempt` is given and another attempt holds it). */
  abortMatch(id: string, reason: string, attempt?: number): Promise<boolean>;
  /** Marks every running match (and queued ones when asked) aborted; their ids (a restart after kill -9). */
  abortRunning(reason: string, opts?: { queued?: boolean }): Promise<string[]>;
  getMatch(id: string): Promise<MatchRow | null>;
  /** Matches newest first, `limit` (default 20, at most LIMITS.matchPage) a page, from `cursor` on. */
  listMatches(query: MatchFilter & { limit?: number; cursor?: string | null }): Promise<MatchPage>;
  countMatches(filter?: MatchFilter): Promise<number>;
  /** A finished match's gzipped replay. */
  getReplay(id: string): Promise<Buffer | null>;
  /** One seat's gzipped message log. */
  getLogs(id: string, slot: number): Promise<Buffer | null>;
  /** A bot's last `limit` finished rated matches, newest first, with its fault in each. */
  recentOutcomes(botId: string, limit: number): Promise<RecentOutcome[]>;
  /** Per bot: ladder matches of a game created since `since` (epoch ms or a Date), any status. */
  recentMatchCounts(game: string, since: number | Date): Promise<Map<string, number>>;
  /** Per bot: its matches queued or running now, of every game and kind (the ladder keeps each within its capacity). */
  activeMatchCounts(): Promise<Map<string, number>>;

  // ——— ratings ———
  /** A game's table in one system, best first (bots not deleted), at most `limit` rows (LIMITS.rows). */
  leaderboard(game: string, system: RatingSystem, limit?: number): Promise<LeaderboardRow[]>;
  /** Every kept rating of a game in one system (to restore an EloLadder or SkillLadder at start-up). */
  ratingsFor(game: string, system: RatingSystem): Promise<RatingRow[]>;
  /** A bot's kept ratings (one row per system it was rated in). */
  ratingsOf(botId: string): Promise<RatingRow[]>;
  /** A bot's rating changes in one system, oldest first (the last `limit`, LIMITS.rows at most). */
  ratingHistory(botId: string, system: RatingSystem, limit?: number): Promise<RatingHistoryRow[]>;
  /** A bot's records against each opponent it met, most games first. */
  headToHead(botId: string): Promise<HeadToHeadRow[]>;

  // ——— contests (issue 38) ———
  /** A contest, taking entries (status 'entry'). ConflictError for an id taken. */
  createContest(contest: NewContestRow): Promise<ContestRow>;
  getContest(id: string): Promise<ContestRow | null>;
  /** Contests newest first, by game and status. */
  listContests(filter?: { game?: string; status?: ContestStatus; limit?: number }): Promise<ContestRow[]>;
  /**
   * A bot enters a contest of its game: NotFoundError for no contest or bot, ConflictError when it entered
   * already or the contest takes no more entries (frozen or later: an entry never slips in beside the freeze).
   */
  enterContest(contestId: string, botId: string): Promise<ContestEntryRow>;
  /** The entrants, in seeding order once frozen, else in the order they entered. */
  contestEntries(contestId: string): Promise<ContestEntryRow[]>;
  /** entry → frozen (no more entries); false when it was not taking entries. */
  closeEntries(contestId: string): Promise<boolean>;
  /** An entrant's frozen version and seeding place, written once: false when it had them already (or is no entrant). */
  freezeEntry(contestId: string, botId: string, frozen: unknown, place: number): Promise<boolean>;
  /** frozen → running, once every entrant has its frozen version; false otherwise. */
  startContest(contestId: string): Promise<boolean>;
  /** running → done, with the published results; false when it was not running. */
  finishContest(contestId: string, results: unknown): Promise<boolean>;
  /**
   * A match of a running contest's final (kind 'contest', never rated), written with its plan key in one
   * transaction: the key is unique in its contest, so a key created before (by this planner before a crash, or
   * another at once) gives that match back, `created: false`. ConflictError when the contest is not running.
   * `replacing`: the id of the key's aborted match this one replaces (the final plays it again): the key then
   * points at the new match, once; when the key holds another match by then, that one is given back.
   */
  createContestMatch(contestId: string, key: string, position: number, match: NewMatchRow, replacing?: string): Promise<{ match: MatchRow; created: boolean }>;
  /** The final's matches in the plan's order, with their seats and results. */
  contestMatches(contestId: string): Promise<ContestMatchRow[]>;
  /** The final's matches by status. */
  contestMatchCounts(contestId: string): Promise<Record<MatchStatus, number>>;

  /** The arena's identity: made once, by the first process that opened the empty store, and kept. */
  arenaId(): Promise<string>;
  /** The arena's policy as its server last wrote it, or null when no server has started on this store. */
  arenaPolicy(): Promise<ArenaPolicy | null>;
  /** Writes the arena's policy (the server, at each start). */
  setArenaPolicy(policy: ArenaPolicy): Promise<void>;

  /** Closes the database (waits for queries under way). */
  close(): Promise<void>;
}
