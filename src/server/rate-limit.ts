import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

// The per-address request limits (@fastify/rate-limit, per route: registrations, checks, match requests) and
// who the address is. The address is Fastify's `req.ip`: the connection's, or, with a trusted proxy
// (`serve --trust-proxy`), the client's as that proxy forwarded it; every per-address cap reads it (these
// limits, event streams, the match quota, the failed-token throttle). With a queue (`serve --queue`) the
// counts are kept in Redis, so every web node of an arena counts the same bucket; while Redis is away each
// process counts on its own, so the limits still hold (per process) and no request waits for Redis.

/** How the request limits are counted. */
export interface RateLimitOptions {
  /** redis://… : count in Redis (the server's queue), shared by every process with the same prefix */
  redisUrl?: string;
  /** key prefix in Redis (the server's --redis-prefix) */
  prefix?: string;
  log: FastifyBaseLogger;
}

/** The option that sets each limited route's limit, for the 429's message. */
const OPTION_OF: Record<string, string> = {
  'POST /api/matches': '--match-requests-per-minute',
  'POST /api/bots': '--registrations-per-minute',
  'POST /api/bots/:id/check': '--registrations-per-minute',
};

/** Registers @fastify/rate-limit (per-route limits only: routes give theirs in `config.rateLimit`). */
export async function registerRateLimit(app: FastifyInstance, o: RateLimitOptions): Promise<void> {
  const settings: FastifyRateLimitOptions & Record<string, unknown> = {
    global: false,
    errorResponseBuilder: (req: FastifyRequest, ctx: { max: number; after: string; ttl: number }) => {
      const route = `${req.method} ${req.routeOptions.url ?? req.url.split('?')[0]}`;
      const option = OPTION_OF[route];
      const seconds = Math.max(1, Math.ceil(ctx.ttl / 1000));
      const err = new Error(
        `this client address (${req.ip}) sent more than ${ctx.max} requests to ${route} within a minute, the most this server takes${option ? ` (${option} ${ctx.max})` : ''}; retry in ${seconds} second${seconds === 1 ? '' : 's'}`,
      ) as Error & { statusCode: number };
      err.statusCode = 429;
      return err;
    },
  };
  if (o.redisUrl) {
    const { Redis } = await import('ioredis');
    // Fail at once while Redis is away (no offline queue, a short command timeout): the request is then counted
    // in this process instead of waiting.
    const redis = new Redis(o.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
      retryStrategy: (times) => Math.min(50 * 2 ** (times - 1), 1000),
    });
    redis.on('error', () => {});
    const shared = new SharedCounts(redis, `${o.prefix ?? 'botarena'}:rate:`, o.log);
    settings.store = class {
      constructor() {
        return shared.child('');
      }
    } as never;
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(rateLimit, settings);
}

type Counted = { current: number; ttl: number };
type Done = (err: Error | null, res: Counted | null) => void;

/** Counts a window's requests in Redis (INCR, and the window's expiry set by the first). */
const INCR = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

/** The most addresses one process counts on its own while Redis is away (the oldest windows go first). */
const LOCAL_MAX_KEYS = 10_000;

/** The counts of every web node, in Redis; this process's own while Redis does not answer. */
class SharedCounts {
  private readonly local = new Map<string, { n: number; until: number }>();
  private away = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {
    redis.defineCommand('botarenaRateIncr', { numberOfKeys: 1, lua: INCR });
  }

  /** The store of one route (@fastify/rate-limit calls `child` with the route's merged options). */
  child(route: string): FastifyRateLimitStore {
    const store = {
      incr: (key: string, done: Done, timeWindow: number) => this.incr(`${route}${key}`, done, timeWindow),
      child: (opts: { routeInfo: { method?: string; url?: string } }) => this.child(`${opts.routeInfo.method ?? ''}${opts.routeInfo.url ?? ''}:`),
    };
    return store as unknown as FastifyRateLimitStore;
  }

  private incr(key: string, done: Done, timeWindow: number): void {
    if (this.redis.status !== 'ready') return this.fallback(key, done, timeWindow, null);
    (this.redis as unknown as { botarenaRateIncr(k: string, ms: number): Promise<[number, number]> })
      .botarenaRateIncr(this.prefix + key, timeWindow)
      .then(([current, ttl]) => {
        if (this.away) {
          this.away = false;
          this.log.info('request limits are counted in Redis again, shared by every web node');
        }
        done(null, { current, ttl });
      })
      .catch((err: Error) => this.fallback(key, done, timeWindow, err));
  }

  /** While Redis is away: counted in this process (each web node apart), said once per outage. */
  private fallback(key: string, done: Done, timeWindow: number, err: Error | null): void {
    if (!this.away) {
      this.away = true;
      this.log.warn(
        `request limits are counted in this process while Redis does not answer (${err?.message ?? `connection ${this.redis.status}`}): each web node counts apart until it is back`,
      );
    }
    const now = Date.now();
    let w = this.local.get(key);
    if (!w || w.until <= now) {
      this.local.delete(key);
      if (this.local.size >= LOCAL_MAX_KEYS) this.local.delete(this.local.keys().next().value!);
      w = { n: 0, until: now + timeWindow };
      this.local.set(key, w);
    }
    w.n++;
    done(null, { current: w.n, ttl: w.until - now });
  }
}
