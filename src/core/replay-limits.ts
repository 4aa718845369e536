// The replay format's tag and the bounds of its numbers, apart from its schema (replay-format.ts): writing a
// replay needs them, and does not load the schema's library (the CLI starts without it).

/** The replay format tag; bump the number when the shape changes incompatibly. */
export const REPLAY_FORMAT = 'botarena-replay/1';

/** The largest seed a replay may hold: the range `botarena play --seed` takes. */
export const MAX_SEED = 0xffff_ffff;
/** The longest deadline a replay may record, in ms (the `--timeout` range). */
export const MAX_DEADLINE_MS = 3_600_000;
/** The most strikes (forgiven timeouts per seat) a match may allow: the `--strikes` range. */
export const MAX_STRIKES = 1000;
