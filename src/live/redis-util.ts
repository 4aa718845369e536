// Small pieces around a Redis connection, for the live events' class (redis.ts) and the logs: the URL with
// its password hidden, a command given a deadline, and a Redis error in words.

/** A redis:// URL with its password replaced by `***`, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(a Redis URL that does not parse)';
  }
}

/** Reconnection attempts a queued command waits through before it fails (ioredis's maxRetriesPerRequest). */
export const MAX_RETRIES = 2;

/** `p`, or a rejection after `ms` (the command may still run; its answer is then ignored). */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  p.catch(() => {}); // a late failure of a command given up on is not an unhandled rejection
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export function isReplyError(err: unknown): boolean {
  return err instanceof Error && err.name === 'ReplyError';
}

/** A Redis error's message; Node's AggregateError (one per address tried) has none of its own. */
export function describe(err: unknown): string {
  if (err instanceof Error && err.name === 'MaxRetriesPerRequestError') return `not connected (given up after ${MAX_RETRIES} reconnection attempts)`;
  if (err instanceof AggregateError && !err.message) return err.errors.map(describe).join('; ') || 'connection failed';
  if (err instanceof Error) return err.message || (err as NodeJS.ErrnoException).code || err.name;
  return String(err);
}
