import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

/** What a bot does with one message: return (or resolve to) the answer object, or SILENT for none. */
export type BotHandler<M = unknown> = (message: M) => unknown;

/**
 * What a handler returns for a message that expects no answer (lighthouses' result after each command,
 * `{"success":…}`): nothing is written.
 */
export const SILENT: unique symbol = Symbol('no answer');

/**
 * Runs a bot over stdio (`stdio:` bot spec): one JSON message per line on stdin, one JSON answer per
 * line on stdout, in order (none for a message the handler answers with SILENT). A handler that throws has its error written to stderr (where the arena's
 * log shows it) and answers `{}`, so the arena reports a bad answer instead of waiting for a timeout.
 * Resolves when stdin closes (the match is over).
 *
 * @example serveStdio((m) => (m.action === 'init' ? { name: 'me' } : { play: 3 }));
 */
export async function serveStdio<M = unknown>(
  handler: BotHandler<M>,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const lines = createInterface({ input });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let answer: unknown;
    try {
      answer = await handler(JSON.parse(line) as M);
    } catch (err) {
      process.stderr.write(`bot error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      answer = {};
    }
    if (answer === SILENT) continue;
    output.write(JSON.stringify(answer ?? {}) + '\n');
  }
}

/** A running HTTP bot: its URL (for the `http://` bot spec) and a way to stop it. */
export interface HttpBot {
  url: string;
  close(): Promise<void>;
}

/**
 * Runs a bot as an HTTP server (`http://` bot spec): each POSTed JSON body is a message, the answer is
 * the JSON response. A body that is not JSON gets a 400 with a sentence (the arena ignores statuses;
 * it is for a person trying the bot with curl). Port 0 picks a free port.
 *
 * @example const bot = await serveHttp((m) => ({ play: 3 }), { port: 8123 }); console.log(bot.url);
 */
export async function serveHttp<M = unknown>(handler: BotHandler<M>, opts: { port?: number; host?: string } = {}): Promise<HttpBot> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      res.setHeader('content-type', 'application/json');
      let message: M;
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as M;
      } catch {
        res.statusCode = 400;
        return res.end(JSON.stringify({ error: 'the request body must be one JSON message' }));
      }
      try {
        res.end(JSON.stringify((await handler(message)) ?? {}));
      } catch (err) {
        process.stderr.write(`bot error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        res.statusCode = 500;
        res.end(JSON.stringify({ error: String(err) }));
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
