import { UsageError } from './errors.js';
import { describeValue } from './describe.js';

/** One key of a game's match configuration: its type, default, bounds and meaning. */
export type ConfigField =
  | { type: 'int'; default: number; min?: number; max?: number; description: string }
  | { type: 'bool'; default: boolean; description: string }
  /** `file`: the value may be a file's text (a map, a board); the CLI reads it when given a file's path */
  | { type: 'string'; default: string; choices?: readonly string[]; file?: boolean; description: string };

/** The configuration keys a game accepts. */
export type ConfigSpec = Record<string, ConfigField>;

/** The plain values of a configuration, as stored in a replay. */
export type ConfigValues = Record<string, number | boolean | string>;

/** The typed values a spec describes. */
export type ConfigOf<S extends ConfigSpec> = {
  [K in keyof S]: S[K] extends { type: 'int' } ? number : S[K] extends { type: 'bool' } ? boolean : string;
};

/**
 * Builds a full configuration from a game's spec and user overrides (strings from `--set key=value`,
 * or already-typed values from a replay/API). Every error names the key and what was expected.
 */
export function resolveConfig(gameId: string, spec: ConfigSpec, overrides: Record<string, unknown> = {}): ConfigValues {
  const out: ConfigValues = {};
  for (const [key, field] of Object.entries(spec)) out[key] = field.default;
  for (const [key, raw] of Object.entries(overrides)) {
    // Own keys only: `__proto__`, `constructor` or `toString` are no config key of any game.
    const field = Object.hasOwn(spec, key) ? spec[key] : undefined;
    if (!field) {
      const known = Object.keys(spec);
      throw new UsageError(
        `unknown config key ${describeValue(key, 40)} for ${gameId}; ${known.length ? `known keys: ${known.join(', ')}` : 'this game has no config keys'}`,
      );
    }
    out[key] = parseField(gameId, key, field, raw);
  }
  return out;
}

function parseField(gameId: string, key: string, field: ConfigField, raw: unknown): number | boolean | string {
  const where = `config "${key}" of ${gameId}`;
  switch (field.type) {
    case 'int': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
      const lo = field.min ?? Number.MIN_SAFE_INTEGER;
      const hi = field.max ?? Number.MAX_SAFE_INTEGER;
      if (!Number.isSafeInteger(n) || n < lo || n > hi) {
        const range = field.min !== undefined || field.max !== undefined ? ` in ${field.min ?? '…'}..${field.max ?? '…'}` : '';
        throw new UsageError(`${where} must be an integer${range}, got ${describeValue(raw, 60)}`);
      }
      return n;
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === '1' || raw === 'yes') return true;
      if (raw === 'false' || raw === '0' || raw === 'no') return false;
      throw new UsageError(`${where} must be true or false, got ${describeValue(raw, 60)}`);
    }
    case 'string': {
      if (typeof raw !== 'string') throw new UsageError(`${where} must be a string, got ${describeValue(raw, 60)}`);
      if (field.choices && !field.choices.includes(raw)) {
        throw new UsageError(`${where} must be one of ${field.choices.join(', ')}, got ${describeValue(raw, 60)}`);
      }
      return raw;
    }
  }
}
