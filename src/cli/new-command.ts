import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { Option, type Command } from 'commander';
import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';
import { getGame } from '../games/index.js';
import { PACKAGE_ROOT } from './format.js';

const ROOT = PACKAGE_ROOT;
const STARTERS = join(ROOT, 'starters');

export const LANGUAGES = ['python', 'node', 'ts'] as const;
export type Language = (typeof LANGUAGES)[number];
export type StarterTransport = 'stdio' | 'http' | 'tcp';

/** What a starter's `starter.json` says: how to run it and its test (`{{dir}}`: its folder; `{{port}}`: a port). */
export interface StarterInfo {
  run: string;
  test: string;
}

/** The folder of a starter in the package, or null when there is none. */
export function starterDir(lang: Language, game: string, transport: StarterTransport): string | null {
  const dir = join(STARTERS, lang, `${game}-${transport}`);
  return existsSync(join(dir, 'starter.json')) ? dir : null;
}

/** The transports a game has starters for in a language, in the order they are offered. */
export function startersOf(lang: Language, game: string): StarterTransport[] {
  return (['stdio', 'http', 'tcp'] as const).filter((t) => starterDir(lang, game, t) !== null);
}

/** The transport a game's starter uses when none is asked: smart-dog's bots connect over TCP; the others read stdin. */
export function defaultTransport(game: AnyGame): StarterTransport {
  return game.wire.lobby ? 'tcp' : 'stdio';
}

/**
 * The port a starter's printed commands name: an HTTP starter listens on 8000 (its own default), and a TCP starter
 * connects to 3002, where `play` and `doctor` listen for a tcp seat when no --port is given.
 */
export const STARTER_PORTS: Record<StarterTransport, number> = { stdio: 0, http: 8000, tcp: 3002 };

/** A starter's run and test commands for the folder it was written to (and a port for http and tcp bots). */
export function starterInfo(source: string, dir: string, port = STARTER_PORTS.http): StarterInfo {
  const info = JSON.parse(readFileSync(join(source, 'starter.json'), 'utf8')) as StarterInfo;
  const fill = (s: string) => s.replaceAll('{{dir}}', dir).replaceAll('{{port}}', String(port));
  return { run: fill(info.run), test: fill(info.test) };
}

/** A word for /bin/sh: as it is when the shell reads it so, else in single quotes. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * How the user can run this botarena from `cwd`: `botarena` when that name on the PATH is this package's command
 * (a global install, an npm script); `npx botarena` when this package is installed in a project holding `cwd`;
 * else the path of its bin/botarena from `cwd` (in a clone, `bin/botarena` at its root), which is not on the PATH.
 */
export function botarenaCommand(cwd = process.cwd(), path = process.env.PATH ?? ''): string {
  const bin = join(ROOT, 'bin', 'botarena');
  const real = (p: string): string | null => {
    try {
      return realpathSync(p);
    } catch {
      return null; // not there (or not readable): not this botarena
    }
  };
  const mine = real(bin);
  if (path.split(delimiter).some((d) => d !== '' && real(join(d, 'botarena')) === mine)) return 'botarena';
  const modules = ROOT.lastIndexOf(`${sep}node_modules${sep}`);
  if (modules >= 0 && `${resolve(cwd)}${sep}`.startsWith(ROOT.slice(0, modules + 1))) return 'npx botarena';
  const near = relative(cwd, bin);
  return shellWord(near.startsWith('..') && near.length > bin.length ? bin : near);
}

/**
 * The line that says a file in starters/ was generated from starters/src/ (scripts/gen-starters.mts writes it
 * first, or after a shebang): it speaks to whoever edits the repository, so a user's copy goes without it.
 */
export const GENERATED_LINE = /^(?:#|\/\/|<!--) Generated from starters\/src\/.*\n/m;

/**
 * Writes a starter into `dir` (which must not exist or be empty): every file of the package's starter but its
 * `starter.json`, without its generated-from line, with `{{dir}}` replaced by the folder as the user named it
 * and `{{botarena}}` by the command that runs botarena there. Returns the files written.
 */
export function writeStarter(source: string, dir: string, botarena = botarenaCommand()): string[] {
  if (existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length))
    throw new UsageError(`${dir} already exists and is not an empty folder: name a new folder (nothing was written)`);
  // Not the package's own: its starter.json, and what running a starter where it lies leaves (caches, installs).
  const skip = (from: string) => relative(source, from) === 'starter.json' || /(^|[/\\])(__pycache__|node_modules)([/\\]|$)/.test(relative(source, from));
  cpSync(source, dir, { recursive: true, filter: (from) => !skip(from) });
  const written: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const text = readFileSync(path, 'utf8');
        const own = text.replace(GENERATED_LINE, '').replaceAll('{{dir}}', dir).replaceAll('{{botarena}}', botarena);
        if (own !== text) writeFileSync(path, own);
        written.push(relative(dir, path));
      }
    }
  };
  walk(dir);
  if (existsSync(join(dir, 'bot.ts'))) written.push(...typescriptSetUp(dir));
  return written.sort();
}

