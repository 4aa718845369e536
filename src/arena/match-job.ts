import { UsageError } from '../core/errors.js';
import { MAX_STRIKES, type ReplayHeader } from '../core/replay.js';

/** One seat of a match job: a bot spec (`stdio:python3 bot.py`, `random`, `http://…`, `tcp`) and an optional display name. */
export interface JobSeat {
  bot: string;
  name?: string;
}

/**
 * Everything that decides a match, as plain JSON: the CLI, the server, a tournament and a queue worker all
 * start matches from one of these, so a job can travel through a queue and be run anywhere the bots can be
 * reached. Connect-in bots (tcp) come beside the job, as connections, since a socket does not travel.
 *
 * ```ts
 * const job = newJob({ game: 'tictactoe', seats: [{ bot: 'random' }, { bot: 'stdio:python3 bot.py' }], seed: 42 });
 * const report = await runMatch(job);
 * ```
 */
export interface MatchJob {
  /** the match's id: the wire's game id, and the live events' and the store's key */
  matchId: string;
  game: string;
  /** game config as `--set` gives it (the game resolves defaults and checks it) */
  config: Record<string, unknown>;
  /** 32-bit match seed */
  seed: number;
  seats: JobSeat[];
  /**
   * deadlines the match chooses; absent ones are the game's (and a step's own, for turns). The time rules,
   * absent for none (today's behaviour): `firstMs` each seat's first answer in play (hellos have `initMs`),
   * `bankMs` each seat's time bank, `strikes` the timeouts of each seat forgiven as the game's pass.
   */
  timeouts: JobTimeouts;
  /** keep every raw message in the replay */
  transcripts?: boolean;
  /** where the match starts from, when it is a fork of another replay */
  forkedFrom?: ReplayHeader['forkedFrom'];
}

/** A job's deadlines and time rules (see `MatchJob.timeouts`). */
export interface JobTimeouts {
  initMs?: number;
  turnMs?: number;
  firstMs?: number;
  bankMs?: number;
  strikes?: number;
}

/** A job as a caller may write it: only the game and the seats are needed. */
export type JobRequest = Pick<MatchJob, 'game' | 'seats'> & Partial<Omit<MatchJob, 'game' | 'seats'>>;

/** Fills a job's defaults: a random seed (always recorded), the seed as the match id, no config, the game's deadlines. */
export function newJob(req: JobRequest): MatchJob {
  const seed = req.seed ?? randomSeed();
  const job: MatchJob = {
    matchId: req.matchId ?? String(seed),
    game: req.game,
    config: req.config ?? {},
    seed,
    seats: req.seats.map((s) => (s.name === undefined ? { bot: s.bot } : { bot: s.bot, name: s.name })),
    timeouts: { ...req.timeouts },
  };
  if (req.transcripts) job.transcripts = true;
  if (req.forkedFrom) job.forkedFrom = req.forkedFrom;
  return parseMatchJob(job);
}

/**
 * A random match seed (0..2³²−1) from the system's generator: the Web Crypto global, which Node loads only
 * when first used (importing node:crypto instead would load it with the command line).
 */
