import type { Fault } from '../core/game.js';
import { forLog, LineReader } from './line-reader.js';
import { BotProcess } from './process-group.js';
import type { BotTransport, OutgoingMessage, Reply, SeatContext } from './transport.js';

interface Pending {
  resolve: (r: Reply) => void;
  t0: number;
  timer: NodeJS.Timeout;
  skip?: (line: string) => string | null;
  converse?: (line: string) => boolean;
}

/**
 * A long-lived bot process: one message per line on its stdin, one answer per line on its stdout.
 * A line that arrives while nothing is asked (a second answer, a late one) is dropped and noted, so
 * it can never be taken for the answer to a later message. With strict pairing, every asking message
 * owes one line: a line arriving after its deadline pays that debt and is dropped even when the next
 * message is already waiting. A message may also skip lines that are not its answer (stale nonces).
 */
export class StdioTransport implements BotTransport {
  readonly wants = 'text' as const;
  private proc: BotProcess | null = null;
  private reader: LineReader;
  private pending: Pending | null = null;
  private tooLarge: number | null = null;
  /** lines owed by messages whose deadline passed (strict pairing only) */
  private owed = 0;

  constructor(
    private readonly command: string,
    private readonly ctx: SeatContext,
  ) {
    this.reader = new LineReader(ctx.maxAnswerBytes, (line) => this.onLine(line), (bytes) => this.onOverflow(bytes));
  }

  async start(): Promise<void> {
    const proc = new BotProcess(this.command, [], this.ctx.log, this.ctx.maxStderrBytes);
    this.proc = proc;
    proc.child.stdout!.on('data', (chunk: Buffer) => this.reader.push(chunk));
    void proc.exited.then(() => {
      const rest = this.reader.pending();
      if (rest) this.ctx.log('note', `unfinished line at exit (no newline): ${forLog(rest, 200)}`);
      this.ctx.log('note', proc.deathNote(''));
      this.settle({ kind: 'crash', detail: proc.deathNote('before answering') });
    });
  }

  private onLine(line: string): void {
    if (this.owed > 0) {
      this.owed--;
      this.ctx.log('note', `dropped a late answer (its deadline had passed): ${forLog(line, 200)}`);
      return;
    }
    if (!this.pending) {
      this.ctx.log('note', `dropped a line sent while no answer was expected: ${forLog(line, 200)}`);
      return;
    }
    const skipped = this.pending.skip?.(line);
    if (skipped) {
      this.ctx.log('note', `skipped a line (${skipped}): ${forLog(line, 200)}`);
      return;
    }
    this.ctx.log('recv', forLog(line));
    // A stream step: every line is handed over as it comes; the step is answered when the game says so.
    if (this.pending.converse && !this.pending.converse(line)) return;
    const p = this.pending;
    this.pending = null;
    clearTimeout(p.timer);
    p.resolve({ kind: 'text', text: p.converse ? '' : line, ms: performance.now() - p.t0 });
  }

  private onOverflow(bytes: number): void {
    this.tooLarge = bytes;
    const detail = `answer exceeded ${this.ctx.maxAnswerBytes} bytes without a newline`;
    this.ctx.log('note', `${detail}; stopping the bot`);
    this.settle({ kind: 'too-large', detail });
    void this.proc?.kill();
  }

  private settle(fault: Fault): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.resolve({ kind: 'fault', fault, ms: performance.now() - p.t0 });
  }

  ask(msg: OutgoingMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    const proc = this.proc;
    if (!proc) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'the bot was not started' }, ms: 0 });
    if (this.tooLarge !== null) {
      return Promise.resolve({ kind: 'fault', fault: { kind: 'too-large', detail: `answer exceeded ${this.ctx.maxAnswerBytes} bytes without a newline` }, ms: 0 });
    }
    if (proc.exit) return Promise.resolve({ kind: 'fault', fault: { kind: 'crash', detail: proc.deathNote('before this message') }, ms: 0 });
    if (signal?.aborted) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: 0 });
    return new Promise<Reply>((resolve) => {
      const t0 = performance.now();
      const onAbort = () => this.settle({ kind: 'transport', detail: 'cancelled' });
      const timer = setTimeout(() => {
        this.ctx.log('note', `no answer within ${timeoutMs} ms`);
        if (this.ctx.strictPairing) this.owed++;
        this.settle({ kind: 'timeout', detail: `no answer within ${timeoutMs} ms${proc.lastStderr()}` });
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        t0,
        timer,
        skip: msg.skip,
        converse: msg.converse,
      };
      this.ctx.log('send', forLog(msg.text));
      proc.child.stdin!.write(msg.text + '\n');
    });
  }

  tell(msg: OutgoingMessage, _timeoutMs?: number): Promise<void> {
    const proc = this.proc;
    if (proc && !proc.exit && this.tooLarge === null) {
      this.ctx.log('send', forLog(msg.text));
      proc.child.stdin!.write(msg.text + '\n');
    }
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.settle({ kind: 'transport', detail: 'the match is over' });
    const exitMs = this.ctx.exitMs ?? 0;
    if (this.proc && exitMs > 0) await this.proc.endInput(exitMs);
    await this.proc?.kill(exitMs > 0 ? exitMs : undefined);
  }
}
