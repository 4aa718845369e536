import { existsSync, readFileSync, statSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';

/** Collects repeated `--set key=value` options into an object (commander option parser). */
export function collectKeyValue(flag: string) {
  return (value: string, previous: Record<string, string> = {}): Record<string, string> => {
    const eq = value.indexOf('=');
    if (eq <= 0) throw new InvalidArgumentError(`expected ${flag} key=value, got ${JSON.stringify(value)}`);
    return { ...previous, [value.slice(0, eq).trim()]: value.slice(eq + 1) };
  };
}

/** Parses a non-negative integer option (ms, seeds, turns). */
export function parseNonNegativeInt(what: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()) || Number(value) > max) {
      throw new InvalidArgumentError(`${what} must be a whole number from 0 to ${max}, got ${JSON.stringify(value)}`);
    }
    return Number(value);
  };
}

/** Parses a positive integer option. */
export function parsePositiveInt(what: string) {
  return (value: string): number => {
    const n = parseNonNegativeInt(what)(value);
    if (n < 1) throw new InvalidArgumentError(`${what} must be at least 1, got ${value}`);
    return n;
  };
}

/**
 * `--set key=PATH` for a game's file-valued keys (maps, boards): when the value names an existing file, the
 * game gets the file's text, so the replay carries the map itself. Any other value (a shipped map's name)
 * is passed on for the game to judge.
 */
export function readConfigFiles(game: AnyGame, set: Record<string, string>): Record<string, string> {
  const out = { ...set };
  for (const [key, value] of Object.entries(set)) {
    const field = game.config[key];
    if (field?.type !== 'string' || !field.file || !existsSync(value) || !statSync(value).isFile()) continue;
    try {
      out[key] = readFileSync(value, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${key} file ${JSON.stringify(value)}: ${(err as Error).message}`);
    }
  }
  return out;
}
