import { createServer, type Server, type Socket } from 'node:net';
import { MatchCancelledError, runMatch, type MatchReport } from '../arena/run-match.js';
import { TcpTransport } from '../bots/index.js';
import { LineReader } from '../bots/line-reader.js';
import { hubOptions, mapText } from '../games/smartdog/index.js';
import { MAPS } from '../games/smartdog/maps.js';
import { setup } from '../games/smartdog/rules.js';

/** A hub: where players wait to be put in a game; `min`..`max` players, maps in rotation, options for its games. */
export interface Hub {
  name: string;
  min: number;
  max: number;
  maps: string[];
  options: Record<string, unknown>;
}

/** The reference server's hubs: `default` takes 2–4 players, the others a fixed count. */
export function defaultHubs(maps: string[] = Object.keys(MAPS), options: Record<string, unknown> = {}): Hub[] {
  const hub = (name: string, min: number, max: number): Hub => ({ name, min, max, maps, options });
  return [hub('default', 2, 4), hub('solo', 1, 1), hub('duet', 2, 2), hub('trio', 3, 3), hub('quartet', 4, 4)];
}

/** What the gateway is told and what it reports. */
export interface GatewayOptions {
  port?: number;
  host?: string;
  hubs?: Hub[];
  /** the default hub waits this long after each join, with 2 or 3 players waiting, before it starts (4 s) */
  gatherMs?: number;
  /** each finished game's report (its replay is in it) */
  onGame?: (report: MatchReport, hub: string) => void;
  /** one line per event for an operator's log */
  log?: (line: string) => void;
  /** a player that times out or disconnects: `out` (the spec's default) or `abort` (the reference's: the game stops) */
  leave?: 'out' | 'abort';
}

/** A running gateway: its port, the games under way, and a way to stop it (games under way are cancelled). */
export interface Gateway {
  port: number;
  running: Set<Promise<unknown>>;
  close(): Promise<void>;
}

/** A player waiting in a hub; `begin` hands its socket over to a game. */
interface Waiting {
  name: string;
  socket: Socket;
  begin(): void;
}

/**
 * Reads a client's lines before its game: `join NAME [#]HUB` goes to `onJoin` (which answers `wait`, starts
 * a game, or returns an error line); anything else is answered as the reference server does. Returns the
 * function that stops reading, for when a game takes the socket over.
 */
function lobby(socket: Socket, onJoin: (name: string, hub: string | undefined, say: (line: string) => void) => string | null): () => void {
  let joined = false;
  const say = (line: string) => void (socket.writable && socket.write(line + '\n'));
  const reader = new LineReader(64 * 1024, (line) => {
    const words = line.trim().split(/\s+/).filter(Boolean);
    const cmd = words[0] ?? '';
    if (cmd === '') return;
    if (cmd === 'join') {
      if (joined) return say('error Already joined');
      const error = onJoin(words[1] ?? 'player', words[2], say);
      if (error) return say(error);
      joined = true;
      return;
    }
    if (cmd === 'do' || cmd === 'end') return say('error Not in a game');
    say(`error Unknown command: ${cmd}(${line.trim().slice(cmd.length).trim()})`);
  }, () => socket.destroy());
  const onData = (chunk: Buffer) => reader.push(chunk);
  socket.on('error', () => {});
  socket.on('data', onData);
  return () => socket.off('data', onData);
}

/**
 * The smart-dog server: bots connect, `join <name> [#]<hub>`, wait, and play as soon as their hub can
 * start a game; many games run at once, each through the match runner (so each is a replay like any other).
 * A malformed line gets an `error`, never a crash.
 */
