import type { RatingValues } from './store.js';

// The tables as Kysely sees them (the migrations in migrations.ts create them). Portable types only: text,
// integer, bigint, double precision, and a blob (SQLite `blob`, Postgres `bytea`). Booleans are integers 0/1
// (better-sqlite3 binds no booleans), times ISO 8601 text (they sort as text), JSON documents text.

export interface BotsTable {
  id: string;
  game: string;
  name: string;
  endpoint: string;
  builtin: number;
  description: string;
  owner_contact: string;
  token_hash: string | null;
  status: string;
  status_reason: string | null;
  doctor_report: string | null;
  capacity: number;
  created_at: string;
  updated_at: string;
  /** the version of its uploaded code that plays (migration 0007); null for a bot that is a URL or a command */
  active_version?: number | null;
}

/** One upload of a bot's code (migration 0007). */
export interface BotVersionsTable {
  bot_id: string;
  version: number;
  sha256: string;
  /** the canonical bytes' size */
  size: number;
  /** the files' size together */
  expanded: number;
  /** the canonical bytes (src/registry/upload/intake.ts) */
  code: Buffer;
  language: string;
  /** the bot spec its seats get: upload:LANGUAGE:SHA256 entry=… | run=… */
  spec: string;
  /** checking, active (it passed its check; the bot's active_version says which plays), refused */
  state: string;
  /** the check's report (JSON) or why it was refused */
  report: string | null;
  created_at: string;
}

export interface MatchesTable {
  id: string;
  game: string;
  kind: string;
  rated: number;
  status: string;
  seed: number;
  config: string;
  job: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  result: string | null;
  abort_reason: string | null;
  tries: number;
  /** who plays or played it: a worker's or a server's name (migration 0003) */
  worker: string | null;
  /**
   * until when the attempt that holds it (its `tries`) is known to be alive: the attempt renews it while it
   * plays (migration 0004); null before a start, or for a start that keeps no heartbeat
   */
  alive_until: string | null;
}

/** The arena's identity: one row, made by the first process that opened the empty store (migration 0005). */
export interface ArenaTable {
  id: string;
  created_at: string;
  /** the server's policy (JSON of ArenaPolicy), null until a server started on this store (migration 0006) */
  policy: string | null;
}

export interface MatchSeatsTable {
  match_id: string;
  slot: number;
  bot_id: string | null;
  name: string;
  rank: number | null;
  score: number | null;
  fault_kind: string | null;
  fault_detail: string | null;
  fault_turn: number | null;
}

export interface ReplaysTable {
  match_id: string;
  gz: Buffer;
}

export interface MatchLogsTable {
  match_id: string;
  slot: number;
  gz: Buffer;
}

/** rating, mu, sigma, games, wins, draws, losses: as the store's rows name them */
export interface RatingsTable extends RatingValues {
  bot_id: string;
  system: string;
  game: string;
  updated_at: string;
}

export interface RatingHistoryTable {
  bot_id: string;
  match_id: string;
  system: string;
  before: number;
  after: number;
  at: string;
}

export interface PairResultsTable {
  game: string;
  bot_id: string;
  opponent_id: string;
  wins: number;
  draws: number;
  losses: number;
}

/** A contest (migration 0008). */
export interface ContestsTable {
  id: string;
  game: string;
  name: string;
  /** its definition (JSON of src/contests/definition.ts ContestDefinition) */
  definition: string;
  /** entry, frozen, running, done */
  status: string;
  /** when its entry window closes (the runner freezes it then); null: when the admin says */
  closes_at: string | null;
  created_at: string;
  frozen_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** the published results (JSON), written once the final is done */
  results: string | null;
}

/** A bot entered in a contest (migration 0008). */
export interface ContestEntriesTable {
  contest_id: string;
  bot_id: string;
  entered_at: string;
  /** what it plays the final with (JSON), fixed at the freeze; null before */
  frozen: string | null;
  /** its place in the final's seeding order (0 first), fixed at the freeze; null before */
  place: number | null;
}

/** A match of a contest's final (migration 0008): the plan's key, unique in its contest, and its match. */
export interface ContestMatchesTable {
  contest_id: string;
  key: string;
  /** the order the plan gave it */
  position: number;
  match_id: string;
}

export interface Database {
  contests: ContestsTable;
  contest_entries: ContestEntriesTable;
  contest_matches: ContestMatchesTable;
  bots: BotsTable;
  bot_versions: BotVersionsTable;
  matches: MatchesTable;
  arena: ArenaTable;
  match_seats: MatchSeatsTable;
  replays: ReplaysTable;
  match_logs: MatchLogsTable;
  ratings: RatingsTable;
  rating_history: RatingHistoryTable;
  pair_results: PairResultsTable;
}
