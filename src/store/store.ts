// Why this file stays whole (about 470 lines): the store port is one interface with the row types it speaks, so
// its contract reads in one place.
import type { ResultLine } from '../core/replay.js';

// The store port: what an arena server keeps (bots, matches, replays, owners' logs, ratings) behind one
// interface. One implementation (`KyselyStore`) runs on SQLite by default and on Postgres when the URL says
// so; `contract.kit.ts` is the behaviour both must have. JSON columns (configs, jobs, results, doctor reports)
// and blobs (replays, logs) are stored as given: their size is the caller's business (the server caps what it
// accepts and what a match may log); the texts a person types are checked here against `LIMITS`.

export type BotStatus = 'checking' | 'active' | 'away' | 'paused' | 'deleted';
export type MatchKind = 'ladder' | 'challenge' | 'test';
export type MatchStatus = 'queued' | 'running' | 'finished' | 'aborted';
export type RatingSystem = 'elo' | 'openskill';

/** The most the store keeps of each text a person gives, and the most rows one call returns. */
export const LIMITS = {
  /** a bot's name, unique in its game among bots not deleted */
  name: 64,
  endpoint: 4096,
  description: 10_000,
  ownerContact: 1000,
  /** why a bot is paused, why a match was aborted: longer reasons are cut (they are written by the arena) */
  reason: 4000,
  /** a page of `listMatches` */
  matchPage: 100,
  /** `leaderboard`, `listBots`, `ratingHistory` */
  rows: 10_000,
  /** seats of one match */
  seats: 64,
} as const;

/** A bot as the store keeps it. Times are ISO 8601 strings (UTC, milliseconds). */
export interface BotRow {
  id: string;
  game: string;
  name: string;
  /** its bot spec: http(s)://…, http+form://…, stdio:…, exec:…, or a built-in bot's name */
  endpoint: string;
  builtin: boolean;
  description: string;
  ownerContact: string;
  /** the owner token's hash (made by the server); null for built-in bots */
  tokenHash: string | null;
  status: BotStatus;
  /** why it is paused or was refused, in words its owner reads */
  statusReason: string | null;
  /** the last doctor report, as JSON text */
  doctorReport: string | null;
  /** the most matches it plays at once */
  capacity: number;
  createdAt: string;
  updatedAt: string;
  /** the version of its uploaded code that plays; null for a bot that is a URL or a command (or none passed its check yet) */
  activeVersion: number | null;
}

export type VersionState = 'checking' | 'active' | 'refused';

/** One upload of a bot's code, without its bytes (`versionCode` reads them). */
export interface BotVersionRow {
  botId: string;
  /** 1, 2, … per bot */
  version: number;
  sha256: string;
  /** its canonical bytes' size */
  size: number;
  /** its files' size together */
  expanded: number;
  language: string;
  /** the bot spec its seats get (upload:LANGUAGE:SHA256 entry=… | run=…) */
  spec: string;
  /** checking until its check ends; active once it passed (the bot's activeVersion says which one plays); refused */
  state: VersionState;
  /** its check's report (JSON), or why it was refused */
  report: string | null;
  createdAt: string;
}

/** What an upload adds. */
export interface NewBotVersion {
  sha256: string;
  expanded: number;
  /** the canonical bytes */
  code: Uint8Array;
  language: string;
  spec: string;
}

/** What registering a bot gives. */
export interface NewBotRow {
  game: string;
  name: string;
  endpoint: string;
  builtin?: boolean;
  description?: string;
  ownerContact?: string;
  tokenHash?: string | null;
  status?: BotStatus;
  statusReason?: string | null;
  capacity?: number;
}

/** What editing a bot may change (absent fields stay as they are). */
export type BotPatch = Partial<
  Pick<BotRow, 'name' | 'endpoint' | 'description' | 'ownerContact' | 'tokenHash' | 'status' | 'statusReason' | 'doctorReport' | 'capacity'>
>;

