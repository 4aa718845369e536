import { pino, type Level } from 'pino';
import { RedisLiveEvents } from '../live/redis.js';
import { ArenaMetrics, serveMetrics, type MetricsServer } from '../metrics/metrics.js';
import { openStore } from '../store/index.js';
import { MatchWorker, type WorkerOptions } from './worker.js';

/** How `botarena worker` (and tests) start a worker. */
export interface StartWorkerOptions extends Omit<WorkerOptions, 'store' | 'live' | 'log' | 'observe'> {
  /** a SQLite file path, or postgres://… (default: DATABASE_URL, else ./data/botarena.sqlite) */
  database?: string;
  logLevel?: Level | 'silent';
  logStream?: NodeJS.WritableStream;
  /**
   * Prometheus text at http://HOST:PORT/metrics (`--metrics-port`; off without it): host default 127.0.0.1,
   * port 0 a free one; with `token`, only for `Authorization: Bearer TOKEN`
   */
  metrics?: { port: number; host?: string; token?: string };
}

/** A running worker: its name, and how to stop it (matches under way get `graceMs`, then go back to the queue). */
export interface RunningWorker {
  worker: MatchWorker;
  /** the port its /metrics listens on, or null when it serves none */
  metricsPort: number | null;
  close(graceMs?: number): Promise<void>;
}

/** Opens the store and the live events, and starts taking matches from the queue. */
export async function startWorker(o: StartWorkerOptions): Promise<RunningWorker> {
  const logger = pino({ level: o.logLevel ?? 'info', base: undefined }, o.logStream as never);
  // The store says in this log when its disk is full, once, and when it writes again.
  const store = await openStore(o.database ?? process.env.DATABASE_URL, { log: logger });
  const live = new RedisLiveEvents({ url: o.url, prefix: o.prefix, log: (line: string) => logger.warn(line) });
  const metrics = o.metrics ? new ArenaMetrics(o.concurrency ?? 1) : null;
  let served: MetricsServer | null = null;
  if (metrics && o.metrics) {
    try {
      served = await serveMetrics(metrics, { port: o.metrics.port, host: o.metrics.host ?? '127.0.0.1', token: o.metrics.token });
    } catch (err) {
      await live.close();
      await store.close();
      throw new Error(`--metrics-port ${o.metrics.port}: cannot listen on ${o.metrics.host ?? '127.0.0.1'}: ${(err as Error).message}`, { cause: err });
    }
    logger.info(
      { metrics: `http://${o.metrics.host ?? '127.0.0.1'}:${served.port}/metrics` },
      `metrics at http://${o.metrics.host ?? '127.0.0.1'}:${served.port}/metrics`,
    );
  }
  const worker = new MatchWorker({ ...o, store, live, log: logger, observe: metrics ?? undefined });
  worker.start();
  let closing: Promise<void> | null = null;
  return {
    worker,
    metricsPort: served?.port ?? null,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        await worker.stop(graceMs);
        await served?.close();
        await live.close();
        await store.close();
      })();
      return closing;
    },
  };
}
