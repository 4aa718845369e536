import type { FastifyBaseLogger } from 'fastify';
import { startHubServer } from '../arena/hubs.js';
import { newJob } from '../arena/match-job.js';
import type { MatchReport } from '../arena/run-match.js';
import { UsageError } from '../core/errors.js';
import type { Replay } from '../core/replay.js';
import { getGame } from '../games/index.js';
import { defaultHubs, SmartdogHubPlan, type SmartdogHub } from '../games/smartdog/hubs.js';
import { ConflictError, LIMITS, type BotRow, type Store } from '../store/index.js';
import { recordFinishedMatch } from '../matches/play.js';

/** How the server's smart-dog gateway runs. */
export interface GatewayOptions {
  /** the TCP port (0: one the system chooses; the running gateway tells which) */
  port: number;
  host: string;
  /** the hubs (default: `botarena smartdog serve`'s: default 2–4, solo, duet, trio, quartet on its maps) */
  hubs?: SmartdogHub[];
  /** how long a hub with min < max players gathers after each join before it starts (default 4 s) */
  gatherMs?: number;
  /** games that end before this settles are recorded once it has (the server: once the arena has started) */
  recordAfter?: Promise<unknown>;
  /** the server process's name, recorded as the `worker` of the games it records */
  node?: string;
}

/** A running gateway: its port, and how to stop it (games under way are cancelled, finished ones recorded first). */
export interface Gateway {
  port: number;
  close(): Promise<void>;
}

/** The maps `botarena smartdog serve` rotates through by default. */
const DEFAULT_MAPS = ['training', 'meadow', 'keeper', 'highlands'];

/** What a gateway bot's endpoint starts with: no bot spec, so neither the ladder nor an on-demand match can launch it. */
const GATEWAY_ENDPOINT = 'tcp-gateway:';

/**
 * The smart-dog TCP gateway inside the arena server: `botarena smartdog serve`'s hub server (bots connect,
 * `join NAME HUB`, and play when their hub fills), with each finished game recorded in the store like any
 * ladder match (`recordFinishedMatch`, the arena's own): rated, its replay downloadable, its seats the
 * players' bots. A name the store does not know yet becomes a smart-dog bot of its own (active, no owner
 * token, endpoint `tcp-gateway:NAME`, which no transport reads: the arena never launches it).
 *
 * As in the original smart-dog server there is no authentication: anyone may join under any name, and so
 * play (and move the rating of) the gateway bot of that name. Names are the arena's:
 * - a TCP name is made a bot name: characters other than letters, digits and `. _ + -` become `_`, it starts
 *   with a letter or digit (`tcp` is put before one that does not), and it is cut to 58 characters;
 * - when that name belongs to a bot that is not the gateway's (a built-in bot, a bot registered over HTTP
 *   with its owner's token), the player is recorded as the gateway bot `NAME (tcp)` instead — a name the
 *   HTTP API cannot register (no parentheses there) — so a TCP player never plays as, or rates, someone
 *   else's bot; the game is recorded all the same;
 * - the replay kept in the store names its seats by these bot names, and has the store's match id (the hub
 *   numbers its games from 1 at each start); the rest of it is the game as played.
 * A game is rated when each of its bots is active: an admin may pause a gateway bot (its games are then kept
 * unrated). Gateway bots are not paused for faults as ladder bots are: they are never launched by the arena,
 * and nobody holds a token to re-activate them. A solo game is recorded; with no opponent it moves no rating.
 */
export async function startGateway(store: Store, log: FastifyBaseLogger, opts: GatewayOptions): Promise<Gateway> {
  const hubs = opts.hubs ?? defaultHubs(DEFAULT_MAPS);
  // Recorded one at a time, in the order the games end: a new name's bot is created once.
  let recording: Promise<unknown> = (opts.recordAfter ?? Promise.resolve()).catch(() => {});
  const hubServer = await startHubServer({
    game: getGame('smartdog'),
    hubs,
    plan: new SmartdogHubPlan('out'),
    port: opts.port,
    host: opts.host,
    gatherMs: opts.gatherMs,
    log: (line) => (/could not start|stopped:|warning/.test(line) ? log.warn({ gateway: true }, line) : log.debug({ gateway: true }, line)),
    onGame: (report, hub) => {
      recording = recording.then(() =>
        recordGame(store, log, report, hub, opts.node).catch((err: unknown) =>
          log.error({ err, hub, tcpGame: report.replay.matchId }, 'the smart-dog gateway could not record a game'),
        ),
      );
    },
  }).catch((err: unknown) => {
    // A port in use names the serve command's option for it.
    throw err instanceof UsageError ? new UsageError(`smart-dog gateway: ${err.message.replace('--port', '--gateway-port (or --no-gateway)')}`) : err;
  });
  log.info(
    { port: hubServer.port, host: opts.host },
    `smart-dog gateway on ${opts.host}:${hubServer.port}; hubs: ${hubs.map((h) => `${h.name} (${h.min === h.max ? h.min : `${h.min}–${h.max}`})`).join(', ')}`,
  );
  return {
    port: hubServer.port,
    async close() {
      await hubServer.close();
      await recording;
    },
  };
}

