import type { Socket } from 'node:net';
import type { Agent, buildConnector as BuildConnector, Dispatcher } from 'undici';
import { ForbiddenAddressError, hostRefusal, publicOnlyLookup, type Resolve } from './address-policy.js';
import { forLog } from './line-reader.js';
import type { AskMessage, BotTransport, OutgoingMessage, Reply, ByteSeatContext, TransportCapabilities } from './transport.js';

/**
 * A bot behind a URL: each message is POSTed as the body; the answer is the response body, whatever the
 * status (as on botsarena). One keep-alive connection per seat, one hard deadline covering connect,
 * headers and body, redirects not followed, bodies cut off over the size cap.
 *
 * It drives undici's dispatcher directly rather than `request()`: the deadline then needs no
 * AbortSignal, which saves about a third of the per-message cost (see bench/RESULTS.md).
 *
 * Under the seat's `addressPolicy` 'public-only', every connection is checked on the address it goes to
 * (see address-policy.ts): an IP literal or `localhost` before connecting, a name as it is resolved for
 * that connection. A refused connection is the seat's `transport` fault; nothing is sent.
 */
export class HttpTransport implements BotTransport {
  static readonly capabilities: TransportCapabilities = { dialects: true };
  readonly capabilities = HttpTransport.capabilities;
  /** every socket the seat opened, so a connect or TLS handshake that never completes dies with the match */
  private readonly sockets = new Set<Socket>();
  private agent: Agent | null = null;
  private readonly origin: string;
  private readonly path: string;
  private closed = false;
  /** the last connection opened: when it was ready and how long it took (see `AnswerTiming.connectMs`) */
  private connected: { at: number; ms: number } | null = null;

  /** `resolve`: how names are resolved under 'public-only' (tests inject one; default: `dns.lookup`) */
  constructor(
    private readonly url: string,
    private readonly ctx: ByteSeatContext,
    private readonly opts: { resolve?: Resolve } = {},
  ) {
    const u = new URL(url);
    this.origin = u.origin;
    this.path = `${u.pathname}${u.search}`;
  }

  /** Loads the HTTP client (only matches with an HTTP seat pay for it: it is a third of the CLI's start-up). */
  async start(): Promise<void> {
    const { Agent, buildConnector } = await import('undici');
    const publicOnly = this.ctx.addressPolicy === 'public-only';
    const connector = buildConnector({ timeout: 60_000, ...(publicOnly ? { lookup: publicOnlyLookup(this.opts.resolve) } : {}) });
    const connect: BuildConnector.connector = (opts, callback) => {
      // net.connect calls no lookup for an IP literal: those (and localhost) are judged here, before any socket.
      const refused = publicOnly ? hostRefusal(opts.hostname) : null;
      if (refused) return void process.nextTick(callback, new ForbiddenAddressError(refused), null);
      const began = performance.now();
      const socket = connector(opts, (err, sock) => {
        if (!err) this.connected = { at: performance.now(), ms: performance.now() - began };
        callback(err as never, sock as never);
      }) as unknown as Socket;
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      return socket as never;
    };
    this.agent = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 30_000, connect });
  }

  ask(msg: AskMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    return this.post(msg, timeoutMs, signal);
  }

  /** POSTs one message and reads the body, by the deadline, never more than the size cap. */
  private post(msg: OutgoingMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    if (this.closed) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'the match is over' }, ms: 0 });
    const agent = this.agent;
    if (!agent) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'the bot was not started' }, ms: 0 });
    if (signal?.aborted) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: 0 });
    const { ctx, url } = this;
    ctx.log('send', forLog(msg.text));
    return new Promise<Reply>((resolve) => {
      const t0 = performance.now();
      let firstByte: number | undefined;
      // Connecting and the first byte apart from the rest: a connection opened for this message counts, a kept one is 0.
      const timing = () => {
        const c = this.connected;
        return { connectMs: c && c.at >= t0 ? c.ms : 0, ...(firstByte !== undefined ? { firstByteMs: firstByte - t0 } : {}) };
      };
      const chunks: Buffer[] = [];
      let bytes = 0;
      let status = 0;
      let location: string | null = null;
      let abortRequest: ((err?: Error) => void) | null = null;
      let done = false;
      const finish = (reply: Reply, abort = false) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onCancel);
        if (abort) abortRequest?.(new Error(reply.kind === 'fault' ? reply.fault.detail : 'done'));
        resolve(reply);
      };
      const fault = (kind: 'timeout' | 'transport' | 'too-large', detail: string, abort: boolean) => {
        ctx.log('note', detail);
        finish({ kind: 'fault', fault: { kind, detail }, ms: performance.now() - t0, ...timing() }, abort);
      };
      const timer = setTimeout(() => fault('timeout', `no answer within ${timeoutMs} ms from ${url}`, true), timeoutMs);
      const onCancel = () => fault('transport', 'cancelled', true);
      signal?.addEventListener('abort', onCancel, { once: true });

      const handler = {
        onConnect(abort: (err?: Error) => void) {
          abortRequest = abort;
          if (done) abort(new Error('already answered'));
        },
        onHeaders(statusCode: number, headers: Buffer[] | string[]) {
          firstByte ??= performance.now();
          status = statusCode;
          for (let i = 0; i + 1 < headers.length; i += 2) {
            if (String(headers[i]).toLowerCase() === 'location') location = String(headers[i + 1]);
          }
          return true;
        },
        onData(chunk: Buffer) {
          bytes += chunk.length;
          if (bytes > ctx.maxAnswerBytes) {
            fault('too-large', `answer exceeded ${ctx.maxAnswerBytes} bytes`, true);
            return false;
          }
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          const text = Buffer.concat(chunks).toString('utf8');
          const redirect = location ? ` (redirect to ${location} not followed)` : '';
          if (status !== 200 || redirect) ctx.log('note', `HTTP ${status}${redirect}; the status is ignored, the body is the answer`);
          ctx.log('recv', forLog(text));
          finish({ kind: 'text', text, ms: performance.now() - t0, ...timing() });
        },
        onError(err: NodeJS.ErrnoException) {
          if (done) return;
          const detail =
            err instanceof ForbiddenAddressError
              ? `refused to connect to ${url}: ${err.message}`
              : err.code === 'ECONNREFUSED'
                ? `connection refused at ${url}`
                : `${err.code ?? 'error'} at ${url}: ${err.message}`;
          fault('transport', detail, false);
        },
      };
      try {
        agent.dispatch(
          {
            origin: this.origin,
            path: this.path,
            method: 'POST',
            body: msg.text,
            headers: { 'content-type': msg.contentType },
            headersTimeout: 0,
            bodyTimeout: 0,
          },
          handler as unknown as Dispatcher.DispatchHandler,
        );
      } catch (err) {
        handler.onError(err as NodeJS.ErrnoException);
      }
    });
  }

  /** POSTs the notice like any message and ignores the body (bots answer it with anything, even nothing). */
  async tell(msg: OutgoingMessage, timeoutMs: number): Promise<void> {
    const reply = await this.post(msg, timeoutMs);
    if (reply.kind === 'fault') this.ctx.log('note', `the notice was not taken: ${reply.fault.detail}`);
  }

  /** Ends the seat: connections (even one still connecting or in its TLS handshake) are destroyed at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // An error (not a plain destroy) also clears undici's connect timer, which would keep the process alive.
    for (const s of this.sockets) s.destroy(new Error('the match is over'));
    await this.agent?.destroy();
  }
}
