import type { Command } from 'commander';
import { JOB_LIMITS } from '../arena/match-job.js';
import { getGame } from '../games/index.js';
import { botEnvHelp, collectBotEnv, parseNonNegativeInt, parsePositiveInt } from './options.js';

interface DoctorCliOptions {
  json?: boolean;
  log?: boolean;
  seed?: number;
  timeout?: number;
  initTimeout?: number;
  port?: number;
  botEnv?: Record<string, string>;
}

const MARK = { pass: '✔', fail: '✘', warn: '!', skip: '–' } as const;

/** `botarena doctor GAME BOT`: feeds the bot a canned match of its game and prints a checklist; exit 0 when nothing failed. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      'check a bot: feed it a canned match of its game from two seats, judge every answer by the rules in its position, and list what passes and what to fix (start-up, every message type, flushing, stdout, exit, answer times, HTTP); exit 0 when no check fails',
    )
    .argument('<game>', 'game id (see `botarena games`)')
    .argument('<bot>', 'the bot spec, as for `play` ("stdio:python3 bot.py", http://127.0.0.1:8000/, tcp)')
    .option('--json', 'print the report as one JSON object')
    .option('--log', 'print every message sent and received, per seat fed, on stderr as it happens')
    .option('--seed <n>', 'feed another canned match (the same built-in bots, another seed)', parseNonNegativeInt('--seed', 0xffffffff))
    .option('--timeout <ms>', "deadline per turn answer (default: the game's)", parsePositiveInt('--timeout', JOB_LIMITS.deadlineMs))
    .option(
      '--init-timeout <ms>',
      "deadline for the first answer (default: the game's); for tcp bots also how long to wait for them to join (default: 60 s)",
      parsePositiveInt('--init-timeout', JOB_LIMITS.deadlineMs),
    )
    .option('--port <n>', 'for tcp bots: the port the bot connects to and joins (default 3002)', parseNonNegativeInt('--port', 65535))
    .option('--bot-env <NAME[=VALUE]>', botEnvHelp('yours'), collectBotEnv)
    .action(async (gameId: string, bot: string, o: DoctorCliOptions) => {
      const game = getGame(gameId);
      const [{ doctor }, { capabilitiesOf, parseBotSpec }, { transcriptLine }] = await Promise.all([
        import('../arena/doctor.js'),
        import('../bots/index.js'),
        import('./format.js'),
      ]);
      const spec = parseBotSpec(bot, game); // a typo is reported before anything runs
      let connect;
      if (capabilitiesOf(spec).connectIn) {
        const { acceptJoins } = await import('../bots/connect-in.js');
        if (!game.wire.lobby) throw new (await import('../core/errors.js')).UsageError(`${game.id} bots cannot connect in: use stdio: or http:`);
        connect = async () => {
          const log = (l: string) => process.stderr.write(`${l}\n`);
          const [joined] = await acceptJoins({ port: o.port ?? 3002, host: '127.0.0.1', lobby: game.wire.lobby!, count: 1, waitMs: o.initTimeout, log });
          return joined!.connection;
        };
      }
      if (!o.json) process.stderr.write(`checking ${bot} at ${game.id}…\n`);
      const report = await doctor(game, bot, {
        initMs: o.initTimeout,
        turnMs: o.timeout,
        seed: o.seed,
        connect,
        botEnv: { pass: o.botEnv, home: 'user' },
        log: o.log ? (seat, e) => process.stderr.write(`seat ${seat} ${transcriptLine(e, 9)}\n`) : undefined,
      });
      process.exitCode = report.ok ? 0 : 1;
      if (o.json) {
        process.stdout.write(JSON.stringify(report) + '\n');
        return;
      }
      const lines = [
        `${game.id}: fed the canned match ${report.canned.bots.join(' vs ')} (seed ${report.canned.seed}, ${report.canned.steps} steps) as seat ${report.canned.seats.join(' and seat ')}`,
        '',
      ];
      for (const c of report.checks) {
        const [head, ...rest] = c.detail.split('\n');
        lines.push(`${MARK[c.status]} ${c.name}: ${head}`);
        for (const r of rest) lines.push(`    ${r}`);
        if (c.fix) lines.push(`    fix: ${c.fix}`);
      }
      const count = (s: string) => report.checks.filter((c) => c.status === s).length;
      lines.push(
        '',
        `${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warnings${count('skip') ? `, ${count('skip')} not checked` : ''}${report.ok ? '' : ' — see `botarena doctor --log` for every message'}`,
      );
      process.stdout.write(lines.join('\n') + '\n');
    });
}
