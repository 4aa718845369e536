// What a contest is: its definition (game, the configurations it is played on, the final's format, time rules,
// seed, entry window) and its entrants, read from untrusted JSON (an API body, an archive's contest.json) with a
// clear error naming the field that is wrong and what was expected. Pure: no clock, no I/O; plan.ts, results.ts,
// archive.ts and verify.ts build on it, and the server's store keeps what `checkDefinition` returns.
import { configProblem } from '../core/config-check.js';
import type { AnyGame } from '../core/definition.js';
import { describeValue } from '../core/describe.js';
import { UsageError } from '../core/errors.js';
import { MAX_DEADLINE_MS, MAX_SEED } from '../core/replay-limits.js';
import { games } from '../games/index.js';

/** How the final is played (duels): every pairing once, every pairing twice with the sides swapped, Swiss rounds, or a knockout. */
export type ContestFormat = 'round-robin' | 'double-round-robin' | 'swiss' | 'knockout';
export const CONTEST_FORMATS: readonly ContestFormat[] = ['round-robin', 'double-round-robin', 'swiss', 'knockout'];

/** One configuration (a map) the final is played on: a label people read, and the game's config as `--set` gives it. */
export interface ContestConfig {
  label: string;
  config: Record<string, number | boolean | string>;
}

/**
 * The time rules every match of the contest is played by, copied into each match job's `timeouts`: the init and
 * turn deadlines, and the fair-time rules of issue 38 (a longer first answer, a time bank, strikes). Absent ones
 * are the game's (or the runner's defaults, which keep the old behaviour).
 */
export interface TimeRules {
  initMs?: number;
  turnMs?: number;
  /** the first answer's deadline (CodinGame's longer first turn) */
  firstMs?: number;
  /** a reserve per bot that overruns draw from before a timeout counts (Kaggle's overage) */
  bankMs?: number;
  /** timeouts forgiven (each a pass by the game's rules) before the next is a fault */
  strikes?: number;
}

/** Everything that decides a contest's final: the same definition and entrants plan the same matches. */
export interface ContestDefinition {
  /** a short id: lowercase letters, digits and dashes (in URLs and the archive's name) */
  id: string;
  name: string;
  game: string;
  /** the configurations (maps) the final is played on: every pairing plays its games on each */
  configs: ContestConfig[];
  format: ContestFormat;
  /** Swiss: rounds (default ⌈log₂ entrants⌉) */
  rounds?: number;
  /** games per pairing and configuration (in pairs on one seed with the seats swapped); double round robin plays twice as many */
  gamesPerPairing: number;
  timeRules: TimeRules;
  /** the contest's seed (0..2³²−1): every match's seed is derived from it */
  seed: number;
  /** the entry window, ISO 8601 times (UTC): entries from opensAt, the freeze at closesAt */
  opensAt: string;
  closesAt: string;
}

/**
 * One entrant of the final, in seeding order (the practice ladder's rank at the freeze, best first): its index
 * is the number plan.ts and results.ts speak of. `version` is what was frozen: an upload's sha256, or for a URL
 * the digest of its doctor report at the freeze (null when nothing could be frozen).
 */
export interface ContestEntrant {
  name: string;
  bot: string;
  version: string | null;
}

/** Bounds on a definition and its entrants: what passes them costs a bounded amount to plan and to hold. */
export const CONTEST_LIMITS = {
  idChars: 64,
  nameChars: 200,
  configs: 16,
  labelChars: 40,
  configKeys: 64,
  configValueChars: 1 << 20,
  gamesPerPairing: 100,
  rounds: 64,
  strikes: 1000,
  entrants: 256,
  entrantNameChars: 200,
  botChars: 4096,
  versionChars: 200,
  /** the most matches a final may plan (a round robin of n entrants is n(n−1)/2 × games × configs) */
  matches: 100_000,
} as const;

const TIME_KEYS = ['initMs', 'turnMs', 'firstMs', 'bankMs', 'strikes'] as const;
const DEFINITION_KEYS = ['id', 'name', 'game', 'configs', 'format', 'rounds', 'gamesPerPairing', 'timeRules', 'seed', 'opensAt', 'closesAt'];
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const short = (v: unknown) => describeValue(v, 60);

/** A definition or entrant list refused: the message names the field and what is expected. */
export class ContestDefinitionError extends UsageError {
  override name = 'ContestDefinitionError';
  constructor(
    readonly field: string,
    what: string,
  ) {
    super(`contest: "${field}" ${what}`);
  }
}

function fail(field: string, what: string): never {
  throw new ContestDefinitionError(field, what);
}

