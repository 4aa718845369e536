import type { ResultLine } from '../core/replay.js';
import { InvalidInputError } from './errors.js';
import type { BotsTable, MatchesTable, MatchSeatsTable, RatingsTable } from './schema.js';
import {
  LIMITS,
  type BotRow,
  type BotStatus,
  type MatchKind,
  type MatchRow,
  type MatchSeatRow,
  type MatchStatus,
  type RatingRow,
  type RatingSystem,
} from './store.js';

// Between the store's rows and the tables: checks of what a person typed, and the column ⇄ field mapping.

const BOT_STATUSES: readonly BotStatus[] = ['checking', 'active', 'away', 'paused', 'deleted'];
const MATCH_KINDS: readonly MatchKind[] = ['ladder', 'challenge', 'test', 'contest'];
const MATCH_STATUSES: readonly MatchStatus[] = ['queued', 'running', 'finished', 'aborted'];
const SYSTEMS: readonly RatingSystem[] = ['elo', 'openskill'];

/**
 * A text as the store keeps it: a string of at most `max` characters with no NUL (Postgres text cannot hold
 * one, so neither database gets one). Quotes, SQL and any other Unicode are kept verbatim.
 */
export function text(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string') throw new InvalidInputError(`${field}: expected a string, got ${value === null ? 'null' : typeof value}`);
  if (value.length > max) throw new InvalidInputError(`${field}: ${value.length} characters is too long; at most ${max} are kept`);
  const nul = value.indexOf('\0');
  if (nul >= 0) throw new InvalidInputError(`${field}: contains a NUL character (\\u0000) at position ${nul}; remove it`);
  return value;
}

/** One line of visible text: `text`, not empty, no control characters (shown in tables, logs, commands). */
export function lineText(field: string, value: unknown, max: number): string {
  const line = text(field, value, max);
  if (!line.trim()) throw new InvalidInputError(`${field}: must not be empty`);
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f]/.exec(line);
  if (control)
    throw new InvalidInputError(
      `${field}: contains the control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} at position ${control.index}; it must be one line of visible text`,
    );
  return line;
}

/** A name (of a bot, a game): one line of at most LIMITS.name characters. */
export const nameText = (field: string, value: unknown): string => lineText(field, value, LIMITS.name);

/** A reason written by the arena: kept up to LIMITS.reason characters (cut with "…"), NULs replaced. */
export function reasonText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const clean = value.replace(/\0/g, '\uFFFD');
  return clean.length > LIMITS.reason ? `${clean.slice(0, LIMITS.reason - 1)}…` : clean;
}

/** One of a fixed set of values. */
export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidInputError(`${field}: ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
}

/** Checks a bot status, a match kind, a match status, a rating system. */
export const botStatus = (v: unknown) => oneOf('status', v, BOT_STATUSES);
export const matchKind = (v: unknown) => oneOf('kind', v, MATCH_KINDS);
export const matchStatus = (v: unknown) => oneOf('status', v, MATCH_STATUSES);
export const ratingSystem = (v: unknown) => oneOf('system', v, SYSTEMS);

/** An integer in [min, max]. */
export function int(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidInputError(`${field}: expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A finite number (a rating, a score). */
export function finite(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidInputError(`${field}: expected a finite number, got ${String(value)}`);
  return value;
}

/** A list limit: `fallback` when absent, at most `cap`. */
export function limitOf(value: number | undefined, fallback: number, cap: number): number {
  if (value === undefined) return fallback;
  return Math.min(int('limit', value, 1, Number.MAX_SAFE_INTEGER), cap);
}

/** A JSON document as text (the caller bounds its size). */
export function json(field: string, value: unknown): string {
  const s = JSON.stringify(value);
  if (s === undefined) throw new InvalidInputError(`${field}: cannot be stored as JSON`);
  return s;
}

/** Now, as the store writes times. */
export function isoNow(clock: () => Date): string {
  return clock().toISOString();
}

/** A bots row as the store gives it. */
export function botFromRow(r: BotsTable): BotRow {
  return {
    id: r.id,
    game: r.game,
    name: r.name,
    endpoint: r.endpoint,
    builtin: Number(r.builtin) === 1,
    description: r.description,
    ownerContact: r.owner_contact,
    tokenHash: r.token_hash,
    status: r.status as BotStatus,
    statusReason: r.status_reason,
    doctorReport: r.doctor_report,
    capacity: Number(r.capacity),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    activeVersion: r.active_version === null || r.active_version === undefined ? null : Number(r.active_version),
  };
}

/** A match_seats row as the store gives it. */
export function seatFromRow(r: MatchSeatsTable): MatchSeatRow {
  return {
    slot: Number(r.slot),
    botId: r.bot_id,
    name: r.name,
    rank: r.rank === null ? null : Number(r.rank),
    score: r.score === null ? null : Number(r.score),
    fault: r.fault_kind === null ? null : { kind: r.fault_kind, detail: r.fault_detail ?? '', turn: Number(r.fault_turn ?? 0) },
  };
}

/** A matches row (and its seats) as the store gives it. */
export function matchFromRow(r: MatchesTable, seats: MatchSeatRow[]): MatchRow {
  return {
    id: r.id,
    game: r.game,
    kind: r.kind as MatchKind,
    rated: Number(r.rated) === 1,
    status: r.status as MatchStatus,
    seed: Number(r.seed),
    config: JSON.parse(r.config) as Record<string, unknown>,
    job: JSON.parse(r.job) as unknown,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    result: r.result === null ? null : (JSON.parse(r.result) as ResultLine),
    abortReason: r.abort_reason,
    tries: Number(r.tries),
    worker: r.worker ?? null,
    seats,
  };
}

/** A ratings row as the store gives it. */
export function ratingFromRow(r: RatingsTable): RatingRow {
  return {
    botId: r.bot_id,
    game: r.game,
    system: r.system as RatingSystem,
    rating: Number(r.rating),
    mu: r.mu === null ? null : Number(r.mu),
    sigma: r.sigma === null ? null : Number(r.sigma),
    games: Number(r.games),
    wins: Number(r.wins),
    draws: Number(r.draws),
    losses: Number(r.losses),
    updatedAt: r.updated_at,
  };
}

/** A page cursor: the (created_at, id) of the last match of a page, opaque to the caller. */
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

/** The (created_at, id) a cursor of encodeCursor holds; InvalidInputError for anything else. */
export function decodeCursor(cursor: string): [string, string] {
  const bad = () => new InvalidInputError('cursor: not a cursor this store gave; pass the `next` of the previous page as it came');
  if (typeof cursor !== 'string' || cursor.length > 400) throw bad();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== 'string' ||
    typeof value[1] !== 'string' ||
    value.some((v) => String(v).includes('\0'))
  )
    throw bad();
  return [value[0], value[1]];
}
