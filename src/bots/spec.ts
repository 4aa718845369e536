import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';

/** A parsed bot spec: which transport carries the seat, where the bot is, and which wire dialect it speaks. */
export type BotSpec =
  | { transport: 'http'; url: string; dialect: string; raw: string }
  | { transport: 'stdio'; command: string; dialect: string; raw: string }
  | { transport: 'exec'; command: string; dialect: string; raw: string }
  | { transport: 'builtin'; name: string; raw: string }
  | { transport: 'human'; raw: string }
  | { transport: 'tcp'; raw: string };

export const BOT_SPEC_HELP = `bot specs:
  http://host:port/path     the arena POSTs each message to the URL (https:// too)
  http+DIALECT://…          the same, in another wire dialect of the game (e.g. http+form:// for 2015 Battleship)
  stdio:COMMAND             a long-lived process: one message per line on stdin, one answer per line on stdout
  exec:COMMAND              one process per message: the message is argv[1], the answer is stdout (alias: file://COMMAND)
  builtin:NAME or NAME      a built-in bot of the game (see \`botarena games\`)
  human                     you, at this terminal
  tcp                       a bot that connects to the port and joins (smart-dog: \`botarena play smartdog tcp …\`)`;

/**
 * Reads a bot spec from the command line. A bare word is a built-in bot of `game`.
 * Errors say what was wrong and show the accepted forms.
 */
export function parseBotSpec(raw: string, game: AnyGame): BotSpec {
  const s = raw.trim();
  if (s === 'human') return { transport: 'human', raw };
  if (s === 'tcp') return { transport: 'tcp', raw };
  const url = /^(https?)(?:\+([a-z0-9-]+))?:\/\/(.+)$/i.exec(s);
  if (url) {
    const dialect = checkDialect(url[2] ?? game.defaultDialect ?? 'json', raw, game);
    const href = `${url[1]!.toLowerCase()}://${url[3]}`;
    if (!URL.canParse(href)) throw new UsageError(`bot spec ${JSON.stringify(raw)}: ${JSON.stringify(href)} is not a valid URL`);
    return { transport: 'http', url: href, dialect, raw };
  }
  if (s.startsWith('file://')) return { transport: 'exec', command: need(s.slice(7), raw), dialect: game.defaultDialect ?? 'json', raw };
  const cmd = /^(stdio|exec)(?:\+([a-z0-9-]+))?:(.*)$/s.exec(s);
  if (cmd) {
    const dialect = checkDialect(cmd[2] ?? game.defaultDialect ?? 'json', raw, game);
    return { transport: cmd[1] as 'stdio' | 'exec', command: need(cmd[3]!, raw), dialect, raw };
  }
  const name = s.startsWith('builtin:') ? s.slice(8) : s;
  if (game.bots[name]) return { transport: 'builtin', name, raw };
  const builtins = Object.keys(game.bots).join(', ');
  if (s.startsWith('builtin:') || /^[a-z][a-z0-9-]*$/.test(s)) {
    throw new UsageError(`${game.id} has no built-in bot "${name}"; its built-in bots are: ${builtins}`);
  }
  throw new UsageError(
    `cannot read bot spec ${JSON.stringify(raw)}${/\s|\.|\//.test(s) ? ` (to run a program, write stdio:${s} or exec:${s})` : ''}\n${BOT_SPEC_HELP}`,
  );
}

function need(command: string, raw: string): string {
  if (!command.trim()) throw new UsageError(`bot spec ${JSON.stringify(raw)} has no command after the colon`);
  return command;
}

function checkDialect(dialect: string, raw: string, game: AnyGame): string {
  const d = dialect.toLowerCase();
  if (d !== 'json' && !game.dialects?.[d]) {
    const known = ['json', ...Object.keys(game.dialects ?? {})].join(', ');
    throw new UsageError(`bot spec ${JSON.stringify(raw)}: ${game.id} has no wire dialect "${d}"; it has: ${known}`);
  }
  return d;
}

/** A default display name for a seat from its spec (the built-in bot's name, the program's file name, the host). */
export function defaultBotName(spec: BotSpec): string {
  switch (spec.transport) {
    case 'builtin':
      return spec.name;
    case 'human':
      return 'human';
    case 'tcp':
      return 'tcp';
    case 'http':
      try {
        const u = new URL(spec.url);
        return u.port ? `${u.hostname}:${u.port}` : u.hostname;
      } catch {
        return 'http-bot';
      }
    case 'stdio':
    case 'exec': {
      const words = spec.command.trim().split(/\s+/);
      const file = words.find((w, i) => i > 0 && /[./]/.test(w)) ?? words[0]!;
      const parts = file.split('/');
      const base = parts.pop()!.replace(/\.[a-z0-9]+$/i, '');
      // "examples/tictactoe-python/bot.py" says more by its folder than by "bot".
      const generic = /^(bot|main|index|run|app)$/i.test(base) && parts.length > 0 && parts[parts.length - 1] !== '.';
      return (generic ? parts[parts.length - 1]! : base) || 'bot';
    }
  }
}