/**
 * Reads a contest definition from untrusted JSON: every field's type and bounds, the game (known, played by
 * two), each configuration against the game's rules, the entry window in order. Throws a ContestDefinitionError
 * naming the first wrong field and what was expected; returns a clean copy with only the definition's fields,
 * in a fixed order (so its JSON is stable).
 */
export function checkDefinition(untrusted: unknown, known: Record<string, AnyGame> = games): ContestDefinition {
  if (!isObject(untrusted)) fail('(definition)', `must be a JSON object with ${DEFINITION_KEYS.join(', ')}, got ${short(untrusted)}`);
  const v = untrusted;
  const extra = Object.keys(v).filter((k) => !DEFINITION_KEYS.includes(k));
  if (extra.length) fail(extra[0]!, `is not a field of a contest; the fields are ${DEFINITION_KEYS.join(', ')}`);
  const id = v.id;
  if (typeof id !== 'string' || !new RegExp(`^[a-z0-9][a-z0-9-]{0,${CONTEST_LIMITS.idChars - 1}}$`).test(id))
    fail('id', `must be 1 to ${CONTEST_LIMITS.idChars} lowercase letters, digits or dashes (not first), got ${short(id)}`);
  const name = v.name;
  if (typeof name !== 'string' || !name.trim() || name.length > CONTEST_LIMITS.nameChars || /\p{Cc}/u.test(name))
    fail('name', `must be a name of 1 to ${CONTEST_LIMITS.nameChars} characters on one line, got ${short(name)}`);
  if (typeof v.game !== 'string' || !Object.hasOwn(known, v.game))
    fail('game', `must be one of the games: ${Object.keys(known).join(', ')}; got ${short(v.game)}`);
  const game = known[v.game]!;
  if (game.players.min > 2 || game.players.max < 2)
    fail('game', `${game.id} is played by ${game.players.min} to ${game.players.max} players; a contest's final is played in duels (2 players)`);
  const format = v.format;
  if (typeof format !== 'string' || !(CONTEST_FORMATS as readonly string[]).includes(format))
    fail('format', `must be one of ${CONTEST_FORMATS.join(', ')}, got ${short(format)}`);
  let rounds: number | undefined;
  if (v.rounds !== undefined) {
    if (format !== 'swiss') fail('rounds', `is for a swiss final only (this one is ${format as string}); leave it out`);
    if (!Number.isInteger(v.rounds) || (v.rounds as number) < 1 || (v.rounds as number) > CONTEST_LIMITS.rounds)
      fail('rounds', `must be a whole number from 1 to ${CONTEST_LIMITS.rounds}, got ${short(v.rounds)}`);
    rounds = v.rounds as number;
  }
  const gpp = v.gamesPerPairing;
  if (!Number.isInteger(gpp) || (gpp as number) < 1 || (gpp as number) > CONTEST_LIMITS.gamesPerPairing)
    fail('gamesPerPairing', `must be a whole number from 1 to ${CONTEST_LIMITS.gamesPerPairing}, got ${short(gpp)}`);
  const seed = v.seed;
  if (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > MAX_SEED)
    fail('seed', `must be a whole number from 0 to ${MAX_SEED}, got ${short(seed)}`);
  const configs = checkConfigs(v.configs, game);
  const timeRules = checkTimeRules(v.timeRules);
  for (const key of ['opensAt', 'closesAt'] as const) {
    const t = v[key];
    if (typeof t !== 'string' || !ISO_TIME.test(t) || Number.isNaN(Date.parse(t)))
      fail(key, `must be an ISO 8601 time such as "2026-12-01T18:00:00Z", got ${short(t)}`);
  }
  if (Date.parse(v.closesAt as string) <= Date.parse(v.opensAt as string))
    fail('closesAt', `must be after opensAt (${v.opensAt as string}), got ${v.closesAt as string}`);
  const def: ContestDefinition = {
    id,
    name,
    game: game.id,
    configs,
    format: format as ContestFormat,
    gamesPerPairing: gpp as number,
    timeRules,
    seed: seed as number,
    opensAt: v.opensAt as string,
    closesAt: v.closesAt as string,
  };
  if (rounds !== undefined) def.rounds = rounds;
  return def;
}

