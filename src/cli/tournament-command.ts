import { InvalidArgumentError, Option, type Command } from 'commander';
import { JOB_LIMITS } from '../arena/match-job.js';
import { getGame } from '../games/index.js';
import { withTimeRuleOptions } from './time-rule-flags.js';
import { botEnvHelp, collectBotEnv, collectKeyValue, parseNonNegativeInt, parsePositiveInt } from './options.js';
// Only the types: the tournament's code (tournament-run.ts) is loaded when one runs, not to print the help.
import type { AbOptions, TournamentOptions } from './tournament-run.js';

function withManyOptions(command: Command): Command {
  return withTimeRuleOptions(command)
    .option('--concurrency <k>', 'matches at once, each on its own thread (default: the number of cores)', parsePositiveInt('--concurrency', 256))
    .option('--seed <n>', 'the seed every match seed is derived from (random when absent, always printed)', parseNonNegativeInt('--seed', 0xffffffff))
    .option('--set <key=value>', 'game config, repeatable (see `botarena games`)', collectKeyValue('--set'))
    .option(
      '--timeout <ms>',
      `deadline per turn answer, 1..${JOB_LIMITS.deadlineMs} (default: the game's)`,
      parsePositiveInt('--timeout', JOB_LIMITS.deadlineMs),
    )
    .option('--init-timeout <ms>', "deadline for the init answer (default: the game's)", parsePositiveInt('--init-timeout', JOB_LIMITS.deadlineMs))
    .option(
      '--name <index=name>',
      'the name of the bot at INDEX (from 0, in the order given), repeatable; names identify bots in results and ratings',
      collectKeyValue('--name'),
    )
    .option('--json', 'print the outcome as one JSON object on stdout')
    .option('--bot-env <NAME[=VALUE]>', botEnvHelp('yours'), collectBotEnv);
}

/** A real number option in a range. */
function parseNumber(what: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!value.trim() || !Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(`${what} must be a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
    return n;
  };
}

/** `botarena tournament` and `botarena ab`: many matches on this machine, with standings, ratings and tests. */
export function registerTournament(program: Command): void {
  const t = program
    .command('tournament')
    .description(
      'play many matches between bots: a round-robin (duels in pairs with the seats swapped; all the bots at once in games for more players), a Swiss, a gauntlet or a knockout; prints standings, ELO and OpenSkill ratings, faults and a head-to-head table',
    )
    .argument('<game>', 'game id (see `botarena games`)')
    .argument('<bots...>', 'two or more bot specs (see `botarena play --help`)')
    .addOption(new Option('--format <format>', 'how bots are paired').choices(['round-robin', 'swiss', 'gauntlet', 'knockout']).default('round-robin'))
    .option(
      '--games <n>',
      'games per pairing, played in pairs with the seats swapped (default 2); all-bots matches: matches in all (default: one per seat)',
      parsePositiveInt('--games', 1_000_000),
    )
    .option('--rounds <n>', 'Swiss: rounds (default: ⌈log₂ bots⌉)', parsePositiveInt('--rounds', 1000));
  // ab keeps no files, so only tournament has --out.
  withManyOptions(t).option('--out <dir>', 'keep every replay and an append-only results file in DIR; the same command again resumes where it stopped');
  t.action(async (gameId: string, bots: string[], o: TournamentOptions) => (await import('./tournament-run.js')).runTournament(getGame(gameId), bots, o));

  const ab = program
    .command('ab')
    .description(
      'is the candidate better than the baseline? plays paired games (the same seed, the seats swapped) until a sequential probability ratio test decides or --max-games is reached; prints the Elo difference with its 95 % interval, the likelihood of superiority and the decision. Exit 0: the candidate is better (H1); 1: it is not better by elo1 (H0); 3: undecided, at --max-games or because the games only repeat (a long run of pairs that copied earlier ones, move for move); 130: stopped with Ctrl-C (what the pairs finished so far say is printed)',
    )
    .argument('<game>', 'game id (see `botarena games`)')
    .argument('<candidate>', 'the new version (a bot spec)')
    .argument('<baseline>', 'the version to beat (a bot spec)')
    .option(
      '--opponents <bots...>',
      'play both against these bots (each pair: candidate and baseline on the same seed and seat against the same opponent) instead of against each other',
    )
    .option('--elo0 <elo>', 'H0: the candidate is at most this much better', parseNumber('--elo0', -1000, 1000), 0)
    .option('--elo1 <elo>', 'H1: the candidate is at least this much better', parseNumber('--elo1', -1000, 1000), 10)
    .option('--alpha <p>', 'the chance of accepting H1 when H0 holds', parseNumber('--alpha', 1e-6, 0.5), 0.05)
    .option('--beta <p>', 'the chance of accepting H0 when H1 holds', parseNumber('--beta', 1e-6, 0.5), 0.05)
    .option('--max-games <n>', 'stop undecided after this many games', parsePositiveInt('--max-games', 10_000_000), 1000);
  withManyOptions(ab).action(async (gameId: string, candidate: string, baseline: string, o: AbOptions) =>
    (await import('./tournament-run.js')).runAb(getGame(gameId), candidate, baseline, o),
  );
}
