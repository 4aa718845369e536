import type { Socket } from 'node:net';
import { AnswerWait } from './answer-wait.js';
import { forLog, LineReader } from './line-reader.js';
import type { AskMessage, BotTransport, OutgoingMessage, Reply, ByteSeatContext, TransportCapabilities } from './transport.js';

/** How much may wait unsent to a bot that connected in before it is taken for one that does not read. */
export const MAX_UNREAD_BYTES = 1024 * 1024;

/**
 * A bot that connected to us over TCP (the smart-dog server): messages are written as lines (a message may
 * hold several), the bot's lines are read as they come. In a stream step its lines keep going to the step
 * after its turn is over, so a command sent after `end` is still answered (and never applied).
 */
export class TcpTransport implements BotTransport {
  static readonly capabilities: TransportCapabilities = { arrivalOrder: true, connectIn: true };
  readonly capabilities = TcpTransport.capabilities;
  private readonly answers: AnswerWait;
  private afterEnd: ((line: string) => boolean) | null = null;
  private gone: string | null = null;
  private readonly reader: LineReader;

  /** `socket` is already connected (the lobby has stopped reading it). */
  constructor(
    private readonly socket: Socket,
    private readonly ctx: ByteSeatContext,
  ) {
    socket.setNoDelay(true); // a turn is many short lines: Nagle's algorithm would hold each for tens of ms
    // A line after the seat's `end` still belongs to the step under way (it is answered, never applied).
    this.answers = new AnswerWait({ ...ctx, greeting: undefined }, (line) => {
      if (!this.afterEnd) return ctx.log('note', `dropped a line sent while no answer was expected: ${forLog(line, 200)}`);
      ctx.log('recv', forLog(line));
      this.afterEnd(line);
    });
    this.reader = new LineReader(
      ctx.maxAnswerBytes,
      (line) => !this.gone && this.answers.line(line),
      (bytes) => this.drop(`a line of ${bytes} bytes without a newline exceeded ${ctx.maxAnswerBytes} bytes`),
    );
    socket.on('data', (chunk: Buffer) => this.reader.push(chunk));
    socket.on('close', () => this.drop('the bot disconnected'));
    socket.on('error', (err: NodeJS.ErrnoException) => this.drop(`connection error: ${err.code ?? err.message}`));
  }

  async start(): Promise<void> {}

  /** The connection is unusable from now on: whoever waits gets a transport fault. */
  private drop(why: string): void {
    if (this.gone) return;
    this.gone = why;
    this.ctx.log('note', why);
    this.answers.settle({ kind: 'transport', detail: why });
    this.socket.destroy();
  }

  ask(msg: AskMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    if (this.gone) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: this.gone }, ms: 0 });
    if (signal?.aborted) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: 0 });
    this.afterEnd = msg.converse ?? null;
    const answer = this.answers.wait(msg, timeoutMs, signal);
    this.write(msg.text);
    return answer;
  }

  tell(msg: OutgoingMessage): Promise<void> {
    if (!this.gone) this.write(msg.text);
    return Promise.resolve();
  }

  /** Writes a message; a bot that lets more than MAX_UNREAD_BYTES wait unread is cut off (it does not read). */
  private write(text: string): void {
    if (this.gone) return;
    if (this.socket.writableLength > MAX_UNREAD_BYTES) return this.drop(`the bot does not read: over ${MAX_UNREAD_BYTES} bytes were waiting to be sent to it`);
    this.ctx.log('send', forLog(text));
    this.socket.write(text + '\n');
  }

  /** Ends the connection once what was written is flushed; a bot that does not close its side is cut off. */
  async close(): Promise<void> {
    this.answers.settle({ kind: 'transport', detail: 'the match is over' });
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
