// A contest's entrants as frozen, and the ids of its final's matches: what the service and the server share.
import { createHash } from 'node:crypto';
import type { ContestEntryRow } from '../store/index.js';
import type { ContestEntrant } from './definition.js';

/** What an entrant plays the final with, fixed at the freeze (the API's FrozenVersion). */
export interface FrozenVersion {
  kind: 'upload' | 'url' | 'builtin' | 'command' | 'connect';
  /** the bot spec its seats get in the final */
  spec: string;
  version?: number | null;
  sha256?: string | null;
  /** a URL bot's doctor report at the freeze (null: it could not be checked) */
  doctor?: unknown;
  at: string;
}

/**
 * How many times a match of the final that was aborted (its server restarted without a queue, its bot was
 * deleted, every try failed) is played again under a new match id (`….rN`) before it counts as an error nobody is
 * blamed for.
 */
export const CONTEST_REPLAYS = 3;

/**
 * The id of a planned match of a contest's final: the contest, the match's index in the plan and a digest of its
 * key (the same whoever plans it), then `.rN` when it is played again for the N-th time. `isContestMatchId` reads it.
 */
export function contestMatchId(contestId: string, index: number, key: string, replays = 0): string {
  const id = `${contestId}.${index}.${createHash('sha256').update(`${contestId}\n${key}`).digest('hex').slice(0, 12)}`;
  return replays ? `${id}.r${replays}` : id;
}

/** Whether a match id is one of a contest's final (`CONTEST.INDEX.HASH`, `.rN` when played again). */
export function isContestMatchId(matchId: string): boolean {
  return /^[a-z0-9][a-z0-9-]*\.\d+\.[0-9a-f]{12}(\.r\d+)?$/.test(matchId);
}

/** How many times a contest match was played again before: its id's `.rN`, 0 for the first. */
export function replaysOf(matchId: string): number {
  return Number(/\.r(\d+)$/.exec(matchId)?.[1] ?? 0);
}

export const frozenOf = (e: ContestEntryRow): FrozenVersion => e.frozen as FrozenVersion;

/** The entrant as the contest's rules see it: its name, its frozen spec and the version fixed. */
export function entrantOf(e: ContestEntryRow): ContestEntrant {
  const f = frozenOf(e);
  const version =
    f.kind === 'upload'
      ? (f.sha256 ?? null)
      : f.kind === 'url'
        ? f.doctor == null
          ? null
          : `doctor:${createHash('sha256').update(JSON.stringify(f.doctor)).digest('hex')}`
        : f.kind === 'builtin'
          ? `builtin:${f.spec}`
          : null;
  return { name: e.name, bot: f.spec, version };
}
