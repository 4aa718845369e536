import { pino, type Level } from 'pino';
import { LocalLiveEvents } from '../live/local.js';
import { openStore } from '../store/index.js';
import { buildApp } from './app.js';
import { Arena, type ArenaOptions } from './arena.js';
import { botRoutes } from './routes/bots.js';
import { matchRoutes } from './routes/matches.js';

/** How `botarena serve` (and tests) start a server. */
export interface ServeOptions extends Partial<ArenaOptions> {
  port: number;
  host: string;
  /** a SQLite file path, or postgres://… (default: DATABASE_URL, else ./data/botarena.sqlite) */
  database?: string;
  logLevel?: Level | 'silent';
  /** where log lines go (default stdout) */
  logStream?: NodeJS.WritableStream;
  limits?: { registrations: number; matches: number };
}

/** A running server: its URL, its arena, and how to stop it (matches get `graceMs` to end). */
export interface RunningServer {
  url: string;
  arena: Arena;
  close(graceMs?: number): Promise<void>;
}

/** Opens the store (migrated), registers the built-in bots, starts the ladder and the HTTP API. */
export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const logger = pino({ level: o.logLevel ?? 'info', base: undefined }, o.logStream as never);
  const store = await openStore(o.database ?? process.env.DATABASE_URL);
  const live = new LocalLiveEvents({ log: (line) => logger.warn(line) });
  const allowPrivateBots = o.allowPrivateBots ?? (o.host === '127.0.0.1' || o.host === 'localhost' || o.host === '::1');
  const arena = new Arena(
    store,
    live,
    {
      concurrency: o.concurrency ?? 2,
      allowCommands: o.allowCommands ?? false,
      allowPrivateBots,
      adminToken: o.adminToken ?? process.env.BOTARENA_ADMIN_TOKEN,
      ladder: o.ladder ?? true,
      timeouts: o.timeouts,
      ladderConfig: o.ladderConfig,
      perBotPerHour: o.perBotPerHour,
      checkBots: o.checkBots,
    },
    logger,
  );
  const limits = o.limits ?? { registrations: 20, matches: 60 };
  const app = await buildApp({ logger, limits, areas: [botRoutes(arena, limits), matchRoutes(arena, limits)] });
  await arena.start();
  const address = await app.listen({ port: o.port, host: o.host });
  logger.info({ url: address, database: store.describe(), allowCommands: arena.opts.allowCommands, allowPrivateBots }, `botarena server at ${address} (API docs at ${address}/docs)`);
  let closing: Promise<void> | null = null;
  return {
    url: address,
    arena,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        await arena.stop(graceMs);
        await app.close();
        await live.close();
        await store.close();
      })();
      return closing;
    },
  };
}
