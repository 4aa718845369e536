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
  opts: {
    waitForStart?: boolean;
    /**
     * how a viewer learns an end its live events lost (published while their link was down: a Redis restart):
     * asked every `checkMs` once the history was sent, the match's `ended` or `stopped` as the store has it, or
     * null while it plays on
     */
    overInStore?: () => Promise<LiveEvent | null>;
    checkMs?: number;
  } = {},
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
  // What the viewer gets goes through the gap guard: the history into a list, then the live events to `send`.
  const out: LiveEvent[] = [];
  let sink: (e: LiveEvent) => void = (e) => out.push(e);
  const guard = gapGuard(matchId, (e) => sink(e));
  for (const e of sent) guard(e);
  let over = sent.some((e) => e.type === 'ended' || e.type === 'stopped');
  let watch: NodeJS.Timeout | null = null;
  const guarded = (e: LiveEvent) => {
    if (over) return;
    if (e.type === 'ended' || e.type === 'stopped') {
      over = true;
      if (watch) clearInterval(watch);
    }
    guard(e);
  };
  return {
    history: out,
    stop: () => {
      if (watch) clearInterval(watch);
      stop();
    },
    // Called once the history was sent: what came since, then everything straight to `send`.
    deliver: () => {
      sink = send;
      for (const e of newSince(sent, early)) guarded(e);
      onEvent = guarded;
      const check = opts.overInStore;
      if (!check || over) return;
      watch = setInterval(() => {
        check().then(
          (e) => e && guarded(e),
          () => {}, // the store away: asked again at the next check
        );
      }, opts.checkMs ?? 5_000);
      watch.unref();
    },
  };
}

/**
 * A viewer's stream of one match, checked by step index: a step already given is not given again; a step past
 * the next one (steps missed: the live events lost their link for a while, as in a Redis outage) is preceded by
 * `truncated`, which tells the viewer to wait for the replay (and no later gap is told again); a second `started`
 * after steps (the match played again from its start by another attempt, its worker having stopped) is
 * preceded by `restarted`, and the count starts again.
 */
export function gapGuard(matchId: string, send: (e: LiveEvent) => void): (e: LiveEvent) => void {
  let started = false;
  let lastStep = -1;
  let holed = false;
  return (e) => {
    if (e.type === 'truncated') holed = true;
    else if (e.type === 'started') {
      if (started)
        send({
          type: 'restarted',
          matchId,
          reason: 'the match starts again from its first step: the process playing it stopped, and another plays it from the start',
        });
      started = true;
      lastStep = -1;
      holed = false;
    } else if (e.type === 'step') {
      if (e.index <= lastStep) return;
      if (e.index > lastStep + 1 && started && !holed) {
        holed = true;
        send(missed(matchId, lastStep + 1, e.index - 1));
      }
      lastStep = e.index;
    } else if (e.type === 'ended' && e.steps !== undefined && started && !holed && lastStep + 1 < e.steps) {
      // An end from the store after steps the live events lost: the viewer is told they are missing.
      holed = true;
      send(missed(matchId, lastStep + 1, e.steps - 1));
    }
    send(e);
  };
}

/** The `truncated` event of steps `from`..`to` missed live. */
function missed(matchId: string, from: number, to: number): LiveEvent {
  return {
    type: 'truncated',
    matchId,
    steps: to - from + 1,
    reason: `the live stream missed step${from === to ? ` ${from}` : `s ${from} to ${to}`} (its link to the match's events was lost for a while); the replay has every step once the match ends`,
  };
}
