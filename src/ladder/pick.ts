import { rngCreate, rngInt, rngShuffle, type RngState } from '../core/rng.js';

// The ladder's choices, as pure functions of what it knows (the server's ladder loop feeds them): which bot
// plays next, against whom, in which seats, and when a bot faults too often to go on.

/** A bot as the ladder sees it when choosing a match. */
export interface LadderBot {
  id: string;
  /** its rating in this game (ELO; 1500 for a newcomer) */
  rating: number;
  /** ladder matches it played (or started) recently: the one with the fewest goes next */
  recent: number;
  /** matches it is in now, and the most it may be in at once (an HTTP bot owner's capacity) */
  running: number;
  capacity: number;
}

/** How many bots a ladder match of a game seats: two for duels; for games of more, up to `cap` (default 4). */
export function ladderSeats(players: { min: number; max: number }, available: number, cap = 4): number | null {
  const want = players.max > 2 ? Math.min(players.max, Math.max(cap, players.min)) : Math.max(2, players.min);
  const seats = Math.min(want, available);
  return seats >= Math.max(players.min, 2) ? seats : null;
}

/** The number of nearest-rated bots an opponent is drawn from (the skill window). */
export const SKILL_WINDOW = 4;

/**
 * Chooses the next ladder match of one game: the free bot with the fewest recent matches plays (newcomers,
 * with none, first; ties go to the lower rating, then the id, so the choice is repeatable), against
 * opponents from the SKILL_WINDOW free bots rated nearest to it (more when the match seats more): those
 * of them with the fewest recent matches, at random among equals; in shuffled seats. A bot is free when it is in fewer matches than its capacity. Returns the bots'
 * ids by seat, or null when too few bots are free. `rng` is advanced: the ladder keeps one per game.
 */
export function pickMatch(bots: readonly LadderBot[], players: { min: number; max: number }, rng: RngState, cap = 4): string[] | null {
  const free = bots.filter((b) => b.running < b.capacity);
  const seats = ladderSeats(players, free.length, cap);
  if (seats === null) return null;
  const byNeed = [...free].sort((a, b) => a.recent - b.recent || a.rating - b.rating || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const focus = byNeed[0]!;
  const others = byNeed
    .slice(1)
    .sort((a, b) => Math.abs(a.rating - focus.rating) - Math.abs(b.rating - focus.rating) || a.recent - b.recent || (a.id < b.id ? -1 : 1));
  const window = others.slice(0, Math.max(SKILL_WINDOW, seats - 1));
  // Within the window, those with the fewest recent matches first (in random order among equals): drawing
  // blindly would favour the bots rated in the middle, who sit in more windows.
  const opponents = rngShuffle(rng, window)
    .sort((a, b) => a.recent - b.recent)
    .slice(0, seats - 1);
  return rngShuffle(rng, [focus, ...opponents]).map((b) => b.id);
}

/** A fresh generator for a game's ladder choices (seeded from the server's start, so runs differ). */
export function ladderRng(seed: number): RngState {
  return rngCreate(seed);
}

/** A seed for a ladder match, from the ladder's generator. */
export function ladderMatchSeed(rng: RngState): number {
  return rngInt(rng, 0, 0xffffffff);
}

/** A ladder match's outcome for one bot, as the pause rule reads it. */
export interface RecentOutcome {
  fault: { kind: string; detail: string; turn?: number } | null;
}

/** When a bot is paused: at least `faults` of its last `window` ladder matches ended with a fault of it. */
export const PAUSE_RULE = { window: 10, faults: 6 };

/**
 * Whether a bot faults too often to stay on the ladder: null, or the reason its owner reads, naming how many
 * of its recent matches faulted, by kind, and the latest fault. `recent` is newest first.
 */
export function pauseReason(recent: readonly RecentOutcome[], rule = PAUSE_RULE): string | null {
  const last = recent.slice(0, rule.window);
  const faulted = last.filter((r) => r.fault !== null);
  if (last.length < rule.window || faulted.length < rule.faults) return null;
  const kinds = new Map<string, number>();
  for (const r of faulted) kinds.set(r.fault!.kind, (kinds.get(r.fault!.kind) ?? 0) + 1);
  const byKind = [...kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
  const latest = faulted[0]!.fault!;
  return `paused by the ladder: ${faulted.length} of its last ${last.length} ladder matches ended with its fault (${byKind}); the latest${latest.turn !== undefined ? ` at turn ${latest.turn}` : ''}: ${latest.kind}: ${latest.detail}. Fix the bot (botarena doctor helps), then re-activate it.`;
}
