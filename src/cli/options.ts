import { existsSync, statSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { BOT_ENV_LIMITS, parseBotEnvEntry } from '../bots/bot-env.js';
import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';
import { readFileCapped } from './read-capped.js';

/** Collects repeated `--set key=value` options into an object (commander option parser). */
export function collectKeyValue(flag: string) {
  return (value: string, previous: Record<string, string> = {}): Record<string, string> => {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new InvalidArgumentError(`expected ${flag} key=value, got ${JSON.stringify(value)}`);
    return { ...previous, [value.slice(0, eq).trim()]: value.slice(eq + 1) };
  };
}

/** The help of `--bot-env` (play, doctor, tournament, ab, serve, worker); `home` says what the bots' HOME is. */
export function botEnvHelp(home: string): string {
  return `a variable of the bots' environment, repeatable: NAME=VALUE sets it, NAME passes this environment's value. Bot programs get only PATH, LANG, LANGUAGE, LC_*, TZ, TMPDIR, HOME (${home}) and these, never the rest of this environment`;
}

/** Collects repeated `--bot-env NAME[=VALUE]` options into the variables to pass (commander option parser). */
export function collectBotEnv(value: string, previous: Record<string, string> = {}): Record<string, string> {
  if (Object.keys(previous).length >= BOT_ENV_LIMITS.entries) throw new InvalidArgumentError(`at most ${BOT_ENV_LIMITS.entries} variables`);
  try {
    const [name, v] = parseBotEnvEntry(value);
    return { ...previous, [name]: v };
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** Parses an integer option in min..max; any other value gets one message stating the whole range. */
function parseIntIn(what: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
      throw new InvalidArgumentError(`${what} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
    return n;
  };
}

/** Parses a non-negative integer option (seeds, ports, slots). */
export function parseNonNegativeInt(what: string, max = Number.MAX_SAFE_INTEGER) {
  return parseIntIn(what, 0, max);
}

/** Parses a positive integer option (turns, deadlines in ms). */
export function parsePositiveInt(what: string, max = Number.MAX_SAFE_INTEGER) {
  return parseIntIn(what, 1, max);
}

/** The most a file given to `--set key=FILE` may hold (a map, a board, a position): 16 MiB. */
const MAX_CONFIG_FILE_BYTES = 16 * 1024 * 1024;

/**
 * `--set key=PATH` for a game's file-valued keys (maps, boards): when the value names an existing file, the
 * game gets the file's text, so the replay carries the map itself. A value that looks like a path (a slash,
 * or a file extension) but names no file is an error saying so. Any other value (a shipped map's name) is
 * passed on for the game to judge.
 */
export function readConfigFiles(game: AnyGame, set: Record<string, string>): Record<string, string> {
  const out = { ...set };
  for (const [key, value] of Object.entries(set)) {
    const field = game.config[key];
    if (field?.type !== 'string' || !field.file) continue;
    const pathLike = !value.includes('\n') && !value.trimStart().startsWith('{') && /[/\\]|\.[A-Za-z0-9]+$/.test(value);
    if (!existsSync(value)) {
      if (pathLike) throw new UsageError(`--set ${key}=${value}: no such file`);
      continue;
    }
    if (!statSync(value).isFile()) {
      if (pathLike) throw new UsageError(`--set ${key}=${value}: that is not a regular file (a folder, a device…)`);
      continue;
    }
    out[key] = readFileCapped(value, MAX_CONFIG_FILE_BYTES, `${key}`).toString('utf8');
  }
  return out;
}
