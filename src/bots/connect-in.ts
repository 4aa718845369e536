import { createServer, type Server, type Socket } from 'node:net';
import { UsageError } from '../core/errors.js';
import type { LobbyRules } from '../core/game.js';
import { LineReader } from './line-reader.js';
import { MAX_UNREAD_BYTES, TcpTransport } from './tcp-transport.js';
import type { BotTransport, ByteSeatContext } from './transport.js';

/** The longest lobby line read before a bot has a seat; a longer one closes its connection. */
export const MAX_LOBBY_LINE = 64 * 1024;

/** A bot that connected and joined: who it says it is, the hub it asked for, and its connection. */
export interface Joiner {
  name: string;
  hub?: string;
  /** writes a line to the bot (nothing once the connection is gone) */
  say(line: string): void;
  /** hands the connection over to a seat: the lobby stops reading it */
  connection(): { open(ctx: ByteSeatContext): BotTransport };
  /** drops the connection */
  drop(): void;
}

/** What a connect-in listener is told. */
export interface ConnectInOptions {
  port: number;
  host: string;
  /** the game's lobby lines */
  lobby: LobbyRules;
  /** a bot joined: return null when it is taken (queued or seated), or the error line it gets */
  onJoin(joiner: Joiner): string | null;
  /** a bot that had joined disconnected before it was seated */
  onLeave?(joiner: Joiner): void;
  /** a connection that has not joined after this long is closed (default 60 s) */
  joinWithinMs?: number;
  /** connections open at once from one address; more are closed at once (default 100) */
  maxPerAddress?: number;
}

/** A listening connect-in port. */
export interface ConnectInListener {
  port: number;
  /** stops accepting; `dropWaiting` also closes the connections still in the lobby */
  close(dropWaiting?: boolean): Promise<void>;
}

/**
 * Listens for bots that connect in (smart-dog's TCP) and reads their lines until they join, as the game's
 * lobby rules say: a join goes to `onJoin`, other lines get the game's reply or are ignored. A line longer
 * than MAX_LOBBY_LINE closes the connection, and so do: not joining within `joinWithinMs`, letting more than
 * MAX_UNREAD_BYTES of replies wait unread, and going over `maxPerAddress` connections from one address.
 * Once seated (`connection()`), the socket belongs to its TcpTransport. Nothing a client sends can throw
 * out of here.
 */
export async function listenForBots(opts: ConnectInOptions): Promise<ConnectInListener> {
  const lobbyOf = new Set<Socket>();
  const perAddress = new Map<string, number>();
  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => {});
    const address = socket.remoteAddress ?? '?';
    const open = (perAddress.get(address) ?? 0) + 1;
    perAddress.set(address, open);
    socket.once('close', () => {
      const n = (perAddress.get(address) ?? 1) - 1;
      if (n > 0) perAddress.set(address, n);
      else perAddress.delete(address);
    });
    if (open > (opts.maxPerAddress ?? 100)) return void socket.destroy();
    lobbyOf.add(socket);
    let joiner: Joiner | null = null;
    let seated = false;
    const idle = setTimeout(() => !joiner && socket.destroy(), opts.joinWithinMs ?? 60_000);
    idle.unref();
    socket.once('close', () => clearTimeout(idle));
    const say = (line: string) => {
      if (!socket.writable) return;
      if (socket.writableLength > MAX_UNREAD_BYTES) return void socket.destroy(); // it does not read what it is sent
      socket.write(line + '\n');
    };
    const reader = new LineReader(
      MAX_LOBBY_LINE,
      (line) => {
        const asked = opts.lobby.read(line, joiner !== null);
        if (!asked) return;
        if ('reply' in asked) return say(asked.reply);
        const me: Joiner = {
          name: asked.join.name,
          hub: asked.join.hub,
          say,
          connection: () => {
            seated = true;
            lobbyOf.delete(socket);
            socket.off('data', onData);
            return { open: (ctx) => new TcpTransport(socket, ctx) };
          },
          drop: () => socket.destroy(),
        };
        const error = opts.onJoin(me);
        if (error) return say(error);
        joiner = me;
      },
      () => socket.destroy(),
    );
    const onData = (chunk: Buffer) => reader.push(chunk);
    socket.on('data', onData);
    socket.on('close', () => {
      lobbyOf.delete(socket);
      if (joiner && !seated) opts.onLeave?.(joiner);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new UsageError(`port ${opts.port} is in use on ${opts.host}; choose another with --port`));
      else if (err.code === 'EACCES')
        reject(new UsageError(`port ${opts.port} on ${opts.host} needs privileges this user lacks; choose one above 1023 with --port`));
      else if (err.code === 'EADDRNOTAVAIL') reject(new UsageError(`cannot listen on ${opts.host}: no such address on this machine`));
      else reject(err);
    });
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    async close(dropWaiting = true) {
      if (dropWaiting) for (const s of lobbyOf) s.destroy();
      // Stops accepting at once; seated connections belong to their matches, so their end is not awaited.
      if (server.listening) server.close();
    },
  };
}

