import { AnswerWait } from './answer-wait.js';
import { forLog, LineReader } from './line-reader.js';
import { BotProcess } from './process-group.js';
import type { AskMessage, BotTransport, OutgoingMessage, Reply, ByteSeatContext, TransportCapabilities } from './transport.js';

/**
 * A long-lived bot process: one message per line on its stdin, one answer per line on its stdout.
 * A line that arrives while nothing is asked (a second answer, a late one) is dropped and noted, so
 * it can never be taken for the answer to a later message. With strict pairing, every asking message
 * owes one line: a line arriving after its deadline pays that debt and is dropped even when the next
 * message is already waiting. A message may also skip lines that are not its answer (stale nonces).
 */
export class StdioTransport implements BotTransport {
  static readonly capabilities: TransportCapabilities = { dialects: true };
  readonly capabilities = StdioTransport.capabilities;
  private proc: BotProcess | null = null;
  private reader: LineReader;
  private readonly answers: AnswerWait;
  private tooLarge: number | null = null;

  constructor(
    private readonly command: string,
    private readonly ctx: ByteSeatContext,
  ) {
    this.answers = new AnswerWait(ctx);
    this.reader = new LineReader(
      ctx.maxAnswerBytes,
      (line) => this.answers.line(line),
      (bytes) => this.onOverflow(bytes),
    );
  }

  async start(): Promise<void> {
    const proc = new BotProcess(this.command, [], this.ctx.log, this.ctx.maxStderrBytes, this.ctx.sandbox, this.ctx.env);
    this.proc = proc;
    proc.child.stdout!.on('data', (chunk: Buffer) => this.reader.push(chunk));
    void proc.exited.then(() => {
      const rest = this.reader.pending();
      if (rest) this.ctx.log('note', `unfinished line at exit (no newline): ${forLog(rest, 200)}`);
      this.ctx.log('note', proc.deathNote(''));
      this.answers.settle({ kind: 'crash', detail: proc.deathNote('before answering') });
    });
  }

  private onOverflow(bytes: number): void {
    this.tooLarge = bytes;
    const detail = `answer exceeded ${this.ctx.maxAnswerBytes} bytes without a newline`;
    this.ctx.log('note', `${detail}; stopping the bot`);
    this.answers.settle({ kind: 'too-large', detail });
    void this.proc?.kill();
  }

  ask(msg: AskMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    const proc = this.proc;
    if (!proc) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'the bot was not started' }, ms: 0 });
    if (this.tooLarge !== null) {
      return Promise.resolve({
        kind: 'fault',
        fault: { kind: 'too-large', detail: `answer exceeded ${this.ctx.maxAnswerBytes} bytes without a newline` },
        ms: 0,
      });
    }
    if (proc.exit) return Promise.resolve({ kind: 'fault', fault: { kind: 'crash', detail: proc.deathNote('before this message') }, ms: 0 });
    if (signal?.aborted) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: 0 });
    // Written first: the bot starts on its answer while the wait and the log are set up (a match's pace is
    // the time from one answer to the next message). No line can arrive before this function returns.
    proc.child.stdin!.write(msg.text + '\n');
    const answer = this.answers.wait(msg, timeoutMs, signal, () => proc.lastStderr());
    this.ctx.log('send', forLog(msg.text));
    return answer;
  }

  tell(msg: OutgoingMessage, _timeoutMs?: number): Promise<void> {
    const proc = this.proc;
    if (proc && !proc.exit && this.tooLarge === null) {
      this.ctx.log('send', forLog(msg.text));
      proc.child.stdin!.write(msg.text + '\n');
    }
    return Promise.resolve();
  }

  async close(graceful = false): Promise<void> {
    this.answers.settle({ kind: 'transport', detail: 'the match is over' });
    const exitMs = graceful ? (this.ctx.exitMs ?? 0) : 0;
    if (this.proc && exitMs > 0) await this.proc.endInput(exitMs);
    await this.proc?.kill(exitMs > 0 ? exitMs : undefined);
  }
}
