// `botarena contest create|list|show|enter|freeze|start|results|archive`: an organiser's (and an entrant's) side of
// a contest on a server (`botarena serve`), over its HTTP API (src/api/contests.ts). The admin token creates,
// freezes and starts a contest; a bot's owner token enters it; anyone lists, shows, reads the results and
// downloads the archive (`botarena contest verify ARCHIVE` checks it without trusting the server).
import { createWriteStream, existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { table } from './format.js';
import { progressLine, resultsText, showText, when, type ContestDetail, type ContestMatch, type ContestSummary, type ResultsAnswer } from './contest-text.js';
import { readFileCapped } from './read-capped.js';

/** The most a definition file may hold: a definition is small, but its configurations may carry maps. */
const MAX_DEFINITION_BYTES = 1024 * 1024;

type Json = Record<string, unknown>;

interface ServerOptions {
  server?: string;
}
interface AdminOptions extends ServerOptions {
  adminToken?: string;
}
interface TokenOptions extends ServerOptions {
  token?: string;
  tokenFile?: string;
  adminToken?: string;
}

/** The server's base URL from --server or $BOTARENA_SERVER, checked. */
function serverOf(o: ServerOptions): string {
  const raw = o.server ?? process.env.BOTARENA_SERVER?.trim();
  if (!raw) throw new UsageError('which server? give --server URL (e.g. --server https://arena.example.org), or set $BOTARENA_SERVER');
  const url = raw.replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+/.test(url)) throw new UsageError(`--server ${raw}: give the server's http(s):// URL, e.g. http://127.0.0.1:8080`);
  return url;
}

/** The admin token from --admin-token or $BOTARENA_ADMIN_TOKEN (the variable the server reads it from). */
function adminTokenOf(o: AdminOptions, what: string): string {
  const token = o.adminToken ?? process.env.BOTARENA_ADMIN_TOKEN?.trim();
  if (!token) throw new UsageError(`${what} needs the server's admin token: give --admin-token TOKEN, or set $BOTARENA_ADMIN_TOKEN`);
  return token;
}

/** A bot owner's token: --token, else the file --token-file, else $BOTARENA_TOKEN, else the admin token (it may enter any bot). */
function ownerTokenOf(o: TokenOptions): string {
  if (o.token) return o.token;
  if (o.tokenFile) {
    if (!existsSync(o.tokenFile)) throw new UsageError(`--token-file ${o.tokenFile}: no such file`);
    const t = readFileSync(o.tokenFile, 'utf8').trim();
    if (!t) throw new UsageError(`--token-file ${o.tokenFile} is empty: it should hold the bot's owner token`);
    return t;
  }
  const t = process.env.BOTARENA_TOKEN?.trim() || o.adminToken || process.env.BOTARENA_ADMIN_TOKEN?.trim();
  if (!t)
    throw new UsageError(
      "entering a bot needs its owner token: give --token TOKEN or --token-file FILE, or set $BOTARENA_TOKEN (the admin's token works for any bot)",
    );
  return t;
}

/** Why fetch failed, in words (the cause's code: ECONNREFUSED, ENOTFOUND…). */
function unreachable(url: string, err: unknown): UsageError {
  const cause = (err as Error).cause as (Error & { code?: string }) | undefined;
  const why = cause?.code ?? cause?.message ?? (err as Error).message;
  return new UsageError(`cannot reach the server at ${new URL(url).origin} (${why}): is it running, and is --server right?`);
}

