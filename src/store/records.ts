// What the store keeps and gives back, as types: its rows (bots, versions, matches, seats, ratings), what is
// written with them, the arena's policy, and the limits on the texts a person types (`LIMITS`). The store port
// itself, the interface that speaks them, is store.ts.
import type { ResultLine } from '../core/replay.js';

export type BotStatus = 'checking' | 'active' | 'away' | 'paused' | 'deleted';
/** ladder and challenge matches may be rated; test and contest matches never are */
export type MatchKind = 'ladder' | 'challenge' | 'test' | 'contest';
/** entry (bots enter), frozen (entrants' versions fixed), running (the final is played), done */
export type { ContestEntryRow, ContestRow, ContestStatus, NewContestRow } from './contest-records.js';
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

/** A match of a contest's final. */
export interface ContestMatchRow {
  key: string;
  position: number;
  match: MatchRow;
}
