import type { Command } from 'commander';
import { JOB_LIMITS, type JobTimeouts } from '../arena/match-job.js';
import { parseNonNegativeInt, parsePositiveInt } from './options.js';

/** The time-rule options a command that runs matches takes (`play`, `tournament`, `ab`). */
export interface TimeRuleFlags {
  firstMs?: number;
  bankMs?: number;
  strikes?: number;
}

/** Adds the time rules' options (issue 38): a first-answer allowance, a time bank, strikes. */
export function withTimeRuleOptions(command: Command): Command {
  return command
    .option(
      '--first-ms <ms>',
      `deadline of each bot's first answer in play, 1..${JOB_LIMITS.deadlineMs}, as CodinGame's longer first turn (hellos keep --init-timeout; default: the turn deadline)`,
      parsePositiveInt('--first-ms', JOB_LIMITS.deadlineMs),
    )
    .option(
      '--bank-ms <ms>',
      `each bot's time bank, 0..${JOB_LIMITS.deadlineMs}: an answer later than its deadline draws the overrun from it, and only an answer later than the deadline plus what is left is a timeout (default: none)`,
      parseNonNegativeInt('--bank-ms', JOB_LIMITS.deadlineMs),
    )
    .option(
      '--strikes <n>',
      `timeouts of each bot forgiven, 0..${JOB_LIMITS.strikes}, each played as the game's pass; the next one is a fault (games with a pass only: lighthouses, paint, smartdog; default: none)`,
      parseNonNegativeInt('--strikes', JOB_LIMITS.strikes),
    );
}

/** The time rules the options chose, for a job's timeouts (absent ones: none). */
export function timeRulesOf(o: TimeRuleFlags): Pick<JobTimeouts, 'firstMs' | 'bankMs' | 'strikes'> {
  const rules: Pick<JobTimeouts, 'firstMs' | 'bankMs' | 'strikes'> = {};
  if (o.firstMs !== undefined) rules.firstMs = o.firstMs;
  if (o.bankMs !== undefined) rules.bankMs = o.bankMs;
  if (o.strikes !== undefined) rules.strikes = o.strikes;
  return rules;
}
