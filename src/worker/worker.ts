import type { Job } from 'bullmq';
import type { SandboxOptions } from '../bots/sandbox-options.js';
import type { ArenaPolicy } from '../store/index.js';
import type { FastifyBaseLogger } from 'fastify';
import type { MatchJob } from '../arena/match-job.js';
import { publicOnly, withFeed } from '../live/feed.js';
import type { LiveEvents } from '../live/events.js';
import { redactRedisUrl } from '../live/redis.js';
import { matchHandler, type MatchObserver } from '../matches/handler.js';
import { commandSeats, connectedSeats } from '../matches/play.js';
import { commandMissing, parseBotSpec, withLimits } from '../bots/index.js';
import { games } from '../games/index.js';
import type { MatchJobData } from '../queue/bullmq.js';
import type { MatchHandler } from '../queue/port.js';
import { BullMatchConsumer } from '../queue/bullmq-consumer.js';
import type { Store } from '../store/index.js';
import { nodeName } from '../matches/node-name.js';
import { uploadRefusal, type UploadCache } from '../registry/upload/cache.js';

/** How a worker runs. */
export interface WorkerOptions {
  /** redis://… : the queue the server enqueues on */
  url: string;
  prefix?: string;
  store: Store;
  /** the live events (RedisLiveEvents on the same Redis, so every server streams this worker's matches) */
  live: LiveEvents;
  log: FastifyBaseLogger;
  /** matches played at once (default 1) */
  concurrency?: number;
  /** this worker's name, recorded with each match it plays (default: host name, pid and a random tag) */
  name?: string;
  /**
   * how long a match stays this worker's without it saying it is alive (default 30 s): a worker killed
   * mid-match loses it that long after, and another worker plays it again from the start
   */
  lockMs?: number;
  /**
   * a match started this many times by workers that died (or could not hand it back) is aborted instead
   * (default 3); the starts that workers stopping handed back do not count
   */
  maxTries?: number;
  /** whether bots may be commands on this machine (stdio:, exec:), as the server's --allow-commands */
  allowCommands?: boolean;
  /** whether HTTP bots may be at private addresses, as the server's --allow-private-bots */
  allowPrivateBots?: boolean;
  /** variables passed to the bot programs' environment (`--bot-env`), besides the allow-list; their HOME is private */
  botEnv?: Record<string, string>;
  /** how bot programs are confined (`--sandbox*`; on by default with --allow-commands unless --unsandboxed-commands) */
  sandbox?: SandboxOptions;
  /** the arena's policy as the store holds it now (start.ts keeps it fresh); it rules over allowPrivateBots */
  arenaPolicy?: () => ArenaPolicy | null;
  /**
   * how long a match that no running worker can play (it needs commands, a runtime or a file none has) waits for
   * one that can before it is aborted (default 10 min)
   */
  unplayableMs?: number;
  /** told of the matches this worker plays (its metrics) */
  observe?: MatchObserver;
  /** uploaded code: this worker's cache (and the languages it runs); none: it runs no uploaded code */
  uploads?: UploadCache;
}

/** Why no worker plays a match (it is aborted), or null when a worker may. */
function refusal(job: MatchJob): string | null {
  if (connectedSeats(job).length) return 'its players connect to a server (a person, smart-dog TCP bots), and a worker cannot seat them';
  return null;
}

/**
 * Why this worker cannot play a match that another worker could (it is passed on to one), or null when it can:
 * a seat is a command and this worker runs none, or its program or a file it names is not on this machine.
 */
function notHere(job: MatchJob, allowCommands: boolean): string | null {
  const game = games[job.game];
  if (!game) return null;
  for (const slot of commandSeats(job)) {
    if (!allowCommands) return `seat ${slot} is a command (stdio:/exec:) and this worker runs no commands (start it with --allow-commands, as the server)`;
    const spec = parseBotSpec(job.seats[slot]!.bot, game);
    const missing = 'command' in spec ? commandMissing(spec.command, process.cwd(), process.env.PATH ?? '') : null;
    if (missing) return `seat ${slot}'s command (${spec.raw.slice(0, 200)}): ${missing}`;
  }
  return null;
}

/**
 * A match worker (`botarena worker`), the worker app's composition: a BullMQ consumer of the match queue
 * (queue/bullmq-consumer.ts) whose handler is the application layer's (matches/handler.ts: read, claim,
 * play, record, the same path as the server's). A match cancelled when the worker stops goes back to the
 * queue for another worker, not aborted.
 */