/** A built-in bot the server registers at every start. */
export interface BuiltinBot {
  game: string;
  name: string;
  endpoint: string;
  description?: string;
}

/** A seat's fault, as the result line has it. */
export interface SeatFault {
  kind: string;
  detail: string;
  turn: number;
}

/** One seat of a match: who sat there and, once it has finished, how it ended for them. */
export interface MatchSeatRow {
  slot: number;
  /** the registered bot in this seat; null for a seat no registered bot holds (a person, a command) */
  botId: string | null;
  name: string;
  rank: number | null;
  score: number | null;
  fault: SeatFault | null;
}

/** A match as the store keeps it (without its replay and logs: `getReplay`, `getLogs`). */
export interface MatchRow {
  id: string;
  game: string;
  kind: MatchKind;
  rated: boolean;
  status: MatchStatus;
  /** 0 … 2³²−1 */
  seed: number;
  config: Record<string, unknown>;
  /** the whole match job, as given */
  job: unknown;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  result: ResultLine | null;
  abortReason: string | null;
  /** how many times a worker started it */
  tries: number;
  /** the worker (or server) that started it last, by the name it gave; null before it starts */
  worker: string | null;
  seats: MatchSeatRow[];
}

/** A seat when the match is created: a bot id (its name is the bot's), or a seat no registered bot holds. */
export type NewSeat = string | { botId: null; name: string };

/** What queueing a match gives. */
export interface NewMatchRow {
  /** default: a random UUID */
  id?: string;
  game: string;
  kind: MatchKind;
  rated: boolean;
  seed: number;
  config: Record<string, unknown>;
  job: unknown;
  seats: readonly NewSeat[];
}

/** A seat's outcome when the match finishes. */
export interface SeatResult {
  slot: number;
  botId: string | null;
  name: string;
  rank: number;
  score: number | null;
  fault: SeatFault | null;
}

