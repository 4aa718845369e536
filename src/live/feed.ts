import type { Audience, LiveEvent, LiveEvents } from './events.js';

// Decorators of the live events that every process playing matches wraps its LiveEvents in: the global feed
// (each match's start and end on one channel too) and, for a worker, only the public audience.

/** The live-events channel of the global feed (`GET /api/events`): every match's `started`, `ended`, `stopped`. */
export const FEED = 'feed';

/**
 * The live events with the global feed added: a match's public `started`, `ended` and `stopped` go to its own
 * channel and to FEED, from whichever process plays it.
 */
export function withFeed(live: LiveEvents): LiveEvents {
  return {
    publish(matchId: string, audience: Audience, event: LiveEvent) {
      live.publish(matchId, audience, event);
      if (audience === 'public' && matchId !== FEED && (event.type === 'started' || event.type === 'ended' || event.type === 'stopped'))
        live.publish(FEED, 'public', event);
    },
    subscribe: (matchId, audience, listener) => live.subscribe(matchId, audience, listener),
    history: (matchId) => live.history(matchId),
    close: () => live.close(),
  };
}

/**
 * The live events a worker publishes: only the public audience (with the feed). Servers stream nothing else
 * (the owners' messages are in the stored logs), and in Tron the per-seat messages carrying the board each
 * lap were three quarters of a worker's traffic to Redis.
 */
export function publicOnly(live: LiveEvents): LiveEvents {
  return {
    publish(matchId: string, audience: Audience, event: LiveEvent) {
      if (audience === 'public') live.publish(matchId, audience, event);
    },
    subscribe: (matchId, audience, listener) => live.subscribe(matchId, audience, listener),
    history: (matchId) => live.history(matchId),
    close: () => live.close(),
  };
}
