import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// What a server or a worker tells Prometheus (prom-client's text format at /metrics): the matches played in
// this process (started, finished, aborted per game; their duration; how long they waited in the queue; the
// bots' faults by kind), its slots and how many are busy, and Node's own process metrics (CPU, memory, event-
// loop lag, GC). The server adds what it alone knows (the queue's depth in the store, its live viewers).
// Each process counts what it plays: sum over the processes for the arena's figures.

/** A fault of a bot as a match's result keeps it (the seat's latest, with its kind). */
interface SeatFault {
  kind: string;
}

/** What a finished match says about itself, as much as the metrics read of its replay. */
export interface FinishedMatch {
  durationMs?: number;
  result: { faults: readonly (SeatFault | null)[] };
}

/** How long a match may take, seconds: from a tictactoe between built-ins to a long Tron. */
const DURATION_BUCKETS = [0.05, 0.25, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
/** How long a match may wait before it starts, seconds. */
const WAIT_BUCKETS = [0.01, 0.05, 0.25, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

/**
 * One process's metrics (a registry of its own, so that several servers in one process, as in tests, do not
 * mix). The match handler reports to it (`started`, `finished`, `aborted`, `left`: the shape of its
 * `MatchObserver`); `gauge` adds a figure read when scraped.
 */
export class ArenaMetrics {
  readonly registry = new Registry();
  private readonly startedC: Counter<'game'>;
  private readonly finishedC: Counter<'game'>;
  private readonly abortedC: Counter<'game'>;
  private readonly faultsC: Counter<'game' | 'kind'>;
  private readonly duration: Histogram<'game'>;
  private readonly wait: Histogram;
  private readonly busy: Gauge;

  /** `slots`: matches this process plays at once (the server's --concurrency, a worker's). */
  constructor(slots: number) {
    processMetrics();
    const registers = [this.registry];
    this.startedC = new Counter({
      name: 'botarena_matches_started_total',
      help: 'matches started in this process (each try), by game',
      labelNames: ['game'],
      registers,
    });
    this.finishedC = new Counter({
      name: 'botarena_matches_finished_total',
      help: 'matches played to their end and recorded by this process, by game',
      labelNames: ['game'],
      registers,
    });
    this.abortedC = new Counter({
      name: 'botarena_matches_aborted_total',
      help: 'matches this process marked aborted (refused, given up, the arena failed, stopped), by game',
      labelNames: ['game'],
      registers,
    });
    this.faultsC = new Counter({
      name: 'botarena_bot_faults_total',
      help: "seats of the finished matches whose bot faulted, by game and by the kind of the seat's fault (timeout, crash, transport, not-json, illegal-move…)",
      labelNames: ['game', 'kind'],
      registers,
    });
    this.duration = new Histogram({
      name: 'botarena_match_duration_seconds',
      help: 'how long the finished matches played, by game',
      labelNames: ['game'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.wait = new Histogram({
      name: 'botarena_queue_wait_seconds',
      help: 'how long a match waited from being queued to its first start here',
      buckets: WAIT_BUCKETS,
      registers,
    });
    new Gauge({ name: 'botarena_slots', help: 'matches this process plays at once at most', registers }).set(slots);
    this.busy = new Gauge({ name: 'botarena_slots_busy', help: 'matches this process is playing now', registers });
  }

  /** A match starts here (a try); `waitedMs`: since it was queued, on its first try (null on a later one). */
  started(game: string, waitedMs: number | null): void {
    this.startedC.inc({ game });
    this.busy.inc();
    if (waitedMs !== null && Number.isFinite(waitedMs)) this.wait.observe(Math.max(0, waitedMs) / 1000);
  }

  /** A match started here leaves its slot (finished, aborted, handed back, failed). */
  left(): void {
    this.busy.dec();
  }

  /** A match played here was recorded: its duration and the faults of its seats. */
  finished(game: string, replay: FinishedMatch): void {
    this.finishedC.inc({ game });
    if (replay.durationMs !== undefined) this.duration.observe({ game }, replay.durationMs / 1000);
    for (const fault of replay.result.faults) if (fault) this.faultsC.inc({ game, kind: fault.kind });
  }

  /** A match was marked aborted by this process. */
  aborted(game: string): void {
    this.abortedC.inc({ game });
  }

  /**
   * A gauge read when scraped: `read` returns its value, or null when it cannot be known now (the store away),
   * and the gauge is then left out of that scrape rather than failing it.
   */
  gauge(name: string, help: string, read: () => number | null | Promise<number | null>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        let value: number | null = null;
        try {
          value = await read();
        } catch {
          value = null;
        }
        if (value === null) this.reset();
        else this.set(value);
      },
    });
  }

  /** The page Prometheus scrapes: the process's own metrics, then these. */
  async text(): Promise<{ contentType: string; body: string }> {
    const page = Registry.merge([processMetrics(), this.registry]);
    return { contentType: page.contentType, body: await page.metrics() };
  }
}

let processRegistry: Registry | null = null;

/**
 * Node's own metrics (CPU, memory, heap, GC, handles, event-loop lag), once per process: they watch the
 * process (a GC observer, an event-loop delay monitor that are never stopped), not one server of it.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * Whether a request may read /metrics: always without a token; with one, only with `Authorization: Bearer
 * TOKEN` (compared in constant time).
 */
export function metricsAllowed(token: string | undefined, authorization: string | undefined): boolean {
  if (!token) return true;
  const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What a metrics-only HTTP server says to a request without the token. */
export const METRICS_UNAUTHORIZED = 'metrics: this /metrics needs "Authorization: Bearer TOKEN" (the --metrics-token it was started with)\n';

/** A running metrics-only HTTP server (a worker's `--metrics-port`). */
export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A worker's HTTP server for Prometheus: `GET /metrics` (behind `token` if one is given) and `GET /healthz`
 * (the process is up); anything else is 404. It reads no request body.
 */
export async function serveMetrics(metrics: ArenaMetrics, o: { port: number; host: string; token?: string }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain; charset=utf-8', `metrics: only GET is answered here, not ${req.method}\n`);
    if (path === '/healthz') return send(200, 'application/json', '{"ok":true}\n');
    if (path !== '/metrics') return send(404, 'text/plain; charset=utf-8', `metrics: no ${path} here; Prometheus reads GET /metrics\n`);
    if (!metricsAllowed(o.token, req.headers.authorization)) return send(401, 'text/plain; charset=utf-8', METRICS_UNAUTHORIZED);
    metrics.text().then(
      (page) => send(200, page.contentType, page.body),
      (err: unknown) => send(500, 'text/plain; charset=utf-8', `metrics: ${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => (server.off('error', reject), resolve()));
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : o.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
