import { listenForBots, type Joiner } from '../bots/connect-in.js';
import { MatchEngine } from '../core/engine.js';
import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';
import { MatchCancelledError, runMatch, type MatchReport } from './run-match.js';

/** A hub: where bots that connected in wait to be put in a match of `min`..`max` players. */
export interface Hub {
  name: string;
  min: number;
  max: number;
}

/** The game's side of a hub server: what each match a hub starts is played with. */
export interface HubPlan<H extends Hub> {
  /** the config of the next match of `hub`, for `players` bots (maps in rotation, numbering…) */
  next(hub: H, players: number): Record<string, unknown>;
  /** every config a match of `hub` may be played with (each of its maps), checked before the server listens */
  configs(hub: H): Record<string, unknown>[];
}

/** What a hub server is told and what it reports. */
export interface HubServerOptions<H extends Hub> {
  /** the game played; its `lobby` rules give the lines bots join with */
  game: AnyGame;
  hubs: H[];
  plan: HubPlan<H>;
  port?: number;
  host?: string;
  /** a hub with min < max waits this long after each join, once it has `min` bots, before it starts (4 s) */
  gatherMs?: number;
  /** each finished match's report (its replay is in it) */
  onGame?: (report: MatchReport, hub: string) => void;
  /** one line per event for an operator's log */
  log?: (line: string) => void;
  /** a connection that has not joined after this long is closed (60 s) */
  joinWithinMs?: number;
  /** connections at once from one address (100) */
  maxPerAddress?: number;
}

/** A running hub server: its port, the matches under way, and a way to stop it (matches under way are cancelled). */
export interface HubServer {
  port: number;
  running: Set<Promise<unknown>>;
  close(): Promise<void>;
}

/**
 * The matchmaking of games whose bots connect in (smart-dog's server): bots connect, join a hub with the
 * game's lobby line, wait, and play as soon as their hub can start a match; many matches run at once, each
 * through the match runner (so each is a replay like any other). A hub whose `max` is reached starts at
 * once; one with `min` bots waiting starts after `gatherMs` without a new join. Every match a hub may start
 * is checked first (each config, each player count): a bad option is a usage error naming the hub, before
 * anyone connects, and the game's config warnings are logged.
 */
export async function startHubServer<H extends Hub>(opts: HubServerOptions<H>): Promise<HubServer> {
  const { game } = opts;
  const lobby = game.wire.lobby;
  if (!lobby) throw new Error(`game ${game.id} has no lobby rules: its bots do not connect in`);
  const hubs = new Map(opts.hubs.map((h) => [h.name.toLowerCase(), h]));
  const queues = new Map([...hubs.keys()].map((k) => [k, [] as Joiner[]]));
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  const controller = new AbortController();
  const log = opts.log ?? (() => {});
  let games = 0;
  checkHubs(game, opts.hubs, opts.plan, log);

  const listener = await listenForBots({
    port: opts.port ?? 3002,
    host: opts.host ?? '127.0.0.1',
    lobby,
    joinWithinMs: opts.joinWithinMs,
    maxPerAddress: opts.maxPerAddress,
    onJoin(joiner) {
      const hub = hubs.get((joiner.hub ?? 'default').replace(/^#/, '').toLowerCase());
      if (!hub) return lobby.noSuchHub;
      join(hub, joiner);
      return null;
    },
    onLeave(joiner) {
      for (const q of queues.values()) {
        const i = q.indexOf(joiner);
        if (i >= 0) q.splice(i, 1);
      }
    },
  });

  /** Queues a joiner; starts a match when the hub can, else tells it to wait. */
  function join(hub: H, who: Joiner): void {
    const key = hub.name.toLowerCase();
    const q = queues.get(key)!;
    q.push(who);
    log(`${who.name} joined ${hub.name} (${q.length} waiting)`);
    clearTimeout(timers.get(key));
    if (q.length >= hub.max) return start(hub, q.splice(0, hub.max));
    who.say(lobby!.waiting);
    if (hub.min < hub.max && q.length >= hub.min) {
      timers.set(
        key,
        setTimeout(() => q.length >= hub.min && start(hub, q.splice(0, hub.max)), opts.gatherMs ?? 4000),
      );
    }
  }

  /** Starts a match of `players` as the plan says, through the runner. */
  function start(hub: H, players: Joiner[]): void {
    const id = ++games;
    let config: Record<string, unknown>;
    try {
      config = opts.plan.next(hub, players.length);
    } catch (err) {
      log(`game ${id} on ${hub.name} could not start: ${err instanceof Error ? err.message : String(err)}`);
      for (const p of players) p.drop();
      return;
    }
    log(
      `game ${id} on ${hub.name}${typeof config.map === 'string' && config.map.length < 40 ? ` (${config.map})` : ''}: ${players.map((p) => p.name).join(', ')}`,
    );
    const connections = players.map((p) => p.connection());
    const match = runMatch(
      { game: game.id, seed: id, matchId: String(id), config, seats: players.map((p) => ({ bot: 'tcp', name: p.name })) },
      { game, connections, signal: controller.signal },
    )
      .then((report) => {
        log(`game ${id} over: ${report.replay.result.reason}`);
        opts.onGame?.(report, hub.name);
      })
      .catch((err: unknown) => {
        log(`game ${id} ${err instanceof MatchCancelledError ? 'cancelled' : 'stopped'}: ${err instanceof Error ? err.message : String(err)}`);
        for (const p of players) p.drop();
      })
      .finally(() => running.delete(match));
    running.add(match);
  }

  return {
    port: listener.port,
    running,
    async close() {
      for (const t of timers.values()) clearTimeout(t);
      controller.abort();
      for (const q of queues.values()) q.splice(0);
      await listener.close(true);
      await Promise.allSettled([...running]);
    },
  };
}

/** Sets up every match the hubs may start (each config, each player count): throws a usage error naming the hub. */
function checkHubs<H extends Hub>(game: AnyGame, hubs: H[], plan: HubPlan<H>, log: (line: string) => void): void {
  const warned = new Set<string>();
  for (const hub of hubs) {
    for (const config of plan.configs(hub)) {
      for (let players = hub.min; players <= hub.max; players++) {
        let engine: MatchEngine;
        try {
          engine = new MatchEngine(game, { config, seed: 1, players });
        } catch (err) {
          throw new UsageError(`hub ${hub.name} (${players} players): ${err instanceof Error ? err.message : String(err)}`);
        }
        for (const w of engine.warnings) warned.add(`hub ${hub.name}: warning: ${w}`);
      }
    }
  }
  for (const line of warned) log(line);
}
