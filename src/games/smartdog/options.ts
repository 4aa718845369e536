/** The game options of smart-dog, all numbers once resolved. */
export interface SmartDogOptions {
  turnsLimit: number;
  waitForTurn: number;
  dogVisibilityR: number;
  dogBarkingR: number;
  sheepStandBy: number;
  sheepScaryTurns: number;
  dogScaryTurns: number;
}

/** The option names, in the order `start` sends them after the territory. */
export const OPTION_KEYS: readonly (keyof SmartDogOptions)[] = [
  'waitForTurn',
  'dogVisibilityR',
  'dogBarkingR',
  'sheepStandBy',
  'sheepScaryTurns',
  'turnsLimit',
  'dogScaryTurns',
];

/** The hub options the map's own options line overrides, as sentences (the map wins, as in the reference). */
export function overriddenOptions(hub: Record<string, unknown>, map: Record<string, unknown>): string[] {
  return Object.keys(hub)
    .filter((k) => k in MINIMUM && map[k] !== undefined)
    .map((k) => `option ${k}=${JSON.stringify(hub[k])} is overridden by the map's own options line (${k}=${JSON.stringify(map[k])})`);
}

/** The reference server's hub values, used where neither the hub nor the map sets an option. */
export const DEFAULT_OPTIONS: Readonly<SmartDogOptions> = {
  turnsLimit: 100,
  waitForTurn: 300000,
  dogVisibilityR: 4,
  dogBarkingR: 4,
  sheepStandBy: 4,
  sheepScaryTurns: 1,
  dogScaryTurns: 4,
};

/** The least value each option may take (a game needs a turn; everything else may be 0). */
const MINIMUM: Record<keyof SmartDogOptions, number> = {
  turnsLimit: 1,
  waitForTurn: 1,
  dogVisibilityR: 0,
  dogBarkingR: 0,
  sheepStandBy: 0,
  sheepScaryTurns: 0,
  dogScaryTurns: 0,
};

/** The longest turn deadline (ms): an hour, as for every match deadline (timers cannot count much further). */
const MAX_WAIT_MS = 3_600_000;

/** Reads one option value: a number or a numeric string (the reference configs used both). */
function readValue(key: string, value: unknown, source: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw new Error(`${source}: option ${key} is ${JSON.stringify(value)}; expected a number`);
  return n;
}

/**
 * Resolves options: defaults < hub options < the map's first-line options. A hub key that is not an option is
 * an error (a typo would silently change nothing); a map's other keys are ignored (a map may carry notes). A
 * known key with a non-numeric or too small value is an error naming it.
 */
export function resolveOptions(hub: Record<string, unknown> = {}, map: Record<string, unknown> = {}): SmartDogOptions {
  const unknown = Object.keys(hub).filter((k) => !(k in MINIMUM));
  if (unknown.length)
    throw new Error(`hub options: unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')}; the options are ${Object.keys(MINIMUM).join(', ')}`);
  const out: SmartDogOptions = { ...DEFAULT_OPTIONS };
  for (const [layer, source] of [
    [hub, 'hub options'],
    [map, 'map options'],
  ] as const) {
    for (const key of Object.keys(MINIMUM) as (keyof SmartDogOptions)[]) {
      if (layer[key] === undefined) continue;
      const n = readValue(key, layer[key], source);
      if (n < MINIMUM[key]) throw new Error(`${source}: option ${key} is ${n}; it must be at least ${MINIMUM[key]}`);
      if (key === 'waitForTurn' && n > MAX_WAIT_MS) throw new Error(`${source}: option waitForTurn is ${n}; it must be at most ${MAX_WAIT_MS} (an hour)`);
      out[key] = n;
    }
  }
  return out;
}