export function randomSeed(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** Limits on a job read from outside (a queue, an API body): a job that passes them costs a bounded amount to hold. */
export const JOB_LIMITS = {
  seats: 64,
  botChars: 4096,
  nameChars: 200,
  configKeys: 64,
  configValueChars: 1 << 20,
  matchIdChars: 128,
  deadlineMs: 3_600_000,
  strikes: MAX_STRIKES,
};

/**
 * Reads a job from untrusted JSON (a queue message, a request body): checks every field's type and size and
 * throws a UsageError naming the first wrong field and what was expected. Returns a clean copy holding only the
 * job's own fields.
 */
export function parseMatchJob(value: unknown): MatchJob {
  const fail = (field: string, what: string): never => {
    throw new UsageError(`match job: "${field}" ${what}`);
  };
  if (!isObject(value)) fail('(job)', 'must be a JSON object with matchId, game, config, seed, seats and timeouts');
  const v = value as Record<string, unknown>;
  const matchId = v.matchId;
  if (typeof matchId !== 'string' || !/^[A-Za-z0-9._:-]+$/.test(matchId) || matchId.length > JOB_LIMITS.matchIdChars) {
    fail('matchId', `must be 1 to ${JOB_LIMITS.matchIdChars} letters, digits, dots, colons, dashes or underscores, got ${short(matchId)}`);
  }
  if (typeof v.game !== 'string' || !/^[a-z][a-z0-9-]{0,63}$/.test(v.game)) fail('game', `must be a game id like "tictactoe", got ${short(v.game)}`);
  if (!Number.isInteger(v.seed) || (v.seed as number) < 0 || (v.seed as number) > 0xffffffff)
    fail('seed', `must be an integer in 0..4294967295, got ${short(v.seed)}`);
  if (!isObject(v.config)) fail('config', `must be an object of key → value, got ${short(v.config)}`);
  const config: Record<string, unknown> = {};
  const entries = Object.entries(v.config as Record<string, unknown>);
  if (entries.length > JOB_LIMITS.configKeys) fail('config', `has ${entries.length} keys; at most ${JOB_LIMITS.configKeys}`);
  for (const [key, val] of entries) {
    const ok =
      typeof val === 'number' ? Number.isFinite(val) : typeof val === 'boolean' || (typeof val === 'string' && val.length <= JOB_LIMITS.configValueChars);
    if (!ok) fail(`config.${key}`, `must be a number, a boolean or a string of at most ${JOB_LIMITS.configValueChars} characters, got ${short(val)}`);
    config[key] = val;
  }
  if (!Array.isArray(v.seats) || v.seats.length > JOB_LIMITS.seats)
    fail('seats', `must be an array of at most ${JOB_LIMITS.seats} seats, got ${short(v.seats)}`);
  const seats = (v.seats as unknown[]).map((s, i): JobSeat => {
    if (!isObject(s)) return fail(`seats[${i}]`, `must be an object like {"bot":"random"}, got ${short(s)}`);
    const { bot, name } = s as Record<string, unknown>;
    if (typeof bot !== 'string' || !bot.trim() || bot.length > JOB_LIMITS.botChars)
      fail(`seats[${i}].bot`, `must be a bot spec of 1 to ${JOB_LIMITS.botChars} characters, got ${short(bot)}`);
    if (name === undefined) return { bot: bot as string };
    if (typeof name !== 'string' || !name.trim() || name.length > JOB_LIMITS.nameChars)
      fail(`seats[${i}].name`, `must be a name of 1 to ${JOB_LIMITS.nameChars} characters, got ${short(name)}`);
    return { bot: bot as string, name: name as string };
  });
  if (!isObject(v.timeouts)) fail('timeouts', `must be an object like {"turnMs":1000} (empty for the game's), got ${short(v.timeouts)}`);
  const timeouts: MatchJob['timeouts'] = {};
  const bounds = {
    initMs: [1, JOB_LIMITS.deadlineMs],
    turnMs: [1, JOB_LIMITS.deadlineMs],
    firstMs: [1, JOB_LIMITS.deadlineMs],
    bankMs: [0, JOB_LIMITS.deadlineMs],
  } as const;
  for (const key of ['initMs', 'turnMs', 'firstMs', 'bankMs'] as const) {
    const ms = (v.timeouts as Record<string, unknown>)[key];
    if (ms === undefined) continue;
    const [min, max] = bounds[key];
    if (!Number.isInteger(ms) || (ms as number) < min || (ms as number) > max)
      fail(`timeouts.${key}`, `must be a whole number of ms from ${min} to ${max}, got ${short(ms)}`);
    timeouts[key] = ms as number;
  }
  const strikes = (v.timeouts as Record<string, unknown>).strikes;
  if (strikes !== undefined) {
    if (!Number.isInteger(strikes) || (strikes as number) < 0 || (strikes as number) > JOB_LIMITS.strikes)
      fail('timeouts.strikes', `must be a whole number of forgiven timeouts from 0 to ${JOB_LIMITS.strikes}, got ${short(strikes)}`);
    timeouts.strikes = strikes as number;
  }
  const unknown = Object.keys(v.timeouts as object).find((k) => !['initMs', 'turnMs', 'firstMs', 'bankMs', 'strikes'].includes(k));
  if (unknown !== undefined)
    fail(`timeouts.${unknown.length > 40 ? `${unknown.slice(0, 40)}…` : unknown}`, 'is not a time rule: expected initMs, turnMs, firstMs, bankMs or strikes');
  const job: MatchJob = { matchId: matchId as string, game: v.game as string, config, seed: v.seed as number, seats, timeouts };
  if (v.transcripts !== undefined && typeof v.transcripts !== 'boolean') fail('transcripts', `must be true or false, got ${short(v.transcripts)}`);
  if (v.transcripts === true) job.transcripts = true;
  if (v.forkedFrom !== undefined) {
    const f = v.forkedFrom as Record<string, unknown>;
    const good =
      isObject(f) &&
      typeof f.matchId === 'string' &&
      f.matchId.length <= JOB_LIMITS.matchIdChars &&
      Number.isInteger(f.seed) &&
      Number.isInteger(f.turn) &&
      typeof f.fingerprint === 'string' &&
      f.fingerprint.length <= 128;
    if (!good) fail('forkedFrom', `must be {matchId, seed, turn, fingerprint}, got ${short(f)}`);
    job.forkedFrom = { matchId: f.matchId as string, seed: f.seed as number, turn: f.turn as number, fingerprint: f.fingerprint as string };
  }
  return job;
}

function isObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A bounded preview of a bad value for an error message. */
function short(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > 60 ? `${text.slice(0, 60)}… (${text.length} characters)` : text;
}
