import { FEED } from './feed.js';
import { newSince, type LiveEvent, type LiveEvents } from './events.js';

// Following live matches as a viewer does (the server's SSE routes): what happened so far, then each event as
// it comes, with none missed and none twice in the gap between reading the history and listening.

/**
 * Follows the global feed: `send` gets the `started` event of each match in `running` (the ids of the matches
 * running now, wherever they run: the store knows), then every match's start and end as they come, none
 * twice. Returns how to stop.
 */
export async function followFeed(live: LiveEvents, running: () => Promise<string[]>, send: (e: LiveEvent) => void): Promise<() => void> {
  const early: LiveEvent[] = [];
  let deliver: ((e: LiveEvent) => void) | null = null;
  const stop = live.subscribe(FEED, 'public', (e) => (deliver ? deliver(e) : void early.push(e)));
  try {
    const ids = await running();
    const starts = (await Promise.all(ids.map((id) => live.history(id)))).flatMap((h) => (h?.[0]?.type === 'started' ? [h[0]] : []));
    const seen = new Set(starts.map((e) => e.matchId));
    for (const e of starts) send(e);
    for (const e of early) if (!(e.type === 'started' && seen.has(e.matchId))) send(e);
    deliver = send;
    return stop;
  } catch (err) {
    stop();
    throw err;
  }
}

/** One match followed: its public events so far, how to stop, and `deliver` (call once the history was sent). */
export interface FollowedMatch {
  history: LiveEvent[];
  stop: () => void;
  deliver: () => void;
}

/**
 * Follows one match from its start: `send` gets its public events so far, then each as it comes, none
 * twice and none missed. Null when nothing of it is kept (it has not started, or ended a while ago), unless
 * `waitForStart`: then (a match the store has as queued or running) it is followed from nothing kept, with the
 * one subscription made before the history was read, so a start that comes in between is not missed.
 */
export async function followMatch(
  live: LiveEvents,
  matchId: string,
  send: (e: LiveEvent) => void,
  opts: { waitForStart?: boolean } = {},
): Promise<FollowedMatch | null> {
  const early: LiveEvent[] = [];
  let onEvent: ((e: LiveEvent) => void) | null = null;
  const stop = live.subscribe(matchId, 'public', (e) => (onEvent ? onEvent(e) : void early.push(e)));
  let history: LiveEvent[] | null;
  try {
    history = await live.history(matchId);
  } catch (err) {
    stop();
    throw err;
  }
  if (!history && opts.waitForStart) history = [];
  if (!history) {
    stop();
    return null;
  }
  const sent = [...history, ...newSince(history, early)];
  early.length = 0;
  return {
    history: sent,
    stop,
    // Called once the history was sent: what came since, then everything straight to `send`.
    deliver: () => {
      for (const e of newSince(sent, early)) send(e);
      onEvent = send;
    },
  };
}
