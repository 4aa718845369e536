import type { FastifyReply, FastifyRequest } from 'fastify';

/** What an SSE stream may carry: anything with a `type`, which names the event. */
export interface SseEvent {
  type: string;
}

/** The most bytes left waiting for a client that does not read: past it the client is dropped (bounded memory). */
export const SSE_MAX_UNREAD = 4 * 1024 * 1024;

/**
 * Server-sent events: one `event: TYPE` / `data: JSON` block per event (the JSON is the whole event); a comment
 * every 15 s keeps proxies from closing the stream. `history` is sent first, then what `subscribe` delivers,
 * until the client leaves or `endsOn` says an event was the last; `subscribe` returns how to stop listening.
 */
export function sse<E extends SseEvent>(
  req: FastifyRequest,
  reply: FastifyReply,
  history: E[],
  subscribe: ((send: (e: E) => void) => () => void) | null,
  endsOn: (e: E) => boolean = () => false,
): void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  let closed = false;
  let stop = () => {};
  const end = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    stop();
    res.end();
  };
  const send = (e: E) => {
    if (closed) return;
    // A client who stops reading is dropped once SSE_MAX_UNREAD bytes wait for it: a stuck socket costs bounded memory.
    if (res.writableLength > SSE_MAX_UNREAD) return end();
    res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
    if (endsOn(e)) end();
  };
  const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  ping.unref();
  req.raw.on('close', end);
  for (const e of history) send(e);
  if (closed) return;
  if (subscribe) {
    const unsubscribe = subscribe(send);
    // A subscription that ended the stream at once (its first event was the last) is stopped now.
    if (closed) unsubscribe();
    else stop = unsubscribe;
  } else end();
}