export async function startSmartdogGateway(opts: GatewayOptions = {}): Promise<Gateway> {
  const hubs = new Map((opts.hubs ?? defaultHubs()).map((h) => [h.name.toLowerCase(), h]));
  const queues = new Map([...hubs.keys()].map((k) => [k, [] as Waiting[]]));
  const timers = new Map<string, NodeJS.Timeout>();
  const rotation = new Map<string, number>();
  const running = new Set<Promise<unknown>>();
  const controller = new AbortController();
  const log = opts.log ?? (() => {});
  let nextDogId = 1;
  let games = 0;

  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    let me: Waiting | null = null;
    const stop = lobby(socket, (name, hubWord, say) => {
      const hub = hubs.get((hubWord ?? 'default').replace(/^#/, '').toLowerCase());
      if (!hub) return 'error No such hub';
      me = { name, socket, begin: stop };
      join(hub, me, say);
      return null;
    });
    socket.on('close', () => {
      for (const q of queues.values()) {
        const i = me ? q.indexOf(me) : -1;
        if (i >= 0) q.splice(i, 1);
      }
    });
  });

  /** Queues a joiner; starts a game when the hub can, else tells it to wait (the default hub gathers for a while). */
  function join(hub: Hub, who: Waiting, say: (line: string) => void): void {
    const key = hub.name.toLowerCase();
    const q = queues.get(key)!;
    q.push(who);
    log(`${who.name} joined ${hub.name} (${q.length} waiting)`);
    clearTimeout(timers.get(key));
    if (q.length >= hub.max) return start(hub, q.splice(0, hub.max));
    say('wait ');
    if (hub.min < hub.max && q.length >= hub.min) {
      timers.set(key, setTimeout(() => q.length >= hub.min && start(hub, q.splice(0, hub.max)), opts.gatherMs ?? 4000));
    }
  }

  /** Starts a game of `players` on the hub's next map, through the runner, recording its replay. */
  function start(hub: Hub, players: Waiting[]): void {
    const turn = rotation.get(hub.name) ?? 0;
    rotation.set(hub.name, turn + 1);
    const map = hub.maps[turn % hub.maps.length]!;
    const options = JSON.stringify(hub.options);
    const firstDogId = nextDogId;
    nextDogId += setup({ map: mapText(map), players: players.length, hubOptions: hubOptions(options) }).dogs.length;
    const id = ++games;
    log(`game ${id} on ${hub.name} (${map}): ${players.map((p) => p.name).join(', ')}`);
    for (const p of players) p.begin();
    const match = runMatch({
      game: 'smartdog',
      seed: id,
      matchId: String(id),
      config: { map, options, firstDogId, leave: opts.leave ?? 'out' },
      seats: players.map((p) => ({ bot: 'tcp', name: p.name, open: (ctx) => new TcpTransport(p.socket, ctx) })),
      signal: controller.signal,
    })
      .then((report) => {
        log(`game ${id} over: ${report.replay.result.reason}`);
        opts.onGame?.(report, hub.name);
      })
      .catch((err: unknown) => {
        log(`game ${id} stopped: ${err instanceof Error ? err.message : String(err)}`);
        for (const p of players) p.socket.destroy();
      })
      .finally(() => running.delete(match));
    running.add(match);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 3002, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : (opts.port ?? 3002),
    running,
    async close() {
      for (const t of timers.values()) clearTimeout(t);
      controller.abort();
      for (const q of queues.values()) for (const w of q.splice(0)) w.socket.destroy();
      await Promise.allSettled([...running]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * For `botarena play smartdog tcp …`: listens on `port` until `count` bots have joined (whatever hub they
 * name), answering `wait` until the last one, then stops listening and returns them in join order.
 */
export async function acceptJoins(port: number, host: string, count: number, log: (line: string) => void = () => {}, signal?: AbortSignal): Promise<{ name: string; socket: Socket }[]> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  log(`waiting for ${count} bot(s) to connect to ${host}:${(server.address() as { port: number }).port} and join`);
  const joined: { name: string; socket: Socket; stop: () => void }[] = [];
  return new Promise((resolve, reject) => {
    signal?.addEventListener('abort', () => {
      server.close();
      for (const j of joined) j.socket.destroy();
      reject(new MatchCancelledError(`cancelled while waiting for bots to join (${joined.length} of ${count})`));
    }, { once: true });
    server.on('connection', (socket) => {
      const stop = lobby(socket, (name, _hub, say) => {
        joined.push({ name, socket, stop });
        log(`${name} joined (${joined.length} of ${count})`);
        if (joined.length < count) {
          say('wait ');
          return null;
        }
        for (const j of joined) j.stop();
        server.close();
        resolve(joined.map(({ name: n, socket: s }) => ({ name: n, socket: s })));
        return null;
      });
      socket.once('close', () => {
        const i = joined.findIndex((j) => j.socket === socket);
        if (i >= 0 && joined.length < count) joined.splice(i, 1);
      });
    });
  });
}
