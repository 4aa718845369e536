import { Agent, request } from 'undici';
import { forLog } from './line-reader.js';
import type { BotTransport, OutgoingMessage, Reply, SeatContext } from './transport.js';

/**
 * A bot behind a URL: each message is POSTed as the body; the answer is the response body, whatever the
 * status (as on botsarena). One keep-alive connection per seat, one hard deadline covering connect,
 * headers and body, redirects not followed, bodies cut off over the size cap.
 */
export class HttpTransport implements BotTransport {
  readonly wants = 'text' as const;
  private readonly agent = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 30_000, connect: { timeout: 60_000 } });
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly ctx: SeatContext,
  ) {}

  async start(): Promise<void> {}

  async ask(msg: OutgoingMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    const t0 = performance.now();
    const ms = () => performance.now() - t0;
    if (this.closed) return { kind: 'fault', fault: { kind: 'transport', detail: 'the match is over' }, ms: 0 };
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const onAbort = () => deadline.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.ctx.log('send', forLog(msg.text));
    try {
      const res = await request(this.url, {
        method: 'POST',
        body: msg.text,
        headers: { 'content-type': msg.contentType },
        dispatcher: this.agent,
        signal: deadline.signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const chunks: Buffer[] = [];
      let bytes = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > this.ctx.maxAnswerBytes) {
          res.body.destroy();
          this.ctx.log('note', `HTTP ${res.statusCode}: body over ${this.ctx.maxAnswerBytes} bytes, cut off`);
          return { kind: 'fault', fault: { kind: 'too-large', detail: `answer exceeded ${this.ctx.maxAnswerBytes} bytes` }, ms: ms() };
        }
        chunks.push(chunk);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const location = res.headers.location ? ` (redirect to ${String(res.headers.location)} not followed)` : '';
      if (res.statusCode !== 200 || location) this.ctx.log('note', `HTTP ${res.statusCode}${location}; the status is ignored, the body is the answer`);
      this.ctx.log('recv', forLog(text));
      return { kind: 'text', text, ms: ms() };
    } catch (err) {
      if (signal?.aborted) return { kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: ms() };
      if (deadline.signal.aborted) {
        this.ctx.log('note', `no answer within ${timeoutMs} ms`);
        return { kind: 'fault', fault: { kind: 'timeout', detail: `no answer within ${timeoutMs} ms from ${this.url}` }, ms: ms() };
      }
      const e = err as NodeJS.ErrnoException;
      const detail = e.code === 'ECONNREFUSED' ? `connection refused at ${this.url}` : `${e.code ?? 'error'} at ${this.url}: ${e.message}`;
      this.ctx.log('note', detail);
      return { kind: 'fault', fault: { kind: 'transport', detail }, ms: ms() };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.agent.destroy();
  }
}