/** Records one finished gateway game: its players' bots (created when new), then the match, as the arena does. */
async function recordGame(store: Store, log: FastifyBaseLogger, report: MatchReport, hub: string, node?: string): Promise<void> {
  const played = report.replay;
  const bots: BotRow[] = [];
  for (const seat of played.seats) bots.push(await gatewayBot(store, log, seat.name));
  const matchId = crypto.randomUUID();
  const replay: Replay = { ...played, matchId, seats: played.seats.map((s, slot) => ({ ...s, name: bots[slot]!.name })) };
  const rated = bots.every((b) => b.status === 'active');
  // The job the hub played, as a job of the store: connect-in seats (`tcp`), the game's own deadlines.
  const job = newJob({
    matchId,
    game: 'smartdog',
    seed: replay.seed,
    config: replay.config,
    seats: bots.map((b) => ({ bot: 'tcp', name: b.name })),
    timeouts: {},
  });
  await store.createMatch({
    id: matchId,
    game: 'smartdog',
    kind: 'ladder',
    rated,
    seed: replay.seed,
    config: replay.config,
    job,
    seats: bots.map((b) => b.id),
  });
  try {
    if (!(await store.startMatch(matchId, node))) throw new Error(`match ${matchId} was started elsewhere`);
    const { stored, seats } = await recordFinishedMatch(store, job, bots, replay, rated);
    log.info({ match: matchId, hub, tcpGame: played.matchId, ranks: seats.map((s) => `${s.name}:${s.rank}`), rated, stored }, 'gateway game recorded');
  } catch (err) {
    await store.abortMatch(matchId, `the smart-dog gateway could not record the game: ${err instanceof Error ? err.message : String(err)}`).catch(() => {});
    throw err;
  }
}

/** The bot name a TCP name is recorded under (before a collision): see startGateway. */
export function gatewayName(tcpName: string): string {
  const clean = tcpName.replace(/[^A-Za-z0-9._+-]/g, '_');
  return (/^[A-Za-z0-9]/.test(clean) ? clean : `tcp${clean}`).slice(0, LIMITS.name - ' (tcp)'.length);
}

/** Whether a bot is one the gateway made (not a built-in, not registered with an owner token). */
function isGatewayBot(b: BotRow): boolean {
  return !b.builtin && b.tokenHash === null && b.endpoint.startsWith(GATEWAY_ENDPOINT);
}

/** The gateway bot a TCP player is recorded as: `NAME`, or `NAME (tcp)` when another's bot holds NAME; created when new. */
async function gatewayBot(store: Store, log: FastifyBaseLogger, tcpName: string): Promise<BotRow> {
  const base = gatewayName(tcpName);
  for (const name of [base, `${base} (tcp)`]) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const found = await store.getBotByName('smartdog', name);
      if (found) {
        if (isGatewayBot(found)) return found;
        break; // another's bot: the next name
      }
      try {
        const bot = await store.createBot({
          game: 'smartdog',
          name,
          endpoint: GATEWAY_ENDPOINT + name,
          description: `plays through the smart-dog gateway (TCP); first joined as ${JSON.stringify(tcpName).slice(0, 300)}`,
          status: 'active',
          capacity: 1,
        });
        log.info({ bot: bot.id, name }, 'smart-dog gateway bot registered');
        return bot;
      } catch (err) {
        if (!(err instanceof ConflictError)) throw err; // taken meanwhile (another process): look again
      }
    }
  }
  throw new Error(
    `the TCP player ${JSON.stringify(tcpName).slice(0, 100)} has no bot: "${base}" and "${base} (tcp)" are held by bots that are not the gateway's`,
  );
}
