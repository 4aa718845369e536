import type { Socket } from 'node:net';
import { forLog, LineReader } from './line-reader.js';
import type { BotTransport, OutgoingMessage, Reply, SeatContext } from './transport.js';

interface Pending {
  resolve: (r: Reply) => void;
  t0: number;
  timer: NodeJS.Timeout;
  converse?: (line: string) => boolean;
}

/**
 * A bot that connected to us over TCP (the smart-dog server): messages are written as lines (a message may
 * hold several), the bot's lines are read as they come. In a stream step its lines keep going to the step
 * after its turn is over, so a command sent after `end` is still answered (and never applied).
 */
export class TcpTransport implements BotTransport {
  readonly wants = 'text' as const;
  readonly arrivalOrder = true;
  private pending: Pending | null = null;
  private afterEnd: ((line: string) => boolean) | null = null;
  private gone: string | null = null;
  private readonly reader: LineReader;

  /** `socket` is already connected (the lobby has stopped reading it). */
  constructor(
    private readonly socket: Socket,
    private readonly ctx: SeatContext,
  ) {
    socket.setNoDelay(true); // a turn is many short lines: Nagle's algorithm would hold each for tens of ms
    this.reader = new LineReader(ctx.maxAnswerBytes, (line) => this.onLine(line), (bytes) => this.drop(`a line of ${bytes} bytes without a newline exceeded ${ctx.maxAnswerBytes} bytes`));
    socket.on('data', (chunk: Buffer) => this.reader.push(chunk));
    socket.on('close', () => this.drop('the bot disconnected'));
    socket.on('error', (err: NodeJS.ErrnoException) => this.drop(`connection error: ${err.code ?? err.message}`));
  }

  async start(): Promise<void> {}

  private onLine(line: string): void {
    if (this.gone) return;
    const p = this.pending;
    if (!p) {
      if (this.afterEnd) {
        this.ctx.log('recv', forLog(line));
        this.afterEnd(line);
      } else this.ctx.log('note', `dropped a line sent while no answer was expected: ${forLog(line, 200)}`);
      return;
    }
    this.ctx.log('recv', forLog(line));
    if (p.converse && !p.converse(line)) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.resolve({ kind: 'text', text: p.converse ? '' : line, ms: performance.now() - p.t0 });
  }

  /** The connection is unusable from now on: whoever waits gets a transport fault. */
  private drop(why: string): void {
    if (this.gone) return;
    this.gone = why;
    this.ctx.log('note', why);
    const p = this.pending;
    this.pending = null;
    if (p) {
      clearTimeout(p.timer);
      p.resolve({ kind: 'fault', fault: { kind: 'transport', detail: why }, ms: performance.now() - p.t0 });
    }
    this.socket.destroy();
  }

  ask(msg: OutgoingMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    if (this.gone) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: this.gone }, ms: 0 });
    if (signal?.aborted) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: 0 });
    this.afterEnd = msg.converse ?? null;
    return new Promise<Reply>((resolve) => {
      const t0 = performance.now();
      const onAbort = () => this.drop('cancelled');
      const timer = setTimeout(() => {
        this.pending = null;
        this.ctx.log('note', `no answer within ${timeoutMs} ms`);
        resolve({ kind: 'fault', fault: { kind: 'timeout', detail: `no answer within ${timeoutMs} ms` }, ms: performance.now() - t0 });
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        t0,
        timer,
        converse: msg.converse,
      };
      this.write(msg.text);
    });
  }

  tell(msg: OutgoingMessage): Promise<void> {
    if (!this.gone) this.write(msg.text);
    return Promise.resolve();
  }

  private write(text: string): void {
    this.ctx.log('send', forLog(text));
    this.socket.write(text + '\n');
  }

  /** Ends the connection once what was written is flushed; a bot that does not close its side is cut off. */
  async close(): Promise<void> {
    this.pending?.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'the match is over' }, ms: 0 });
    this.pending = null;
    this.afterEnd = null;
    if (this.socket.destroyed) return;
    this.gone ??= 'the match is over';
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.socket.destroy(), 1000);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.end();
    });
  }
}
