import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

/** What an SSE stream may carry: anything with a `type`, which names the event. */
export interface SseEvent {
  type: string;
}

/** How many event streams may be open, how much each may hold back, how long a silent one lives (`serve` options). */
export interface StreamOptions {
  /** open event streams one client address may hold (default 20): past it, 429 */
  perAddress: number;
  /** open event streams in all (default 2 000): past it, 503 */
  total: number;
  /**
   * the most bytes of live events one client may fall behind once its socket holds back (default 8 MiB): past it
   * the client is dropped. The events are encoded once and shared, so a slow viewer holds references, not copies.
   */
  maxUnread: number;
  /**
   * a stream that sends nothing for this long is ended, ms (default 10 min): a live match that publishes nothing
   * (keep-alive comments do not count), or a finished match's stream whose client reads nothing
   */
  idleMs: number;
  /** bytes of encoded finished-match streams kept to share between viewers, least recently used dropped first (default 64 MiB) */
  cacheBytes: number;
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = {
  perAddress: 20,
  total: 2_000,
  maxUnread: 8 * 1024 * 1024,
  idleMs: 10 * 60_000,
  cacheBytes: 64 * 1024 * 1024,
};

/** One event as the stream carries it: `event: TYPE` / `data: JSON` (the JSON is the whole event). */
export function sseBlock<E extends SseEvent>(e: E): string {
  return `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}

/** Each live event encoded once, whatever the number of its viewers (kept as long as the event is). */
const encodedBlocks = new WeakMap<object, string>();

function sharedBlock<E extends SseEvent>(e: E): string {
  let text = encodedBlocks.get(e);
  if (text === undefined) encodedBlocks.set(e, (text = sseBlock(e)));
  return text;
}

/** The bytes of a finished match's stream are written in slices of this size, each once the last has drained. */
const SLICE = 64 * 1024;
const KEEP_ALIVE_MS = 15_000;

/**
 * The server's event streams: who holds how many (the caps), and the encoded streams of finished matches,
 * shared between their viewers (an LRU bounded by bytes; a stream larger than the whole cache is not kept).
 */
export class Streams {
  readonly opts: StreamOptions;
  private open = 0;
  private readonly byAddress = new Map<string, number>();
  private readonly cache = new Map<string, Buffer>();
  private cached = 0;
  private readonly encoding = new Map<string, Promise<Buffer | null>>();

  constructor(opts: Partial<StreamOptions> = {}) {
    this.opts = { ...DEFAULT_STREAM_OPTIONS, ...opts };
  }

  /** Streams open now, in all. */
  get openStreams(): number {
    return this.open;
  }

  /** Bytes held by the cache of encoded finished streams. */
  get cachedBytes(): number {
    return this.cached;
  }

  /**
   * Takes a stream slot for `address`, or refuses (429 past the per-address cap, 503 past the total): returns
   * how to give it back (once; later calls do nothing).
   */
  acquire(address: string): () => void {
    const mine = this.byAddress.get(address) ?? 0;
    if (mine >= this.opts.perAddress) {
      throw new ApiError(
        429,
        'too-many-streams',
        `this address has ${mine} event streams open, the most one client address may hold on this server (--max-streams-per-address ${this.opts.perAddress}); close one first`,
      );
    }
    if (this.open >= this.opts.total) {
      throw new ApiError(
        503,
        'server-busy',
        `the server has ${this.open} event streams open, the most it serves at once (--max-streams ${this.opts.total}); try again later`,
      );
    }
    this.open++;
    this.byAddress.set(address, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open--;
      const n = (this.byAddress.get(address) ?? 1) - 1;
      if (n > 0) this.byAddress.set(address, n);
      else this.byAddress.delete(address);
    };
  }

  /**
   * The encoded stream of finished match `id`: from the cache, or made once by `encode` (viewers asking while it
   * is made share that one making); null when `encode` finds nothing.
   */
  async encoded(id: string, encode: () => Promise<Buffer | null>): Promise<Buffer | null> {
    const hit = this.cache.get(id);
    if (hit) {
      this.cache.delete(id);
      this.cache.set(id, hit); // most recently used last
      return hit;
    }
    let making = this.encoding.get(id);
    if (!making) {
      making = encode().finally(() => this.encoding.delete(id));
      this.encoding.set(id, making);
      void making.then((buf) => buf && this.keep(id, buf)).catch(() => {});
    }
    return making;
  }

  private keep(id: string, buf: Buffer): void {
    if (buf.length > this.opts.cacheBytes || this.cache.has(id)) return;
    for (const [oldId, old] of this.cache) {
      if (this.cached + buf.length <= this.opts.cacheBytes) break;
      this.cache.delete(oldId);
      this.cached -= old.length;
    }
    this.cache.set(id, buf);
    this.cached += buf.length;
  }
}

function startStream(reply: FastifyReply) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  // The client learns at once that its stream is open, not with the first event (a quiet feed's: 15 s on).
  res.flushHeaders();
  return res;
}

/**
 * Server-sent events: one `event: TYPE` / `data: JSON` block per event; a comment every 15 s keeps proxies from
 * closing the stream. `history` is sent first, then what `subscribe` delivers, until the client leaves or
 * `endsOn` says an event was the last; `subscribe` returns how to stop listening. Written with backpressure: once
 * the socket holds back, the rest of the history waits (encoded one event at a time as the client drains, so a
 * late viewer of a long match costs no copy of it) and live events queue; a client that leaves more than
 * `maxUnread` bytes of live events queued is dropped, one that reads is never dropped however long the history.
 * A public stream holds a `slot` (taken with `Streams.acquire`, given back once the stream ends) and is ended
 * when it sends no event for `idleMs`.
 */
export function sse<E extends SseEvent>(
  req: FastifyRequest,
  reply: FastifyReply,
  history: E[],
  subscribe: ((send: (e: E) => void) => () => void) | null,
  endsOn: (e: E) => boolean = () => false,
  slot?: { streams: Streams; release: () => void },
): void {
  const maxUnread = slot?.streams.opts.maxUnread ?? DEFAULT_STREAM_OPTIONS.maxUnread;
  // Only streams that hold a slot (the public ones) are cut when silent: a person's play stream waits on the person.
  const idleMs = slot?.streams.opts.idleMs ?? 0;
  const release = slot?.release ?? (() => {});
  const res = startStream(reply);
  let closed = false;
  let stop = () => {};
  /** the socket held back the last write: the next wait for 'drain' */
  let waiting = false;
  /** history events not yet written */
  let next = 0;
  /** live events that came while the history was still being written or the socket held back */
  const queued: { text: string; last: boolean }[] = [];
  let queuedBytes = 0;
  /** the stream's last event is written (or queued): nothing after it */
  let over = false;
  let idle: NodeJS.Timeout | null = null;
  const end = (cut: boolean) => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    if (idle) clearTimeout(idle);
    res.off('drain', pump);
    stop();
    release();
    queued.length = 0;
    // A client that reads nothing would keep what is buffered for it: it is cut, not ended politely.
    if (cut) res.destroy();
    else res.end();
  };
  const stillAlive = () => {
    if (!idleMs) return;
    if (idle) clearTimeout(idle);
    // Silent for idleMs: ended, and cut if the client has not read what it was sent.
    idle = setTimeout(() => end(res.writableLength > 0), idleMs);
    idle.unref();
  };
  /** Writes what waits (history, then queued live events) until the socket holds back or nothing is left. */
  function pump(): void {
    waiting = false;
    while (!closed && !waiting) {
      let text: string;
      let last: boolean;
      if (next < history.length) {
        const e = history[next++]!;
        text = sharedBlock(e);
        last = endsOn(e);
      } else if (queued.length) {
        ({ text, last } = queued.shift()!);
        queuedBytes -= text.length;
      } else {
        // A stream of history only (a stopped match's) ends once it is all written.
        if (!subscribe) end(false);
        return;
      }
      waiting = !res.write(text);
      if (last) return end(false);
    }
  }
  const send = (e: E) => {
    if (closed || over) return;
    stillAlive();
    const last = endsOn(e);
    if (last) over = true;
    const text = sharedBlock(e);
    if (!waiting && next >= history.length && !queued.length) {
      waiting = !res.write(text);
      if (last) end(false);
      return;
    }
    // A client who stops reading is dropped once it is maxUnread bytes of live events behind: bounded memory.
    queued.push({ text, last });
    queuedBytes += text.length;
    if (queuedBytes > maxUnread) end(true);
  };
  const ping = setInterval(() => {
    if (!waiting && next >= history.length && !queued.length) res.write(': keep-alive\n\n');
  }, KEEP_ALIVE_MS);
  ping.unref();
  // The connection closed (the client left): the response's close, which also follows our own end (then a no-op).
  res.on('close', () => end(true));
  res.on('drain', pump);
  stillAlive();
  if (history.some(endsOn)) over = true;
  pump();
  if (closed) return;
  if (subscribe) {
    const unsubscribe = subscribe(send);
    // A subscription that ended the stream at once (its first event was the last) is stopped now.
    if (closed) unsubscribe();
    else stop = unsubscribe;
  }
}

/**
 * A stream whose bytes are all known (a finished match's, shared between its viewers): written in slices, the
 * next once the last has drained, so a viewer holds no copy of it; one that reads nothing for `idleMs` is cut.
 */
export function sseEncoded(streams: Streams, release: () => void, req: FastifyRequest, reply: FastifyReply, bytes: Buffer): void {
  const res = startStream(reply);
  let closed = false;
  let idle: NodeJS.Timeout | null = null;
  const end = (cut: boolean) => {
    if (closed) return;
    closed = true;
    if (idle) clearTimeout(idle);
    res.off('drain', more);
    release();
    if (cut) res.destroy();
    else res.end();
  };
  let at = 0;
  const more = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    while (!closed && at < bytes.length) {
      const slice = bytes.subarray(at, at + SLICE);
      at += slice.length;
      if (!res.write(slice)) {
        idle = setTimeout(() => end(true), streams.opts.idleMs);
        idle.unref();
        return;
      }
    }
    end(false);
  };
  res.on('close', () => end(true));
  res.on('drain', more);
  more();
}