export class MatchWorker {
  readonly name: string;
  private readonly consumer: BullMatchConsumer;

  constructor(private readonly o: WorkerOptions) {
    this.name = o.name ?? nodeName('worker');
    const allowCommands = o.allowCommands ?? false;
    const live = withFeed(publicOnly(o.live));
    const maxTries = o.maxTries ?? 3;
    // A match that stopping workers handed back unfinished (the consumer counts the hand-backs in its job) is
    // allowed those starts on top of maxTries, so a rolling deploy never aborts it; only starts
    // that ended otherwise (a worker killed, a machine lost) count against it.
    const handlerFor = (handedBack: number): MatchHandler =>
      matchHandler({
        store: o.store,
        live,
        log: o.log,
        node: this.name,
        // The arena's policy (the server's, from the store) when there is one, read at each match; else this worker's flag.
        get addressPolicy() {
          const policy = o.arenaPolicy?.();
          return (policy ? policy.allowPrivateBots : o.allowPrivateBots) ? 'any' : 'public-only';
        },
        botEnv: o.botEnv,
        // The arena's limits on each bot (its server's --sandbox-*), read at each match; this machine's folders.
        sandbox: o.sandbox ? withLimits(o.sandbox, o.arenaPolicy?.()?.sandboxLimits) : undefined,
        maxTries: maxTries + handedBack,
        // An attempt's heartbeat in the store lasts as long as the job's lock in Redis (fencing: handler.ts).
        aliveMs: o.lockMs,
        cancelled: 'retry',
        uploads: o.uploads,
        refuse: refusal,
        // A seat's uploaded code in a language this worker lacks (uploadRefusal): the match is another worker's.
        notHere: (job) => notHere(job, allowCommands) ?? uploadRefusal(job, o.uploads ? { languages: o.uploads.languages } : null),
        observe: o.observe,
      });
    this.consumer = new BullMatchConsumer({
      url: o.url,
      prefix: o.prefix,
      handler: async (matchId, signal, handedBack) => {
        try {
          return await handlerFor(handedBack)(matchId, signal);
        } catch (err) {
          // Cancelled by the stop: the store says it waits for a worker again (queued), so the next claims it at
          // once; the consumer then puts its job back. A failure here leaves it running: the next claims it all the same.
          if (signal.aborted)
            await o.store.releaseMatch(matchId, this.name).catch((e: unknown) => {
              o.log.warn({ match: matchId, err: (e as Error).message }, 'the match handed back could not be marked queued in the store');
            });
          throw err;
        }
      },
      log: o.log,
      concurrency: o.concurrency,
      lockMs: o.lockMs,
      maxTries: o.maxTries,
      name: this.name,
      unplayableMs: o.unplayableMs,
      // No worker could play it for that long: aborted, saying what each lacked.
      unplayable: async (matchId, reason) => {
        const m = await o.store.getMatch(matchId);
        if (!m || (m.status !== 'queued' && m.status !== 'running')) return;
        if (await o.store.abortMatch(matchId, reason, m.tries)) {
          o.observe?.aborted(m.game);
          o.log.warn({ match: matchId, worker: this.name }, `match aborted: ${reason}`);
          live.publish(matchId, 'public', { type: 'stopped', matchId, reason });
        }
      },
    });
  }

  /** Starts taking matches from the queue. */
  start(): void {
    this.consumer.start();
    this.o.log.info(
      { worker: this.name, queue: redactRedisUrl(this.o.url), concurrency: this.o.concurrency ?? 1, database: this.o.store.describe() },
      `botarena worker ${this.name} takes matches from ${redactRedisUrl(this.o.url)}`,
    );
  }

  /** Matches being played now, by id. */
  get active(): string[] {
    return this.consumer.active;
  }

  /**
   * Stops taking matches; those under way get `graceMs` to end, then go back to the queue at once for another
   * worker (not aborted, and not counted against their tries).
   */
  stop(graceMs = 10_000): Promise<void> {
    return this.consumer.stop(graceMs);
  }

  /** Plays one match job; returns what became of it (BullMQ keeps it as the job's return value). */
  process(job: Pick<Job<MatchJobData>, 'data'>): Promise<string> {
    return this.consumer.process(job);
  }
}