/**
 * How long `play` and `doctor` wait for tcp bots to join when `--init-timeout` does not say: long enough to
 * start a bot by hand in another terminal, short enough that a bot connecting to another port (or none
 * started) is reported, with the port that was listened on, instead of a wait for ever.
 */
export const JOIN_WAIT_MS = 60_000;

/**
 * The join wait when `--init-timeout` does not say: JOIN_WAIT_MS, or BOTARENA_JOIN_WAIT_MS (milliseconds) when it
 * is set. That variable is for tests, which watch the default wait run out without spending a minute on it.
 */
export function defaultJoinWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BOTARENA_JOIN_WAIT_MS;
  if (raw === undefined || raw === '') return JOIN_WAIT_MS;
  const ms = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!(ms >= 1 && ms <= 2 ** 31 - 1))
    throw new UsageError(
      `BOTARENA_JOIN_WAIT_MS=${JSON.stringify(raw.slice(0, 40))}: expected a whole number of milliseconds, 1 to 2147483647 (it replaces the default 60 s wait for tcp bots to join; meant for tests)`,
    );
  return ms;
}

/**
 * For `botarena play GAME tcp …`: listens until `count` bots have joined (whatever hub they name), telling
 * each but the last to wait, then stops listening and returns them in join order, ready to be seated.
 * Cancelling (`signal`), or `waitMs` (default defaultJoinWaitMs()) passing first, rejects and drops those that joined.
 */
export async function acceptJoins(
  opts: { port: number; host: string; lobby: LobbyRules; count: number; waitMs?: number; log?: (line: string) => void },
  signal?: AbortSignal,
): Promise<{ name: string; connection: { open(ctx: ByteSeatContext): BotTransport } }[]> {
  const waitMs = opts.waitMs ?? defaultJoinWaitMs(); // before listening: a bad value leaves nothing open
  const joined: Joiner[] = [];
  const log = opts.log ?? (() => {});
  let done!: (j: Joiner[]) => void;
  const all = new Promise<Joiner[]>((resolve) => (done = resolve));
  const listener = await listenForBots({
    port: opts.port,
    host: opts.host,
    lobby: opts.lobby,
    onJoin(j) {
      if (joined.length >= opts.count) return null;
      joined.push(j);
      log(`${j.name} joined (${joined.length} of ${opts.count})`);
      if (joined.length < opts.count) j.say(opts.lobby.waiting);
      else done(joined);
      return null;
    },
    onLeave(j) {
      const i = joined.indexOf(j);
      if (i >= 0 && joined.length < opts.count) joined.splice(i, 1);
    },
  });
  // The default wait is named as such: the user did not choose it, and may want a longer one.
  const longer = opts.waitMs === undefined ? ' (the default wait: --init-timeout MS gives another)' : '';
  log(`waiting for ${opts.count} bot(s) to connect to ${opts.host}:${listener.port} and join, ${waitMs / 1000} s at most`);
  let timer: NodeJS.Timeout | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    const onAbort = () => reject(new Error(`cancelled while waiting for bots to join (${joined.length} of ${opts.count})`));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(
      () =>
        reject(
          new UsageError(
            `only ${joined.length} of ${opts.count} bots joined on ${opts.host}:${listener.port} within ${waitMs} ms${longer}; nothing was played`,
          ),
        ),
      waitMs,
    );
  });
  try {
    const seated = (await Promise.race([all, cancelled]).finally(() => clearTimeout(timer))).map((j) => ({ name: j.name, connection: j.connection() }));
    await listener.close(true); // bots still in the lobby are not in this match
    return seated;
  } catch (err) {
    for (const j of joined) j.drop();
    await listener.close(true);
    throw err;
  }
}
