import { pino, type Level } from 'pino';
import { RedisLiveEvents } from '../live/redis.js';
import { openStore } from '../store/index.js';
import { MatchWorker, type WorkerOptions } from './worker.js';

/** How `botarena worker` (and tests) start a worker. */
export interface StartWorkerOptions extends Omit<WorkerOptions, 'store' | 'live' | 'log'> {
  /** a SQLite file path, or postgres://… (default: DATABASE_URL, else ./data/botarena.sqlite) */
  database?: string;
  logLevel?: Level | 'silent';
  logStream?: NodeJS.WritableStream;
}

/** A running worker: its name, and how to stop it (matches under way get `graceMs`, then go back to the queue). */
export interface RunningWorker {
  worker: MatchWorker;
  close(graceMs?: number): Promise<void>;
}

/** Opens the store and the live events, and starts taking matches from the queue. */
export async function startWorker(o: StartWorkerOptions): Promise<RunningWorker> {
  const logger = pino({ level: o.logLevel ?? 'info', base: undefined }, o.logStream as never);
  // The store says in this log when its disk is full, once, and when it writes again.
  const store = await openStore(o.database ?? process.env.DATABASE_URL, { log: logger });
  const live = new RedisLiveEvents({ url: o.url, prefix: o.prefix, log: (line: string) => logger.warn(line) });
  const worker = new MatchWorker({ ...o, store, live, log: logger });
  worker.start();
  let closing: Promise<void> | null = null;
  return {
    worker,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        await worker.stop(graceMs);
        await live.close();
        await store.close();
      })();
      return closing;
    },
  };
}
