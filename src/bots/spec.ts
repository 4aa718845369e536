import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';
import { nearest } from '../core/nearest.js';

/** A parsed bot spec: which transport carries the seat, where the bot is, and which wire dialect it speaks. */
export type BotSpec =
  | { transport: 'http'; url: string; dialect: string; raw: string }
  | { transport: 'stdio'; command: string; dialect: string; raw: string }
  | { transport: 'exec'; command: string; dialect: string; raw: string }
  | { transport: 'upload'; language: string; sha256: string; entry?: string; run?: string; dialect: string; raw: string }
  | { transport: 'builtin'; name: string; raw: string }
  | { transport: 'human'; raw: string }
  | { transport: 'tcp'; raw: string }
  | { transport: 'browser'; raw: string }
  | { transport: 'connect'; dialect: string; raw: string };

/** The name of a kind of transport. */
export type TransportName = BotSpec['transport'];

/** How one kind of bot spec is written and read; the transport table (`schemes.ts`) joins it to its transport. */
export interface SpecForm<S extends BotSpec> {
  /** lines for the help text: the form, and what the arena does with it */
  help: [string, string][];
  /** reads `text` (trimmed) as this kind of spec, or null when it is not one; a broken one is a UsageError */
  parse(text: string, raw: string, game: AnyGame): S | null;
  /** a display name for a seat of this kind */
  defaultName(spec: S): string;
}

/** `human`: a person at the terminal. */
export const humanForm: SpecForm<Extract<BotSpec, { transport: 'human' }>> = {
  help: [['human', 'you, at this terminal']],
  parse(s, raw, game) {
    if (s !== 'human') return null;
    if (!game.presentation.human)
      throw new UsageError(`${game.id} has no terminal play (a person cannot take a seat); play it with bots, e.g. its built-in ones (see 'botarena games')`);
    return { transport: 'human', raw };
  },
  defaultName: () => 'human',
};

/** `tcp`: a bot that connects in. */
export const tcpForm: SpecForm<Extract<BotSpec, { transport: 'tcp' }>> = {
  help: [['tcp', 'a bot that connects to the port and joins (smart-dog: `botarena play smartdog tcp …`)']],
  parse(s, raw, game) {
    if (s !== 'tcp') return null;
    if (!game.wire.lobby) throw new UsageError(`${game.id} bots cannot connect in over tcp (only smart-dog's do): use stdio:, http: or a built-in bot`);
    return { transport: 'tcp', raw };
  },
  defaultName: () => 'tcp',
};

/** `browser`: a person playing from a web page of the server. */
export const browserForm: SpecForm<Extract<BotSpec, { transport: 'browser' }>> = {
  help: [['browser', 'a person playing from the server\'s web page (test matches of `botarena serve`, seat "person")']],
  parse(s, raw, game) {
    if (s !== 'browser') return null;
    if (!game.presentation.human && !game.rules.stream)
      throw new UsageError(`${game.id} has no play for a person (no prompt or move reader): play it with bots`);
    return { transport: 'browser', raw };
  },
  defaultName: () => 'person',
};

/**
 * `connect:` (and `connect+DIALECT:`): a registered bot that its author runs on their own machine and links to
 * the server (`botarena connect`): its seats are opened from that link, never from the spec.
 */
export const connectForm: SpecForm<Extract<BotSpec, { transport: 'connect' }>> = {
  help: [['connect:', "a server's bot whose author links it from their own machine (`botarena connect`)"]],
  parse(s, raw, game) {
    const m = /^connect(?:\+([a-z0-9-]+))?:(.*)$/is.exec(s);
    if (!m) return null;
    if (m[2]!.trim())
      throw new UsageError(`bot spec ${JSON.stringify(raw)}: write just "connect:" (the bot is the one its author links with \`botarena connect\`)`);
    if (game.wire.lobby)
      throw new UsageError(`${game.id} bots connect in over TCP to the server's gateway (smart-dog's own protocol), not with \`botarena connect\``);
    return { transport: 'connect', dialect: checkDialect(m[1] ?? game.wire.defaultDialect ?? 'json', raw, game), raw };
  },
  defaultName: () => 'connected',
};

