import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { parsePositiveInt } from './options.js';

interface ConnectCliOptions {
  token?: string;
  tokenFile?: string;
  botId?: string;
  maxMatches?: number;
}

/** The longest token file read (a token is 48 characters). */
const MAX_TOKEN_FILE_BYTES = 4096;

/** `botarena connect SERVER BOT`: links a server's `connect:` bot from this machine and plays its matches with BOT. */
export function registerConnect(program: Command): void {
  program
    .command('connect')
    .description(
      'link a bot registered on a server with the endpoint "connect:" from this machine, and play every match the server seats it in with BOT (run here, and nothing else is), until Ctrl-C; reconnects after a drop. The link goes out from here (a WebSocket): no public address needed',
    )
    .argument('<server>', "the server, e.g. https://arena.example.org (or the bot's own address there, …/bots/ID, which names the bot)")
    .argument('<bot>', 'the bot to play with, on this machine: stdio:COMMAND, http://localhost:PORT/…, exec:COMMAND or a built-in bot')
    .option('--bot-id <id>', 'the id of the bot on the server (the one its registration answered), unless SERVER names it')
    .option('--token <token>', "the bot's owner token (or --token-file, or $BOTARENA_TOKEN)")
    .option('--token-file <path>', "a file holding the bot's owner token")
    .option('--max-matches <n>', "matches at once on this machine, at most (default: the bot's capacity on the server)", parsePositiveInt('--max-matches', 64))
    .addHelpText(
      'after',
      `
Examples:
  botarena connect https://arena.example.org --bot-id 5f0c… --token-file ~/.mybot-token 'stdio:python3 bot.py'
  BOTARENA_TOKEN=bat_… botarena connect http://127.0.0.1:8080/bots/5f0c… http://localhost:5000/

Each match prints a line when it starts and one when it ends, with the result.`,
    )
    .action(async (server: string, bot: string, o: ConnectCliOptions) => {
      const { botIdIn, runConnect } = await import('./connect-run.js');
      const botId = o.botId ?? botIdIn(server);
      if (!botId)
        throw new UsageError(
          "which bot? give --bot-id ID (the id its registration answered), or SERVER as the bot's address, e.g. https://arena.example.org/bots/ID",
        );
      const token = await readToken(o);
      const stop = new AbortController();
      const say = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
      const onSignal = (sig: NodeJS.Signals) => {
        process.stderr.write(`botarena connect: ${sig}: closing the link (the matches under way end by their fault rule)\n`);
        stop.abort();
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        await runConnect({ server, botId, token, bot, maxMatches: o.maxMatches, say, signal: stop.signal });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}

/** The token: --token, else --token-file, else $BOTARENA_TOKEN. */
async function readToken(o: ConnectCliOptions): Promise<string> {
  if (o.token) return o.token.trim();
  if (o.tokenFile) {
    const { readFileCapped } = await import('./read-capped.js');
    const text = readFileCapped(o.tokenFile, MAX_TOKEN_FILE_BYTES, 'token file').toString('utf8').trim();
    if (!text || /\s/.test(text))
      throw new UsageError(`--token-file ${o.tokenFile}: expected the token alone (one word), got ${text ? 'several words' : 'nothing'}`);
    return text;
  }
  const env = process.env.BOTARENA_TOKEN?.trim();
  if (env) return env;
  throw new UsageError("the bot's owner token is needed: --token TOKEN, --token-file PATH or $BOTARENA_TOKEN");
}
