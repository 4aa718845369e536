// `botarena submit GAME DIR|FILE --server URL`: uploads a bot's code to a server that takes uploads (`serve
// --uploads`): a new bot (its owner token printed once), or with a token a new version of the owner's bot. Waits
// for the server's check and says whether the version plays.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { parsePositiveInt } from './options.js';

interface SubmitOptions {
  server: string;
  name?: string;
  language?: string;
  entry?: string;
  bot?: string;
  tokenFile?: string;
  wait: boolean;
  waitS: number;
}

type Json = Record<string, unknown>;

/** A folder as a .tar.gz in memory (its .git left out; links are kept as links, which the server refuses, saying so). */
async function packFolder(dir: string): Promise<Buffer> {
  // Loaded only here: listing the games or playing a match never loads tar (nor zlib).
  const { create: tarCreate } = await import('tar');
  const chunks: Buffer[] = [];
  const stream = tarCreate({ gzip: true, cwd: dir, portable: true, filter: (p: string) => !/(^|\/)\.git(\/|$)/.test(p) }, ['.']);
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The server's answer, or a UsageError with its message. */
async function call(url: string, init: RequestInit): Promise<Json> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    throw new UsageError(`cannot reach ${url}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`);
  }
  const text = await res.text();
  let body: Json = {};
  try {
    body = text ? (JSON.parse(text) as Json) : {};
  } catch {
    throw new UsageError(`${url} answered ${res.status} with something that is not JSON: is --server a Botarena server?`);
  }
  if (!res.ok)
    throw new UsageError(`the server refused it (${res.status}): ${(body.error as { message?: string } | undefined)?.message ?? text.slice(0, 500)}`);
  return body;
}

/** `botarena submit`. */
export function registerSubmit(program: Command): void {
  program
    .command('submit')
    .description(
      "upload a bot's code (a file, or a folder sent as a .tar.gz) to a server started with --uploads: a new bot (its owner token is printed once), or, with the owner's token, a new version of that bot; the server checks it before it plays",
    )
    .argument('<game>', 'the game (see `botarena games`)')
    .argument('<path>', "the bot's file (bot.py), its folder, or a .tar.gz/.zip of it")
    .requiredOption('--server <url>', 'the server, e.g. https://arena.example.org')
    .option('--name <name>', "the bot's name (default: the file's or folder's name)")
    .option('--language <language>', 'its language (python3, node, … as the server enables; default: from the file endings or botarena.json)')
    .option('--entry <file>', 'the file that runs (default: bot.py/main.py, main.js/index.js/bot.js…, or botarena.json)')
    .option('--bot <id>', 'the bot to add a version to (default: the bot of this name in the game, with the token)')
    .option(
      '--token-file <file>',
      "the owner token, read from this file (else $BOTARENA_TOKEN): with one, a new version of the owner's bot; a new bot's token is written there when the file does not exist",
    )
    .option('--no-wait', 'do not wait for the check')
    .option('--wait-s <seconds>', 'how long to wait for the check', parsePositiveInt('--wait-s', 3600), 120)
    .action(async (game: string, path: string, o: SubmitOptions) => {
      const server = o.server.replace(/\/+$/, '');
      if (!/^https?:\/\//.test(server)) throw new UsageError(`--server ${o.server}: give the server's http(s):// URL`);
      const full = resolve(path);
      if (!existsSync(full)) throw new UsageError(`${path}: no such file or folder`);
      const folder = statSync(full).isDirectory();
      const bytes = folder ? await packFolder(full) : readFileSync(full);
      const fileName = folder ? `${basename(full) || 'bot'}.tar.gz` : basename(full);
      const name = o.name ?? basename(full).replace(/\.(tar\.gz|tgz|zip|[a-z0-9]+)$/i, '');
      let token = process.env.BOTARENA_TOKEN?.trim() || undefined;
      if (o.tokenFile && existsSync(o.tokenFile)) token = readFileSync(o.tokenFile, 'utf8').trim() || undefined;
      const body = new FormData();
      if (o.language) body.set('language', o.language);
      if (o.entry) body.set('entry', o.entry);
      body.set('code', new Blob([new Uint8Array(bytes)]), fileName);

      let botId: string;
      let version: number;
      if (token) {
        botId = o.bot ?? '';
        if (!botId) {
          const bots = (await call(`${server}/api/bots?game=${encodeURIComponent(game)}`, {})) as unknown as Json[];
          const mine = bots.find((b) => b.name === name);
          if (!mine) throw new UsageError(`the server has no ${game} bot named "${name}": give --bot ID, or --name, or no token to register a new bot`);
          botId = mine.id as string;
        }
        const answer = await call(`${server}/api/bots/${encodeURIComponent(botId)}/code`, {
          method: 'PUT',
          body,
          headers: { authorization: `Bearer ${token}` },
        });
        version = (answer.version as Json).version as number;
        process.stdout.write(`uploaded version ${version} of bot ${botId} (${bytes.length} bytes); ${answer.note as string}\n`);
      } else {
        body.set('game', game);
        body.set('name', name);
        const answer = await call(`${server}/api/bots`, { method: 'POST', body });
        botId = (answer.bot as Json).id as string;
        version = (answer.version as Json).version as number;
        const newToken = answer.token as string;
        process.stdout.write(`registered ${game} bot "${name}" (${botId}) from ${fileName}\nowner token (shown once, keep it): ${newToken}\n`);
        if (o.tokenFile && !existsSync(o.tokenFile)) {
          writeFileSync(o.tokenFile, `${newToken}\n`, { mode: 0o600 });
          process.stdout.write(`the token is in ${o.tokenFile}\n`);
        }
      }
      if (!o.wait) return;
      const until = Date.now() + o.waitS * 1000;
      for (;;) {
        const list = (await call(`${server}/api/bots/${encodeURIComponent(botId)}/versions`, {})) as unknown as Json[];
        const v = list.find((x) => x.version === version);
        if (v && v.state === 'active') {
          process.stdout.write(`version ${version} passed its check: it plays now\n`);
          return;
        }
        if (v && v.state === 'refused') {
          const reason = (v.report as { reason?: string } | null)?.reason ?? JSON.stringify(v.report);
          throw new UsageError(`version ${version} was refused: ${reason}`);
        }
        if (Date.now() > until) throw new UsageError(`version ${version} is still being checked after ${o.waitS} s: see ${server}/api/bots/${botId}/versions`);
        await new Promise((r) => setTimeout(r, 500));
      }
    });
}
