import { Command, CommanderError } from 'commander';
import { ReplayMismatchError, UsageError } from '../core/errors.js';
import { ENGINE_VERSION } from '../core/version.js';
import { nearest } from '../core/nearest.js';
import { BOT_SPEC_HELP } from '../bots/spec.js';
import { registerGames } from './games-command.js';
import { registerPlay } from './play-command.js';
import { registerReplay } from './replay-command.js';
import { registerNew } from './new-command.js';
import { registerDoctor } from './doctor-command.js';
import { registerTournament } from './tournament-command.js';
import { registerRate } from './rate-command.js';
import { registerSmartdog } from './smartdog-command.js';
import { registerServe } from './serve-command.js';
import { registerWorker } from './worker-command.js';
import { registerSubmit } from './submit-command.js';
import { registerConnect } from './connect-command.js';
import { registerContest } from './contest-command.js';
import { registerContestServer } from './contest-server.js';

/** Builds the `botarena` command line. */
export function buildProgram(): Command {
  const program = new Command('botarena')
    .description('Botarena: fair, timed, replayable matches between game-playing bots written in any language')
    .version(ENGINE_VERSION)
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      `\n${BOT_SPEC_HELP}\n\nexamples:\n  botarena new tron --lang python mybot    (a starter bot, with the command that plays it)\n  botarena doctor tron "stdio:python3 mybot/bot.py"    (what to fix in a bot)\n  botarena play tictactoe random minimax\n  botarena play connect4 "stdio:python3 my_bot.py" minimax --seed 7 --log\n  botarena replay verify match.json`,
    );
  registerPlay(program);
  registerGames(program);
  registerReplay(program);
  registerSmartdog(program);
  registerNew(program);
  registerDoctor(program);
  registerTournament(program);
  registerRate(program);
  registerServe(program);
  registerWorker(program);
  registerSubmit(program);
  registerConnect(program);
  registerContestServer(registerContest(program));
  program.commands.find((c) => c.name() === 'play')?.addHelpText('after', `\n${BOT_SPEC_HELP}`);
  // Every command and subcommand (replay show, smartdog serve…) reports usage errors to main, which exits 2.
  const override = (c: Command): void => {
    c.exitOverride();
    c.commands.forEach(override);
  };
  override(program);
  return program;
}

/**
 * What is wrong when the command words in `args` name no command (`botarena submit`, `botarena replay shw`), or
 * null. Commander answers `--help` before it looks at the command, so `botarena submit --help` printed the
 * main help and exited 0: this is checked first. `help WORDS` is checked as `WORDS --help`.
 */
export function unknownCommand(program: Command, args: string[]): string | null {
  let command = program;
  const path: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('-')) continue;
    if (!command.commands.length) return null;
    // `botarena help plya` asks for a command's help as `plya --help` does: the words after `help` are checked too.
    if (arg === 'help') continue;
    const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    const names = command.commands.map((c) => c.name());
    if (!sub) {
      const guess = nearest(arg, names);
      const where = [program.name(), ...path].join(' ');
      return `unknown command '${[...path, arg].join(' ')}'; ${guess ? `did you mean ${[...path, guess].join(' ')}?` : `the commands of ${where} are: ${names.join(', ')}`} (${where} --help says what each does)`;
    }
    command = sub;
    path.push(arg);
  }
  return null;
}

/** Runs the CLI: usage errors print a clear message and exit 2; a finished match exits 0 whoever won. */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  const unknown = unknownCommand(program, argv.slice(2));
  if (unknown) {
    process.stderr.write(`botarena: ${unknown}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed its message already; help and version are not errors.
      process.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0 ? 0 : 2;
      return;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`botarena: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (err instanceof ReplayMismatchError) {
      // position, fork, refeed: a replay that does not reproduce is a difference, as for `replay verify`.
      process.stderr.write(`botarena: the replay does not reproduce: ${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(`botarena: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 70;
  }
}