/** The most an answer of the API may hold here (a final's 100 000 matches listed is some 20 MiB). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** An answer's text, read up to MAX_ANSWER_BYTES: a server that sends more is said to, and not read on. */
async function textOf(res: Response, url: string): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let n = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    n += chunk.length;
    if (n > MAX_ANSWER_BYTES) {
      await res.body.cancel().catch(() => {});
      throw new UsageError(`${url} answered more than ${MAX_ANSWER_BYTES >> 20} MiB: not read further (is --server a Botarena server?)`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The server's refusal as a sentence: its status, its message, and what to do about a token. */
async function refusal(res: Response, url: string, tokenHint: string): Promise<UsageError> {
  const text = await textOf(res, url).catch(() => '');
  let message = text.slice(0, 500);
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
  } catch {
    if (res.status < 500) return new UsageError(`${url} answered ${res.status} with something that is not JSON: is --server a Botarena server?`);
  }
  const hint =
    res.status === 401 || res.status === 403
      ? ` (${tokenHint})`
      : res.status === 404 && /\/api\/contests($|\?)/.test(new URL(url).pathname)
        ? ' (a server older than contests?)'
        : '';
  return new UsageError(`the server refused it (${res.status}): ${message}${hint}`);
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isProgress = (p: unknown) => isObj(p) && ['planned', 'queued', 'running', 'finished', 'aborted'].every((k) => typeof p[k] === 'number');
const isSummary = (c: unknown) => isObj(c) && typeof c.id === 'string' && typeof c.name === 'string' && typeof c.status === 'string' && isProgress(c.progress);
/** What each answer must look like before it is printed: another server's JSON is said to be wrong, not crashed on. */
const SHAPES = {
  contest: (c: unknown) => isSummary(c) && isObj((c as Json).definition) && Array.isArray((c as Json).entries),
  contests: (l: unknown) => Array.isArray(l) && l.every(isSummary),
  matches: (l: unknown) => Array.isArray(l) && l.every((m) => isObj(m) && typeof m.matchId === 'string' && Array.isArray(m.seats)),
  results: (r: unknown) =>
    isObj(r) &&
    typeof r.final === 'boolean' &&
    (r.results === null || (isObj(r.results) && Array.isArray(r.results.standings) && Array.isArray(r.results.matrix))),
} as const;

/** A JSON call to the API; the answer is checked to be the `shape` expected. */
async function call<T>(
  server: string,
  method: string,
  path: string,
  o: { body?: unknown; token?: string; tokenHint?: string; shape?: keyof typeof SHAPES } = {},
): Promise<T> {
  const url = `${server}${path}`;
  const headers: Record<string, string> = {};
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body), signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    throw unreachable(url, err);
  }
  if (!res.ok) throw await refusal(res, url, o.tokenHint ?? 'this needs a token');
  const text = await textOf(res, url);
  let answer: unknown;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {
    throw new UsageError(`${url} answered ${res.status} with something that is not JSON: is --server a Botarena server?`);
  }
  if (o.shape && !SHAPES[o.shape](answer))
    throw new UsageError(
      `${url} answered with JSON that is not ${o.shape === 'contest' ? 'a contest' : `the contest's ${o.shape}`} as this botarena reads it (${text.slice(0, 120)}…): is the server a Botarena of another version?`,
    );
  return answer as T;
}

const ADMIN_HINT = 'is it the admin token the server was started with, $BOTARENA_ADMIN_TOKEN on its machine?';
const OWNER_HINT = "give the bot's owner token (--token, --token-file, $BOTARENA_TOKEN) or the admin token";

/** A contest id as a path part. */
const part = (id: string) => encodeURIComponent(id);

/** Options every subcommand takes: the server. */
function withServer(c: Command): Command {
  return c.option('--server <url>', 'the server, e.g. https://arena.example.org (default: $BOTARENA_SERVER)');
}
function withAdmin(c: Command): Command {
  return withServer(c).option('--admin-token <token>', "the server's admin token (default: $BOTARENA_ADMIN_TOKEN)");
}

