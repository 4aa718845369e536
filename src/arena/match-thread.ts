import { parentPort, type MessagePort } from 'node:worker_threads';
import { BrowserTransport, type PersonLimits } from '../bots/browser-transport.js';
import { LinkTransport } from '../bots/link-transport.js';
import type { SeatContext } from '../bots/transport.js';
import { PortDesk } from './desk-bridge.js';
import type { SeatConnection } from './seat.js';
import { MatchCancelledError, runMatch, type RunOptions } from './run-match.js';
import type { MatchJob } from './match-job.js';
import { packReplay, type PackedReplay } from './replay-pack.js';
import type { Replay } from '../core/replay.js';
import type { Audience, LiveEvent, LiveEvents } from '../live/events.js';

/**
 * A match thread of the match pool (see match-pool.ts): runs one match at a time, on its own event loop, so a built-in
 * bot's search in one match never delays another match's deadlines. Messages in: `run` (a job and its
 * options; `forward`: send its live events and log lines back), `cancel` (stop the match: its bots are shut
 * down). Messages out: `live` and `log` (when forwarded), `done` (the replay), `failed` (the error's name and
 * message; `cancelled` for a cancelled match).
 */
export type WorkerRequest =
  | {
      type: 'run';
      id: number;
      job: MatchJob;
      opts: Pick<
        RunOptions,
        'sandbox' | 'uploads' | 'botEnv' | 'maxAnswerBytes' | 'maxStderrBytes' | 'maxTranscriptBytes' | 'addressPolicy' | 'pauseBetweenTurns'
      >;
      forward?: boolean;
      publicOnly?: boolean;
      pack?: boolean;
      /** a person's seats: each slot's end of the channel to its desk on the thread that serves the pages (desk-bridge.ts) */
      persons?: { slot: number; port: MessagePort }[];
      personLimits?: PersonLimits;
      /** a linked bot's seats (`botarena connect`): each slot's end of the channel to its link on the server's main thread (matches/links.ts) */
      links?: { slot: number; port: MessagePort }[];
    }
  | { type: 'cancel' };
export type WorkerReply =
  | { type: 'done'; id: number; replay: Replay; packed?: PackedReplay }
  | { type: 'failed'; id: number; name: string; message: string; cancelled: boolean }
  | { type: 'live'; id: number; matchId: string; audience: Audience; event: LiveEvent }
  | { type: 'log'; id: number; line: string };

const port = parentPort;
if (!port) throw new Error('match-thread.ts runs as a worker thread of the match pool');
let current: AbortController | null = null;

port.on('message', (msg: WorkerRequest) => {
  if (msg.type === 'cancel') {
    current?.abort();
    return;
  }
  const controller = new AbortController();
  current = controller;
  const { id } = msg;
  // The live events go to the thread that owns the real LiveEvents (the server's): only publishing travels.
  // `publicOnly`: the others stay here (a server streams only the public audience; in Tron the seats' messages,
  // the whole board each lap for each seat, would cost the server's thread more every lap).
  const live: LiveEvents | undefined = msg.forward
    ? {
        publish: (matchId, audience, event) => {
          if (audience === 'public' || !msg.publicOnly) port.postMessage({ type: 'live', id, matchId, audience, event } satisfies WorkerReply);
        },
        subscribe: () => () => {},
        history: () => Promise.resolve(null),
        close: () => Promise.resolve(),
      }
    : undefined;
  const log = msg.forward ? (line: string) => port.postMessage({ type: 'log', id, line } satisfies WorkerReply) : undefined;
  // A person's seat: its BrowserTransport plays here, on a desk whose pages are on the other end of the port.
  let connections: (SeatConnection | undefined)[] | undefined;
  for (const { slot, port: deskPort } of msg.persons ?? []) {
    connections ??= [];
    connections[slot] = { open: (ctx) => new BrowserTransport(ctx as SeatContext, new PortDesk(deskPort), msg.personLimits) };
  }
  for (const { slot, port: linkPort } of msg.links ?? []) {
    connections ??= [];
    connections[slot] = { open: (ctx) => new LinkTransport(linkPort, ctx) };
  }
  runMatch(msg.job, { ...msg.opts, signal: controller.signal, live, log, connections })
    .then(
      (report) => {
        if (!msg.pack) return port.postMessage({ type: 'done', id: msg.id, replay: report.replay } satisfies WorkerReply);
        // Packed here, and the transcripts left here: the receiving thread gets only the gzipped bytes. (Copied,
        // not transferred: a small Buffer shares Node's pool, which must not be detached.)
        const packed = packReplay(report.replay);
        const { transcripts: _kept, ...replay } = report.replay;
        port.postMessage({ type: 'done', id: msg.id, replay, packed } satisfies WorkerReply);
      },
      (err: unknown) => {
        const e = err instanceof Error ? err : new Error(String(err));
        port.postMessage({ type: 'failed', id: msg.id, name: e.name, message: e.message, cancelled: err instanceof MatchCancelledError } satisfies WorkerReply);
      },
    )
    .finally(() => {
      if (current === controller) current = null;
    });
});
