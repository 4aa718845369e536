import { InvalidArgumentError } from 'commander';

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