/** Registers the server subcommands on `botarena contest` (core's contest-command.ts calls this). */
export function registerContestServer(contest: Command): void {
  withAdmin(
    contest
      .command('create')
      .description(
        'create a contest on a server from its definition (a JSON file: id, name, game, configs, format, gamesPerPairing, timeRules, seed, opensAt, closesAt; see docs/contests.md)',
      )
      .argument('<definition>', 'the definition, a JSON file (- reads it from stdin)'),
  ).action(async (file: string, o: AdminOptions) => {
    const server = serverOf(o);
    const token = adminTokenOf(o, 'creating a contest');
    const text = file === '-' ? await readStdin() : readDefinitionFile(file);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`${file === '-' ? 'stdin' : file}: not JSON (${(err as Error).message}); a definition is a JSON object, see docs/contests.md`);
    }
    const c = await call<ContestDetail>(server, 'POST', '/api/contests', { body, token, tokenHint: ADMIN_HINT, shape: 'contest' });
    process.stdout.write(`created contest ${c.id}: ${c.name}\n${showText(c)}\n\nits page: ${server}/#/contests/${part(c.id)}\n`);
  });

  withServer(
    contest
      .command('list')
      .description("the server's contests, newest first, with their status and progress")
      .option('--game <game>', "only this game's")
      .option('--status <status>', 'only those in this state: entry, frozen, running or done'),
  ).action(async (o: ServerOptions & { game?: string; status?: string }) => {
    const server = serverOf(o);
    if (o.status && !['entry', 'frozen', 'running', 'done'].includes(o.status))
      throw new UsageError(`--status ${o.status}: expected entry, frozen, running or done`);
    const q = new URLSearchParams(Object.entries({ game: o.game, status: o.status }).filter((e): e is [string, string] => !!e[1]));
    const list = await call<ContestSummary[]>(server, 'GET', `/api/contests${q.size ? `?${q}` : ''}`, { shape: 'contests' });
    if (!list.length) {
      process.stdout.write('no contest\n');
      return;
    }
    process.stdout.write(
      `${table([
        ['id', 'name', 'game', 'format', 'status', 'entrants', 'final'],
        ...list.map((c) => {
          const total = c.progress.total ?? c.progress.planned;
          return [
            c.id,
            c.name,
            c.game,
            c.format,
            c.status,
            c.entrants,
            c.status === 'running' || c.status === 'done' ? `${c.progress.finished + c.progress.aborted}/${total}` : '-',
          ];
        }),
      ])}\n`,
    );
  });

  withServer(
    contest
      .command('show')
      .description('a contest: its definition, its entrants (and their frozen versions), the progress of its final')
      .argument('<id>', 'the contest'),
  ).action(async (id: string, o: ServerOptions) => {
    const c = await call<ContestDetail>(serverOf(o), 'GET', `/api/contests/${part(id)}`, { shape: 'contest' });
    process.stdout.write(`${showText(c)}\n`);
  });

  withServer(
    contest
      .command('enter')
      .description("enter a bot in a contest during its entry window, with the bot's owner token (or the admin's)")
      .argument('<id>', 'the contest')
      .argument('<bot>', "the bot's id, or its name in the contest's game")
      .option('--token <token>', "the bot's owner token (default: $BOTARENA_TOKEN)")
      .option('--token-file <file>', "a file holding the bot's owner token (botarena submit --token-file writes one)")
      .option('--admin-token <token>', 'the admin token instead (default: $BOTARENA_ADMIN_TOKEN): it may enter any bot'),
  ).action(async (id: string, bot: string, o: TokenOptions) => {
    const server = serverOf(o);
    const token = ownerTokenOf(o);
    const c = await call<ContestDetail>(server, 'POST', `/api/contests/${part(id)}/entries`, { body: { bot }, token, tokenHint: OWNER_HINT, shape: 'contest' });
    const e = c.entries.find((x) => x.botId === bot || x.name === bot);
    process.stdout.write(
      `${e ? `${e.name} (${e.botId})` : bot} entered ${c.name} (${c.id}): ${c.entries.length} entrant(s); entries close ${when(c.closesAt)}\n`,
    );
  });

  withAdmin(
    contest
      .command('freeze')
      .description("close a contest's entries now and fix each entrant's version (an upload's hash, a URL's doctor report): admin")
      .argument('<id>', 'the contest'),
  ).action(async (id: string, o: AdminOptions) => {
    const server = serverOf(o);
    const c = await call<ContestDetail>(server, 'POST', `/api/contests/${part(id)}/freeze`, {
      token: adminTokenOf(o, 'freezing a contest'),
      tokenHint: ADMIN_HINT,
      shape: 'contest',
    });
    process.stdout.write(`frozen ${c.id}: ${c.entries.length} entrant(s), their versions fixed\n${showText(c)}\n`);
  });

  withAdmin(
    contest
      .command('start')
      .description("start a frozen contest's final: its matches are queued and played on the server's workers, once each: admin")
      .argument('<id>', 'the contest')
      .option('--wait', 'follow the final until it is over, then print the results'),
  ).action(async (id: string, o: AdminOptions & { wait?: boolean }) => {
    const server = serverOf(o);
    let c = await call<ContestDetail>(server, 'POST', `/api/contests/${part(id)}/start`, {
      token: adminTokenOf(o, 'starting a contest'),
      tokenHint: ADMIN_HINT,
      shape: 'contest',
    });
    process.stdout.write(`started the final of ${c.id}\n${progressLine(c.progress, c.status)}\n`);
    if (!o.wait) {
      process.stdout.write(`follow it with: botarena contest show ${c.id} --server ${server}\n`);
      return;
    }
    let last = '';
    while (c.status !== 'done') {
      await new Promise((r) => setTimeout(r, 1000));
      c = await call<ContestDetail>(server, 'GET', `/api/contests/${part(id)}`, { shape: 'contest' });
      const line = progressLine(c.progress, c.status);
      if (line !== last) process.stdout.write(`${line}\n`);
      last = line;
    }
    process.stdout.write(`\n${resultsText(await call<ResultsAnswer>(server, 'GET', `/api/contests/${part(id)}/results`, { shape: 'results' }))}\n`);
  });

  withServer(
    contest
      .command('results')
      .description(
        "a contest's standings (score ± interval), pairwise matrix, each map's standings and the faults per entrant; so far, until the final is over",
      )
      .argument('<id>', 'the contest')
      .option('--json', 'print the results as the server gives them (JSON)')
      .option('--matches', "also list every match of the final, with its page's address"),
  ).action(async (id: string, o: ServerOptions & { json?: boolean; matches?: boolean }) => {
    const server = serverOf(o);
    const answer = await call<ResultsAnswer>(server, 'GET', `/api/contests/${part(id)}/results`, { shape: 'results' });
    if (o.json) {
      process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
      return;
    }
    process.stdout.write(`${resultsText(answer)}\n`);
    if (o.matches) {
      const matches = await call<ContestMatch[]>(server, 'GET', `/api/contests/${part(id)}/matches`, { shape: 'matches' });
      const detail = await call<ContestDetail>(server, 'GET', `/api/contests/${part(id)}`, { shape: 'contest' });
      const names = new Map(detail.entries.map((e) => [e.botId, e.name]));
      process.stdout.write(
        `\nmatches:\n${table([
          ['key', 'map', 'seats', 'status', 'result', 'page'],
          ...matches.map((m) => [
            m.key,
            m.config,
            m.seats.map((b) => names.get(b) ?? b).join(' vs '),
            m.status,
            m.draw ? 'draw' : m.winner !== null ? `${names.get(m.seats[m.winner] ?? '') ?? `seat ${m.winner}`} won` : '-',
            `${server}/#/matches/${m.matchId}`,
          ]),
        ])}\n`,
      );
    }
  });

  withServer(
    contest
      .command('archive')
      .description(
        "download a contest's archive (.tar.gz: its definition, entrants, every match, the results and every replay); `botarena contest verify FILE` checks it",
      )
      .argument('<id>', 'the contest')
      .option('-o, --output <file>', 'where to write it (default: ID.tar.gz)'),
  ).action(async (id: string, o: ServerOptions & { output?: string }) => {
    const server = serverOf(o);
    const file = o.output ?? `${basename(id)}.tar.gz`;
    const url = `${server}/api/contests/${part(id)}/archive`;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(600_000) });
    } catch (err) {
      throw unreachable(url, err);
    }
    if (!res.ok || !res.body) throw await refusal(res, url, ADMIN_HINT);
    // Written beside the file, then renamed: a download cut short leaves no half archive under the name.
    const partial = `${file}.part`;
    // No bigger than `contest verify` reads one (loaded here only: the other commands never load tar).
    const { ARCHIVE_LIMITS } = await import('../contests/archive.js');
    const cap = ARCHIVE_LIMITS.compressedBytes;
    let n = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _enc, done) {
        n += chunk.length;
        if (n > cap) done(new UsageError(`${url} sent more than ${cap >> 20} MiB, the most an archive may hold (contest verify reads no more): not kept`));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), capped, createWriteStream(partial));
      renameSync(partial, file);
    } catch (err) {
      rmSync(partial, { force: true });
      if (err instanceof UsageError) throw err;
      throw new UsageError(`could not write ${file}: ${(err as Error).message}`);
    }
    const size = statSync(file).size;
    process.stdout.write(`wrote ${file} (${Math.ceil(size / 1024)} KiB); check it with: botarena contest verify ${file}\n`);
  });
}

/** Reads the definition file, capped. */
function readDefinitionFile(file: string): string {
  if (!existsSync(file)) throw new UsageError(`${file}: no such file (the contest's definition, a JSON file)`);
  return readFileCapped(file, MAX_DEFINITION_BYTES, 'contest definition').toString('utf8');
}

/** Reads stdin whole, capped. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    n += chunk.length;
    if (n > MAX_DEFINITION_BYTES) throw new UsageError(`the definition on stdin is over 1 MiB (a server takes 64 KiB)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