/** The folder of the tsx this botarena can load (a clone has it), or null (an install from npm has not). */
function tsxFolder(): string | null {
  try {
    return dirname(createRequire(join(ROOT, 'package.json')).resolve('tsx/package.json'));
  } catch {
    return null;
  }
}

/**
 * What a TypeScript starter needs to run where it was written: a package.json saying it is an ES module
 * (tsx would compile it as CommonJS, where its top-level await fails) and naming its packages, and
 * `botarena/sdk` found at once, through node_modules/botarena linked to this package (`npm install` in the
 * folder replaces the link with the published package). Its commands run `DIR/node_modules/.bin/tsx`, found
 * from any folder (`node --import tsx` looks for tsx from the folder it is started in, and outside a clone
 * found none): linked to this botarena's tsx when it has one, else `npm install` in the folder installs it.
 */
function typescriptSetUp(dir: string): string[] {
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies?: Record<string, string> };
  const pkg = {
    private: true,
    type: 'module',
    dependencies: { botarena: own.version },
    devDependencies: { tsx: own.devDependencies?.tsx ?? '4.23.15' },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'botarena'), 'dir');
  const tsx = tsxFolder();
  if (!tsx) return ['package.json', 'node_modules/botarena (a link to this botarena)'];
  symlinkSync(tsx, join(dir, 'node_modules', 'tsx'), 'dir');
  const { bin } = JSON.parse(readFileSync(join(tsx, 'package.json'), 'utf8')) as { bin: string };
  mkdirSync(join(dir, 'node_modules', '.bin'));
  symlinkSync(join('..', 'tsx', bin), join(dir, 'node_modules', '.bin', 'tsx'));
  return ['package.json', 'node_modules/botarena and node_modules/tsx (links to this botarena and its tsx)'];
}

/** The lines that say how to play a freshly written starter against the game's first built-in bot, and check it. */
function howToPlay(game: AnyGame, transport: StarterTransport, info: StarterInfo, botarena: string): string[] {
  const builtin = Object.keys(game.bots)[0]!;
  if (transport === 'stdio')
    return [`play it:  ${botarena} play ${game.id} "stdio:${info.run}" ${builtin}`, `check it: ${botarena} doctor ${game.id} "stdio:${info.run}"`];
  if (transport === 'http')
    return [
      `start it: ${info.run}`,
      `play it:  ${botarena} play ${game.id} http://127.0.0.1:${STARTER_PORTS.http}/ ${builtin}`,
      `check it: ${botarena} doctor ${game.id} http://127.0.0.1:${STARTER_PORTS.http}/`,
    ];
  return [
    `play it:  ${botarena} play ${game.id} tcp ${builtin}`,
    `then, in another terminal: ${info.run}`,
    `check it: ${botarena} doctor ${game.id} tcp (then start it the same way)`,
  ];
}

/** `botarena new GAME [DIR] --lang … --transport …`: writes a runnable starter bot. */
export function registerNew(program: Command): void {
  program
    .command('new')
    .description(
      'write a starter bot for a game into a new folder: the message loop, the messages read into documented structures, a legal first move, a README with the command that plays it, and a tiny test',
    )
    .argument('<game>', 'game id (see `botarena games`)')
    .argument('[dir]', 'the folder to create (default: GAME-bot)')
    .addOption(new Option('--lang <language>', 'the language of the bot').choices([...LANGUAGES]).default('python'))
    .addOption(
      new Option('--transport <how>', 'how the arena talks to it (default: stdio; smart-dog: tcp); http for the botsarena games').choices([
        'stdio',
        'http',
        'tcp',
      ]),
    )
    .action((gameId: string, dirArg: string | undefined, o: { lang: Language; transport?: StarterTransport }) => {
      const game = getGame(gameId);
      const transport = o.transport ?? defaultTransport(game);
      const source = starterDir(o.lang, game.id, transport);
      if (!source) {
        const offered = startersOf(o.lang, game.id);
        throw new UsageError(
          `there is no ${o.lang} starter of ${game.id} over ${transport}${offered.length ? `; ${game.id} in ${o.lang}: --transport ${offered.join(' or ')}` : ''}`,
        );
      }
      const dir = dirArg ?? `${game.id}-bot`;
      const botarena = botarenaCommand();
      const files = writeStarter(source, dir, botarena);
      const info = starterInfo(source, dir, STARTER_PORTS[transport]);
      // A TypeScript starter written where this botarena has no tsx to lend (an install from npm) gets it there.
      const install =
        o.lang === 'ts' && !existsSync(join(dir, 'node_modules', '.bin', 'tsx'))
          ? [`install it first: cd ${shellWord(dir)} && npm install  (tsx, which runs TypeScript)`]
          : [];
      process.stdout.write(
        [
          `wrote a ${o.lang} ${game.id} bot (${transport}) in ${resolve(dir)}: ${files.join(', ')}`,
          ...install,
          ...howToPlay(game, transport, info, botarena),
          `test it:  ${info.test}`,
          `the rules and every message: docs/games/${game.id}.md in the botarena package, or ${botarena} games ${game.id}`,
        ].join('\n') + '\n',
      );
    });
}
