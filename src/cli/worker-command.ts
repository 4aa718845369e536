import { Option, type Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { botEnvHelp, collectBotEnv, parseNonNegativeInt, parsePositiveInt } from './options.js';
import { withCommandsSandboxOptions, type CommandsSandboxFlags } from './sandbox-flags.js';
import { uploadSetup, withUploadOptions, type UploadFlags } from './upload-flags.js';

interface WorkerCliOptions extends CommandsSandboxFlags, UploadFlags {
  queue: string;
  database?: string;
  concurrency: number;
  name?: string;
  lockMs: number;
  maxTries: number;
  graceMs: number;
  unplayableMs: number;
  allowCommands?: boolean;
  allowPrivateBots?: boolean;
  botEnv?: Record<string, string>;
  redisPrefix: string;
  metricsPort?: number;
  metricsHost: string;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
}

/** `botarena worker`: plays the matches a `botarena serve --queue` enqueues. */
export function registerWorker(program: Command): void {
  // The sandbox's options (--sandbox*, --unsandboxed-commands): one block, added first, read in the action.
  withUploadOptions(withCommandsSandboxOptions(program.command('worker')), 'worker')
    .description(
      "play the matches of an arena server started with --queue: take them from its Redis queue (BullMQ), record results, replays and ratings in its database (DATABASE_URL: the same as the server's), stream them live through Redis",
    )
    .requiredOption('--queue <redis-url>', 'the Redis the server enqueues on, e.g. redis://127.0.0.1:6379')
    .option(
      '--database <path|url>',
      "the server's database: postgres://… (or, on the server's own machine, its SQLite file); default $DATABASE_URL, else ./data/botarena.sqlite",
    )
    .option('--concurrency <k>', 'matches played at once by this worker', parsePositiveInt('--concurrency', 256), 1)
    .option('--name <name>', "this worker's name, recorded with each match it plays (default: host, pid and a random tag)")
    .option(
      '--lock-ms <ms>',
      "a killed worker's match is played again by another this long after it stopped answering",
      parsePositiveInt('--lock-ms', 3_600_000),
      30_000,
    )
    .option(
      '--max-tries <n>',
      'a match started this many times without finishing (its workers died or stopped) is aborted',
      parsePositiveInt('--max-tries', 100),
      3,
    )
    .option(
      '--grace-ms <ms>',
      'on SIGTERM or Ctrl-C, how long the matches under way get to end; those still playing then go back to the queue at once, for another worker',
      parseNonNegativeInt('--grace-ms', 3_600_000),
      10_000,
    )
    .option(
      '--unplayable-ms <ms>',
      'a match that no running worker can play (it needs --allow-commands, a program or a file none has) waits this long for one that can, then is aborted saying what each lacked',
      parsePositiveInt('--unplayable-ms', 7 * 24 * 3_600_000),
      600_000,
    )
    .option(
      '--allow-commands',
      "run bots that are commands on this machine (stdio:, exec:), sandboxed unless --unsandboxed-commands, as the server's --allow-commands",
    )
    .option('--allow-private-bots', "let HTTP bots be at loopback, private or link-local addresses, as the server's --allow-private-bots")
    .option('--bot-env <NAME[=VALUE]>', botEnvHelp('a fresh private folder per bot process'), collectBotEnv)
    .option('--redis-prefix <prefix>', "the Redis key prefix (the server's --redis-prefix)", 'botarena')
    .option(
      '--metrics-port <n>',
      'serve Prometheus text at http://HOST:N/metrics (off without it; 0: a free port, logged); with $BOTARENA_METRICS_TOKEN set, only with "Authorization: Bearer" that token',
      parseNonNegativeInt('--metrics-port', 65535),
    )
    .option('--metrics-host <address>', 'with --metrics-port: the address it listens on (0.0.0.0 for every interface)', '127.0.0.1')
    .addOption(new Option('--log-level <level>', 'log detail').choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'))
    .action(async (o: WorkerCliOptions) => {
      // --allow-commands runs commands sandboxed unless --unsandboxed-commands; a sandbox that cannot run here stops the start.
      const sandbox = (await import('./commands-sandbox.js')).commandsSandbox('worker', o, o.database ?? process.env.DATABASE_URL);
      const { checkQueueUrl } = await import('../queue/bullmq.js');
      try {
        checkQueueUrl(o.queue);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      const { startWorker } = await import('../worker/start.js');
      const worker = await startWorker({
        url: o.queue,
        database: o.database,
        concurrency: o.concurrency,
        name: o.name,
        lockMs: o.lockMs,
        maxTries: o.maxTries,
        unplayableMs: o.unplayableMs,
        allowCommands: o.allowCommands ?? false,
        allowPrivateBots: o.allowPrivateBots ?? false,
        botEnv: o.botEnv,
        sandbox,
        uploads: uploadSetup(o, sandbox),
        prefix: o.redisPrefix,
        logLevel: o.logLevel,
        metrics: o.metricsPort === undefined ? undefined : { port: o.metricsPort, host: o.metricsHost, token: process.env.BOTARENA_METRICS_TOKEN || undefined },
      });
      // SIGINT/SIGTERM: take no more matches, let those under way end (--grace-ms); the rest go back to the queue
      // at once. A second signal stops at once (the bots' process groups are killed with the process).
      await new Promise<void>((resolve) => {
        const stop = (sig: NodeJS.Signals) => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          process.stderr.write(
            `botarena worker: ${sig}: finishing the matches under way (${o.graceMs / 1000} s at most; the rest go back to the queue), then stopping\n`,
          );
          // Connections left reconnecting to an unreachable Redis would keep the process alive: exit once closed.
          void worker.close(o.graceMs).then(() => (resolve(), process.exit(0)));
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