/** `http://…`, `https://…`, `http+DIALECT://…`. */
export const httpForm: SpecForm<Extract<BotSpec, { transport: 'http' }>> = {
  help: [
    ['http://host:port/path', 'the arena POSTs each message to the URL (https:// too)'],
    ['http+DIALECT://…', 'the same, in another wire dialect of the game (e.g. http+form:// for 2015 Battleship)'],
  ],
  parse(s, raw, game) {
    const url = /^(https?)(?:\+([a-z0-9-]+))?:\/\/(.+)$/i.exec(s);
    if (!url) return null;
    const dialect = checkDialect(url[2] ?? game.wire.defaultDialect ?? 'json', raw, game);
    const href = `${url[1]!.toLowerCase()}://${url[3]}`;
    if (!URL.canParse(href)) throw new UsageError(`bot spec ${JSON.stringify(raw)}: ${JSON.stringify(href)} is not a valid URL`);
    return { transport: 'http', url: href, dialect, raw };
  },
  defaultName(spec) {
    try {
      const u = new URL(spec.url);
      return u.port ? `${u.hostname}:${u.port}` : u.hostname;
    } catch {
      return 'http-bot';
    }
  },
};

/** `stdio:COMMAND` (and `stdio+DIALECT:`): a long-lived process. */
export const stdioForm: SpecForm<Extract<BotSpec, { transport: 'stdio' }>> = {
  help: [['stdio:COMMAND', 'a long-lived process: one message per line on stdin, one answer per line on stdout']],
  parse: (s, raw, game) => commandSpec('stdio', s, raw, game),
  defaultName: (spec) => programName(spec.command),
};

/** `exec:COMMAND` (and Bolosseum's `file://COMMAND`): one process per message. */
export const execForm: SpecForm<Extract<BotSpec, { transport: 'exec' }>> = {
  help: [['exec:COMMAND', 'one process per message: the message is argv[1], the answer is stdout (alias: file://COMMAND)']],
  parse(s, raw, game) {
    if (s.startsWith('file://')) return { transport: 'exec', command: need(s.slice(7), raw), dialect: game.wire.defaultDialect ?? 'json', raw };
    return commandSpec('exec', s, raw, game);
  },
  defaultName: (spec) => programName(spec.command),
};

/**
 * `upload:LANGUAGE:SHA256 entry=FILE` or `… run=COMMAND`: a version of a bot's uploaded code, kept by the arena
 * (never typed by a person: the registry writes it), run in the sandbox from the cache of the process that plays it.
 */
export const uploadForm: SpecForm<Extract<BotSpec, { transport: 'upload' }>> = {
  help: [['upload:LANGUAGE:SHA256 …', "a bot's uploaded code, as the server keeps it (POST /api/bots with code, botarena submit)"]],
  parse(s, raw, game) {
    if (!s.startsWith('upload:')) return null;
    const m = /^upload:([a-z][a-z0-9_+-]{0,31}):([0-9a-f]{64}) (?:entry=([A-Za-z0-9_][A-Za-z0-9._/-]{0,239})|run=(.+))$/s.exec(s);
    if (!m || (m[3] !== undefined && m[3].split('/').includes('..')))
      throw new UsageError(`bot spec ${JSON.stringify(raw)}: an upload is written upload:LANGUAGE:SHA256 entry=FILE or upload:LANGUAGE:SHA256 run=COMMAND`);
    return {
      transport: 'upload',
      language: m[1]!,
      sha256: m[2]!,
      ...(m[3] !== undefined ? { entry: m[3] } : { run: m[4]! }),
      dialect: game.wire.defaultDialect ?? 'json',
      raw,
    };
  },
  defaultName: (spec) => `${spec.language} upload ${spec.sha256.slice(0, 8)}`,
};

