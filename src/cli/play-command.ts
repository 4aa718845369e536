import type { Command } from 'commander';
import { JOB_LIMITS } from '../arena/match-job.js';
import { getGame } from '../games/index.js';
import { withSandboxOptions } from './sandbox-flags.js';
import { withTimeRuleOptions } from './time-rule-flags.js';
import { botEnvHelp, collectBotEnv, collectKeyValue, parseNonNegativeInt, parsePositiveInt } from './options.js';
// Only the type: the match's code (play-match.ts) is loaded when a match runs, not to print the help.
import type { PlayOptions } from './play-match.js';

export type { PlayOptions };

/** `botarena play <game> <bot> <bot>…`: one match, a readable summary (or one JSON result). */
export function registerPlay(program: Command): void {
  const play = program
    .command('play')
    .description('run one match between bots and print who won and why')
    .argument('<game>', 'game id (see `botarena games`)')
    .argument('<bots...>', 'one bot spec per seat, in slot order (see "bot specs" below)');
  withMatchOptions(play).action(async (gameId: string, bots: string[], o: PlayOptions) =>
    (await import('./play-match.js')).playMatch(getGame(gameId), bots, o),
  );
}

/** Adds the options of a match (seed, config, deadlines, names, replay, log, watch, json, port) to a command. */
export function withMatchOptions(command: Command): Command {
  return withTimeRuleOptions(withSandboxOptions(command, 'run stdio and exec bots'))
    .option('--seed <n>', 'match seed (0..4294967295); random when absent, always printed', parseNonNegativeInt('--seed', 0xffffffff))
    .option('--set <key=value>', 'game config, repeatable (see `botarena games`)', collectKeyValue('--set'))
    .option(
      '--timeout <ms>',
      `deadline per turn answer, 1..${JOB_LIMITS.deadlineMs} (default: the game's)`,
      parsePositiveInt('--timeout', JOB_LIMITS.deadlineMs),
    )
    .option(
      '--init-timeout <ms>',
      `deadline for the init answer, 1..${JOB_LIMITS.deadlineMs} (default: the game's); for tcp seats also how long to wait for them to join (default: 60 s)`,
      parsePositiveInt('--init-timeout', JOB_LIMITS.deadlineMs),
    )
    .option('--name <slot=name>', 'display name of a seat, repeatable', collectKeyValue('--name'))
    .option('--replay <file>', 'write the replay to FILE (.gz to compress)')
    .option('--log', 'print every message sent and received, per bot, with timing, on stderr as it happens (and keep them in the replay)')
    .option('--watch', 'print the board after every turn')
    .option(
      '--delay <ms>',
      'with --watch: at least MS between two boards, to follow a fast match by eye (the match itself is not slowed)',
      parseNonNegativeInt('--delay', 60_000),
    )
    .option('--json', 'print exactly one JSON result on stdout')
    .option('--port <n>', 'for tcp seats: the port bots connect to and join (default 3002)', parseNonNegativeInt('--port', 65535))
    .option('--bot-env <NAME[=VALUE]>', botEnvHelp('yours; under --sandbox its private /tmp'), collectBotEnv)
    .option(
      '--pause-between-turns',
      'stop stdio bots (SIGSTOP) once they answered and let them run again (SIGCONT) with their next message, so none computes while the others play',
    );
}
