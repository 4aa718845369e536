// The environment of a bot process: an allow-list, never the arena's own environment (its admin token, its
// database's URL, whatever else the operator's shell holds). The one place that builds it; process-group.ts
// spawns every bot program (stdio, exec; sandboxed or not) with what this returns.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';

/**
 * What a bot's environment holds besides the allow-list. Plain data: it travels to the match threads.
 *
 * - `pass`: what the operator names (`--bot-env NAME=VALUE`, or `--bot-env NAME` for the arena's own value,
 *   read when the option is read), passed as given.
 * - `home`: the bot's HOME. `'user'` (the default: the CLI, where a bot author runs their own bots) keeps the
 *   arena user's HOME, so the bot finds what its author installed there; `'private'` (the server and the
 *   worker, which run other people's bots) gives each bot process a fresh empty folder of its own under the
 *   temporary folder, removed when the process ends. Under `--sandbox` HOME is the sandbox's private /tmp.
 */
export interface BotEnvOptions {
  pass?: Record<string, string>;
  home?: 'user' | 'private';
}

/** The arena's variables a bot gets by name, besides every `LC_*`: what finds programs and speaks the user's language. */
export const BOT_ENV_ALLOWED: readonly string[] = ['PATH', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR'];

/** Where programs are looked for when the arena itself has no PATH. */
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Whether the arena's variable `name` reaches a bot without the operator naming it. */
export function allowedByDefault(name: string): boolean {
  return BOT_ENV_ALLOWED.includes(name) || /^LC_[A-Z_]+$/.test(name);
}

/** The variables the arena sets itself for a bot's processes: the operator cannot pass them. */
const RESERVED = ['BOTARENA_BOT'];

/** How many `--bot-env` a command takes, and how long one may be: an environment is not a place for files. */
export const BOT_ENV_LIMITS = { entries: 256, bytes: 128 * 1024 } as const;

/**
 * Reads one `--bot-env` value: `NAME=VALUE` sets NAME, `NAME` passes the arena's own NAME (which must be set).
 * Throws a UsageError naming what is wrong and what is expected.
 */
export function parseBotEnvEntry(entry: string, env: NodeJS.ProcessEnv = process.env): [string, string] {
  const eq = entry.indexOf('=');
  const name = eq < 0 ? entry : entry.slice(0, eq);
  const shown = JSON.stringify(entry.length > 80 ? `${entry.slice(0, 80)}…` : entry);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new UsageError(`--bot-env ${shown}: expected NAME=VALUE or NAME, NAME made of letters, digits and _ and not starting with a digit`);
  if (RESERVED.includes(name)) throw new UsageError(`--bot-env ${name}: the arena sets ${name} itself (it marks a bot's processes), it cannot be passed`);
  if (Buffer.byteLength(entry) > BOT_ENV_LIMITS.bytes) throw new UsageError(`--bot-env ${name}: over ${BOT_ENV_LIMITS.bytes} bytes`);
  if (eq >= 0) return [name, entry.slice(eq + 1)];
  const value = env[name];
  if (value === undefined) throw new UsageError(`--bot-env ${name}: ${name} is not set in this environment; give ${name}=VALUE to set it for the bots`);
  return [name, value];
}

/** Reads every `--bot-env` value of a command into the variables to pass (a later one for the same NAME wins). */
export function parseBotEnv(entries: readonly string[], env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (entries.length > BOT_ENV_LIMITS.entries) throw new UsageError(`--bot-env: at most ${BOT_ENV_LIMITS.entries} variables, got ${entries.length}`);
  return Object.fromEntries(entries.map((e) => parseBotEnvEntry(e, env)));
}

/** Makes a private HOME for one bot process (0700, empty); the caller removes it when the process is over. */
export function makePrivateHome(): string {
  return mkdtempSync(join(tmpdir(), 'botarena-home-'));
}

/**
 * The whole environment of a bot process: the allow-listed variables of the arena's environment (`PATH`,
 * `LANG`, `LANGUAGE`, `LC_*`, `TZ`, `TMPDIR`), `HOME` (`home`; none when undefined), what the operator passes,
 * then what the arena sets itself (`own`: the mark its process group is found by), which nothing overrides.
 * Under the sandbox the bot's HOME and TMPDIR are its private /tmp.
 */
export function botEnvironment(
  opts: BotEnvOptions | undefined,
  where: { home: string | undefined; sandboxed: boolean; own: Record<string, string> },
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && allowedByDefault(name)) out[name] = value;
  out.PATH ??= DEFAULT_PATH;
  if (where.sandboxed) out.TMPDIR = '/tmp';
  if (where.home !== undefined) out.HOME = where.home;
  Object.assign(out, opts?.pass ?? {});
  return Object.assign(out, where.own);
}