/** `builtin:NAME` or a bare `NAME`: a built-in bot of the game. */
export const builtinForm: SpecForm<Extract<BotSpec, { transport: 'builtin' }>> = {
  help: [['builtin:NAME or NAME', 'a built-in bot of the game (see `botarena games`)']],
  parse(s, raw, game) {
    const name = s.startsWith('builtin:') ? s.slice(8) : s;
    if (Object.hasOwn(game.bots, name)) return { transport: 'builtin', name, raw };
    // A bare word close to a built-in bot's name (`Minimax`, `minimx`) is a typo of it, not a program.
    const guess = /^[a-z][\w-]*$/i.test(name) ? nearest(name, Object.keys(game.bots)) : null;
    if (s.startsWith('builtin:') || /^[a-z][a-z0-9-]*$/.test(s) || guess) {
      throw new UsageError(
        `${game.id} has no built-in bot "${name}"${guess ? ` (did you mean ${guess}?)` : ''}; its built-in bots are: ${Object.keys(game.bots).join(', ')}`,
      );
    }
    return null;
  },
  defaultName: (spec) => spec.name,
};

function commandSpec<T extends 'stdio' | 'exec'>(
  kind: T,
  s: string,
  raw: string,
  game: AnyGame,
): { transport: T; command: string; dialect: string; raw: string } | null {
  const cmd = /^(stdio|exec)(?:\+([a-z0-9-]+))?:(.*)$/s.exec(s);
  if (!cmd || cmd[1] !== kind) return null;
  return { transport: kind, command: need(cmd[3]!, raw), dialect: checkDialect(cmd[2] ?? game.wire.defaultDialect ?? 'json', raw, game), raw };
}

function need(command: string, raw: string): string {
  if (!command.trim()) throw new UsageError(`bot spec ${JSON.stringify(raw)} has no command after the colon`);
  return command;
}

function checkDialect(dialect: string, raw: string, game: AnyGame): string {
  const d = dialect.toLowerCase();
  if (d !== 'json' && !(game.wire.dialects && Object.hasOwn(game.wire.dialects, d))) {
    const known = ['json', ...Object.keys(game.wire.dialects ?? {})].join(', ');
    throw new UsageError(`bot spec ${JSON.stringify(raw)}: ${game.id} has no wire dialect "${d}"; it has: ${known}`);
  }
  return d;
}

/** A program's display name: its file name, or its folder's when the file is called bot/main/index… */
function programName(command: string): string {
  // Words as the shell reads them, their quotes removed (`cd 'examples/sdk-python' && …` names sdk-python).
  const words = (command.match(/(?:'[^']*'?|"[^"]*"?|[^\s'"]+)+/g) ?? ['']).map((w) => w.replace(/['"]/g, ''));
  const file = words.find((w, i) => i > 0 && /[./]/.test(w)) ?? words[0]!;
  const parts = file.split('/');
  const base = parts.pop()!.replace(/\.[a-z0-9]+$/i, '');
  // "examples/tictactoe-python/bot.py" says more by its folder than by "bot".
  const generic = /^(bot|main|index|run|app)$/i.test(base) && parts.length > 0 && parts[parts.length - 1] !== '.';
  return (generic ? parts[parts.length - 1]! : base) || 'bot';
}

/** The help text listing every spec form. */
export const BOT_SPEC_HELP = `bot specs:\n${[humanForm, browserForm, tcpForm, connectForm, httpForm, execForm, stdioForm, builtinForm]
  .flatMap((s) => s.help)
  .sort(([a], [b]) => helpOrder(a) - helpOrder(b))
  .map(([form, what]) => `  ${form.padEnd(26)}${what}`)
  .join('\n')}`;

/** Help lists the forms people use most first. */
function helpOrder(form: string): number {
  return ['http', 'stdio', 'exec', 'builtin', 'human', 'browser', 'tcp', 'connect'].findIndex((p) => form.startsWith(p));
}