function checkConfigs(value: unknown, game: AnyGame): ContestConfig[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > CONTEST_LIMITS.configs)
    fail('configs', `must be a list of 1 to ${CONTEST_LIMITS.configs} configurations like [{"label":"default","config":{}}], got ${short(value)}`);
  const labels = new Set<string>();
  return value.map((c: unknown, i): ContestConfig => {
    const at = `configs[${i}]`;
    if (!isObject(c)) fail(at, `must be {"label": …, "config": {…}}, got ${short(c)}`);
    const extra = Object.keys(c).filter((k) => k !== 'label' && k !== 'config');
    if (extra.length) fail(`${at}.${extra[0]!}`, 'is not a field of a configuration; its fields are label and config');
    const label = c.label;
    if (typeof label !== 'string' || !new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,${CONTEST_LIMITS.labelChars - 1}}$`).test(label))
      fail(`${at}.label`, `must be 1 to ${CONTEST_LIMITS.labelChars} letters, digits, dots, dashes or underscores, got ${short(label)}`);
    if (labels.has(label)) fail(`${at}.label`, `"${label}" is given twice: every configuration has its own label`);
    labels.add(label);
    const config = c.config ?? {};
    if (!isObject(config)) fail(`${at}.config`, `must be an object of key → value, got ${short(config)}`);
    const entries = Object.entries(config);
    if (entries.length > CONTEST_LIMITS.configKeys) fail(`${at}.config`, `has ${entries.length} keys; at most ${CONTEST_LIMITS.configKeys}`);
    const clean: ContestConfig['config'] = {};
    for (const [key, val] of entries) {
      const ok =
        typeof val === 'number' ? Number.isFinite(val) : typeof val === 'boolean' || (typeof val === 'string' && val.length <= CONTEST_LIMITS.configValueChars);
      if (!ok)
        fail(`${at}.config.${key}`, `must be a number, a boolean or a string of at most ${CONTEST_LIMITS.configValueChars} characters, got ${short(val)}`);
      clean[key] = val as number | boolean | string;
    }
    const problem = configProblem(game, clean, 2);
    if (problem) fail(`${at}.config`, `(${label}) is not a config ${game.id} can be played on by 2: ${problem}`);
    return { label, config: clean };
  });
}

function checkTimeRules(value: unknown): TimeRules {
  const v = value ?? {};
  if (!isObject(v)) fail('timeRules', `must be an object like {"turnMs": 1000} (empty for the game's), got ${short(v)}`);
  const extra = Object.keys(v).filter((k) => !(TIME_KEYS as readonly string[]).includes(k));
  if (extra.length) fail(`timeRules.${extra[0]!}`, `is not a time rule; the rules are ${TIME_KEYS.join(', ')}`);
  const out: TimeRules = {};
  for (const key of TIME_KEYS) {
    const n = v[key];
    if (n === undefined) continue;
    const [min, max, unit] = key === 'strikes' ? [0, CONTEST_LIMITS.strikes, ''] : key === 'bankMs' ? [0, MAX_DEADLINE_MS, ' ms'] : [1, MAX_DEADLINE_MS, ' ms'];
    if (!Number.isInteger(n) || (n as number) < min || (n as number) > max)
      fail(`timeRules.${key}`, `must be a whole number from ${min} to ${max}${unit}, got ${short(n)}`);
    out[key] = n as number;
  }
  return out;
}

/**
 * Reads the entrants of a final (seeding order) from untrusted JSON: 2 to CONTEST_LIMITS.entrants, each with a
 * unique name, a bot spec and its frozen version (or null). Throws naming the first wrong field.
 */
export function checkEntrants(untrusted: unknown): ContestEntrant[] {
  if (!Array.isArray(untrusted) || untrusted.length < 2 || untrusted.length > CONTEST_LIMITS.entrants)
    fail('entrants', `must be a list of 2 to ${CONTEST_LIMITS.entrants} entrants like {"name":"ann","bot":"random","version":null}, got ${short(untrusted)}`);
  const names = new Set<string>();
  return untrusted.map((e: unknown, i): ContestEntrant => {
    const at = `entrants[${i}]`;
    if (!isObject(e)) fail(at, `must be {"name": …, "bot": …, "version": …}, got ${short(e)}`);
    const { name, bot, version } = e;
    if (typeof name !== 'string' || !name.trim() || name.length > CONTEST_LIMITS.entrantNameChars)
      fail(`${at}.name`, `must be a name of 1 to ${CONTEST_LIMITS.entrantNameChars} characters, got ${short(name)}`);
    if (names.has(name)) fail(`${at}.name`, `"${name}" is taken by an earlier entrant: names identify entrants in the results`);
    names.add(name);
    if (typeof bot !== 'string' || !bot.trim() || bot.length > CONTEST_LIMITS.botChars)
      fail(`${at}.bot`, `must be a bot spec of 1 to ${CONTEST_LIMITS.botChars} characters, got ${short(bot)}`);
    if (version !== null && (typeof version !== 'string' || version.length > CONTEST_LIMITS.versionChars))
      fail(`${at}.version`, `must be the frozen version (a string of at most ${CONTEST_LIMITS.versionChars} characters) or null, got ${short(version)}`);
    return { name, bot, version: version as string | null };
  });
}