/** A bot's rating row after a match (or as kept). */
export interface RatingValues {
  /** ELO value, or the OpenSkill ordinal μ − 3σ */
  rating: number;
  /** OpenSkill's μ and σ; null for ELO */
  mu: number | null;
  sigma: number | null;
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** One rating a finished match changes: the bot's rating before it and its row after it. */
export interface RatingChange {
  botId: string;
  system: RatingSystem;
  before: number;
  after: RatingValues;
}

/** What one match adds to a bot's record against one opponent (an ordered pair). */
export interface PairDelta {
  botId: string;
  opponentId: string;
  wins: number;
  draws: number;
  losses: number;
}

/** A bot's ratings in its game as kept before a match; absent for a system it was never rated in. */
export interface KeptRatings {
  elo?: { rating: number; games: number; wins: number; draws: number; losses: number };
  skill?: { mu: number; sigma: number; games: number; wins: number; draws: number; losses: number };
}

/** What a rating function returns (the shape of `rateFinishedMatch` in src/ladder/rating-update.ts). */
export interface RatingUpdate {
  elo: ReadonlyMap<string, { before: number; row: { rating: number; games: number; wins: number; draws: number; losses: number } }>;
  skill: ReadonlyMap<
    string,
    { before: number; row: { mu: number; sigma: number; ordinal: number; games: number; wins: number; draws: number; losses: number } }
  >;
  pairs: readonly PairDelta[];
}

/** Everything a finished match leaves, written in one transaction. */
export interface MatchFinish {
  result: ResultLine;
  seats: readonly SeatResult[];
  /** the replay, gzipped JSON */
  replayGz: Uint8Array;
  /** each seat's message log (its owner's), gzipped JSON */
  logs?: readonly { slot: number; gz: Uint8Array }[];
  /** rating changes computed by the caller … */
  ratingChanges?: readonly RatingChange[];
  pairDeltas?: readonly PairDelta[];
  /**
   * … or computed inside the transaction from the seated bots' ratings as kept at that moment (by bot id),
   * so that matches finishing at once in several processes each rate from the ratings the one before left.
   * Added to `ratingChanges`/`pairDeltas` when both are given.
   */
  rate?: (kept: ReadonlyMap<string, KeptRatings>) => RatingUpdate;
  /**
   * the attempt that played it (the tries `claimMatch` returned): the finish is refused (false) when another
   * attempt has taken the match over since; without it, any attempt's finish is taken
   */
  attempt?: number;
}

/** A running match's attempt whose heartbeat has not run out: nobody else may start it now. */
export interface LiveAttempt {
  /** its number: the match's `tries` when it started */
  attempt: number;
  /** the worker (or server) playing it */
  worker: string | null;
  /** until when its last heartbeat said it is alive */
  aliveUntil: string;
}

/** What `claimMatch` got: this attempt's number; `held` when a live attempt plays it; null once it ended (or there is none). */
export type Claim = number | { held: LiveAttempt } | null;

/** A bot's kept rating in one system. */
export interface RatingRow extends RatingValues {
  botId: string;
  game: string;
  system: RatingSystem;
  updatedAt: string;
}

/** A leaderboard line: the rating row with the bot's name, best first. */
export interface LeaderboardRow extends RatingRow {
  /** 1 for the best */
  position: number;
  name: string;
  builtin: boolean;
  status: BotStatus;
  /** the version of its uploaded code that plays (null: not uploaded code) */
  version: number | null;
}

/** One rating change of a bot's history. */
export interface RatingHistoryRow {
  matchId: string;
  before: number;
  after: number;
  at: string;
}

/** A bot's record against one opponent. */
export interface HeadToHeadRow {
  opponentId: string;
  opponentName: string;
  wins: number;
  draws: number;
  losses: number;
}

/** How a bot's recent rated match ended for it (the pause rule reads these). */
export interface RecentOutcome {
  matchId: string;
  /** its seat's fault (the first of its seats that faulted), or null */
  fault: SeatFault | null;
}

/** Which matches a list or a count is about. */
export interface MatchFilter {
  game?: string;
  /** matches this bot held a seat in */
  botId?: string;
  status?: MatchStatus;
  kind?: MatchKind;
}

/** A page of matches, newest first; `next` is the cursor of the following page, null on the last. */
export interface MatchPage {
  items: MatchRow[];
  next: string | null;
}

/** The store port. Every method is async; rows are plain objects, copies of what is kept. */
/**
 * What an arena lets its bots be and reach: one configuration, the server's, that every process playing its
 * matches reads from the store (a worker's own flags say what it can do, not what bots may do).
 */
/** The limits a sandbox puts on each bot, as the arena's policy carries them (see SandboxOptions in src/bots/). */
export interface SandboxLimits {
  memoryMb?: number;
  cpuSeconds?: number;
  cpus?: number;
  processes?: number;
  tmpMb?: number;
  fileMb?: number;
  openFiles?: number;
}

export interface ArenaPolicy {
  /** bots may be at private, loopback and link-local addresses (the server's --allow-private-bots) */
  allowPrivateBots: boolean;
  /** bots may be commands run on the arena's machines (--allow-commands) */
  allowCommands: boolean;
  /** commands run in the sandbox (not --unsandboxed-commands); false when commands are not allowed */
  sandboxedCommands: boolean;
  /**
   * the sandbox's limits on each bot (the server's --sandbox-memory, --sandbox-tmp, …: MiB, seconds, counts),
   * with sandboxed commands; absent in a policy written before they were part of it
   */
  sandboxLimits?: SandboxLimits;
  /** when the server wrote it (ISO time) */
  writtenAt: string;
}

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

  /** The arena's identity: made once, by the first process that opened the empty store, and kept. */
  arenaId(): Promise<string>;
  /** The arena's policy as its server last wrote it, or null when no server has started on this store. */
  arenaPolicy(): Promise<ArenaPolicy | null>;
  /** Writes the arena's policy (the server, at each start). */
  setArenaPolicy(policy: ArenaPolicy): Promise<void>;

  /** Closes the database (waits for queries under way). */
  close(): Promise<void>;
}
