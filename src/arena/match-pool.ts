import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { PersonLimits } from '../bots/browser-transport.js';
import type { MatchJob } from './match-job.js';
import { MatchCancelledError } from './run-match.js';
import { UsageError } from '../core/errors.js';
import type { PackedReplay } from './replay-pack.js';
import type { Replay } from '../core/replay.js';
import type { LiveEvents } from '../live/events.js';
import type { WorkerReply, WorkerRequest } from './match-thread.js';

type RunOpts = Extract<WorkerRequest, { type: 'run' }>['opts'];

/** The worker's file beside this module: the CLI bundle's .cjs, tsc's .js, or the source under tsx. */
function workerFile(): URL {
  for (const ext of ['.cjs', '.js', '.ts']) {
    const url = new URL(`./match-thread${ext}`, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  throw new Error('internal: the match thread (match-thread.cjs/.js/.ts) is missing beside match-pool');
}

/** What a run may hear from its thread as the match goes: its live events and its log lines. */
export interface RunHooks {
  live?: Pick<LiveEvents, 'publish'>;
  /** only the public audience's events are sent back (see match-thread.ts) */
  publicOnly?: boolean;
  /** the thread packs the replay for the store (see replay-pack.ts): `packed` comes with it, without its transcripts */
  pack?: boolean;
  log?: (line: string) => void;
  /** cancels this match alone: its thread stops it (its bots shut down), and the run rejects with MatchCancelledError */
  signal?: AbortSignal;
  /** a person's seats, by slot: the match thread's ends of their desks' channels (desk-bridge.ts), moved to the thread */
  persons?: { slot: number; port: MessagePort }[];
  personLimits?: PersonLimits;
  /** a linked bot's seats (`botarena connect`), by slot: the match thread's ends of their links' channels, moved to the thread */
  links?: { slot: number; port: MessagePort }[];
}

/**
 * Starts a worker thread on `file`. The source itself (tests under `node --import tsx`) needs tsx inside the
 * thread too: a worker does not inherit the loader the main thread registered, so it registers it first.
 */
function startThread(file: URL): Worker {
  if (!file.pathname.endsWith('.ts')) return new Worker(file);
  // require.resolve finds tsx's CommonJS entry; its ES one (which registers the ES loader) is beside it.
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const boot = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(file.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`));
}

/** How long a cancelled match's thread gets to stop it (its bots shut down) before the thread is ended. */
const CANCEL_WAIT_MS = 2000;

/** A match played in a thread: its replay, packed too when the run asked for it. */
export interface Finished {
  replay: Replay;
  packed?: PackedReplay;
}

interface Slot {
  worker: Worker;
  busy: { id: number; resolve: (r: Finished) => void; reject: (e: Error) => void; hooks?: RunHooks } | null;
}

/**
 * K worker threads, each running one match at a time (match-thread.ts): matches run side by side, and what
 * one computes in-process (built-in bots, the rules) never holds up another's deadlines. `run` waits for a free
 * worker. `cancel` stops every match under way (their bots are shut down first) and refuses new ones; `close`
 * ends the threads. A worker that dies takes only its match with it: that match fails, a new thread replaces it.
 * With `lazy`, threads start when a match first needs one (a server that plays nothing starts none).
 */
export class MatchPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: (() => void)[] = [];
  private nextId = 0;
  private cancelled = false;

  constructor(
    readonly size: number,
    private readonly opts: RunOpts = {},
    /** the thread's module (default: match-thread beside this file; the benches point at dist/'s) */
    private readonly worker: URL = workerFile(),
    lazy = false,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new UsageError(`the number of matches at once must be a whole number from 1, got ${size}`);
    if (!lazy) for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startThread(this.worker), busy: null };
    slot.worker.on('message', (reply: WorkerReply) => {
      const busy = slot.busy;
      if (!busy || busy.id !== reply.id) return;
      if (reply.type === 'live') return busy.hooks?.live?.publish(reply.matchId, reply.audience, reply.event);
      if (reply.type === 'log') return busy.hooks?.log?.(reply.line);
      slot.busy = null;
      if (reply.type === 'done') busy.resolve({ replay: reply.replay, packed: reply.packed });
      else busy.reject(reply.cancelled ? new MatchCancelledError(reply.message) : Object.assign(new Error(reply.message), { name: reply.name }));
      this.waiting.shift()?.();
    });
    slot.worker.on('error', (err) => {
      // The thread died (out of memory, a bug): its match fails, and a fresh thread takes its place.
      const busy = slot.busy;
      slot.busy = null;
      busy?.reject(err);
      const i = this.slots.indexOf(slot);
      if (i >= 0 && !this.cancelled) {
        this.slots[i] = this.spawn();
        this.waiting.shift()?.();
      }
    });
    return slot;
  }

  /** Runs a match on the next free worker; resolves with its replay. */
  async run(job: MatchJob): Promise<Replay> {
    return (await this.play(job)).replay;
  }

  /** Runs a match on the next free worker; `hooks` hear its live events and log lines, and may have it packed. */
  async play(job: MatchJob, hooks?: RunHooks): Promise<Finished> {
    for (;;) {
      if (this.cancelled) throw new MatchCancelledError(this.stopReason);
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) this.slots.push((slot = this.spawn()));
      if (hooks?.signal?.aborted) throw new MatchCancelledError('the match was cancelled before it started');
      if (slot) {
        const id = ++this.nextId;
        const s = slot;
        const signal = hooks?.signal;
        const onAbort = () => this.stopSlot(s, id);
        return new Promise<Finished>((resolve, reject) => {
          s.busy = { id, resolve, reject, hooks };
          const persons = hooks?.persons;
          const links = hooks?.links;
          s.worker.postMessage(
            {
              type: 'run',
              id,
              job,
              opts: this.opts,
              forward: !!hooks,
              publicOnly: hooks?.publicOnly,
              pack: hooks?.pack,
              persons,
              personLimits: hooks?.personLimits,
              links,
            } satisfies WorkerRequest,
            [...(persons ?? []), ...(links ?? [])].map((p) => p.port),
          );
          signal?.addEventListener('abort', onAbort, { once: true });
        }).finally(() => signal?.removeEventListener('abort', onAbort));
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Matches under way now. */
  get running(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  /** what a match refused or cancelled by `cancel` is told */
  private stopReason = 'the tournament was stopped';

  /** Stops every match under way (their bots shut down) and refuses new ones; resolves once they have all ended. */
  async cancel(reason?: string): Promise<void> {
    this.cancelled = true;
    if (reason) this.stopReason = reason;
    const ending = this.slots
      .filter((s) => s.busy)
      .map(
        (s) =>
          new Promise<void>((resolve) => {
            const busy = s.busy!;
            const [res, rej] = [busy.resolve, busy.reject];
            busy.resolve = (r) => (res(r), resolve());
            busy.reject = (e) => (rej(e), resolve());
          }),
      );
    for (const s of this.slots) if (s.busy) this.stopSlot(s, s.busy.id);
    for (const w of this.waiting.splice(0)) w();
    await Promise.all(ending);
  }

  /**
   * Stops the match `id` if slot `s` still plays it. A thread whose match never waits on anything outside it
   * (built-in bots only: every answer is a resolved promise) never reads the cancel: past CANCEL_WAIT_MS it
   * is ended, and its match with it (a fresh thread takes its place).
   */
  private stopSlot(s: Slot, id: number): void {
    if (s.busy?.id !== id) return;
    s.worker.postMessage({ type: 'cancel' } satisfies WorkerRequest);
    const timer = setTimeout(() => {
      const busy = s.busy;
      if (!busy || busy.id !== id) return;
      s.busy = null;
      void s.worker.terminate();
      const i = this.slots.indexOf(s);
      if (i >= 0 && !this.cancelled) this.slots[i] = this.spawn();
      busy.reject(new MatchCancelledError(this.stopReason));
      this.waiting.shift()?.();
    }, CANCEL_WAIT_MS);
    timer.unref();
    const busy = s.busy;
    const [res, rej] = [busy.resolve, busy.reject];
    busy.resolve = (r) => (clearTimeout(timer), res(r));
    busy.reject = (e) => (clearTimeout(timer), rej(e));
  }

  /** Ends the worker threads (after `cancel`, or once every match has ended). */
  async close(): Promise<void> {
    this.cancelled = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
