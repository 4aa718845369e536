import { availableParallelism } from 'node:os';
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
    // A bot stopped since its last answer runs again just before its message; its CPU time is read then and at its answer.
    proc.resume();
    const cpu0 = proc.cpuMs();
    const onCpu = this.ctx.sandbox?.deadline === 'cpu' && cpu0 !== null;
    // Written first: the bot starts on its answer while the wait and the log are set up (a match's pace is
    // the time from one answer to the next message). No line can arrive before this function returns.
    proc.child.stdin!.write(msg.text + '\n');
    const wallMs = onCpu ? this.maxWaitMs(timeoutMs) : timeoutMs;
    const late = onCpu ? () => ` (the wall-time cap of a ${timeoutMs} ms deadline judged on CPU time)${proc.lastStderr()}` : () => proc.lastStderr();
    const answer = this.answers.wait(msg, wallMs, signal, late);
    this.ctx.log('send', forLog(msg.text));
    const watch = onCpu ? this.watchCpu(proc, cpu0, timeoutMs) : undefined;
    return answer.then((reply) => {
      clearTimeout(watch?.timer);
      const cpu1 = proc.cpuMs();
      if (this.ctx.pauseBetweenTurns || this.ctx.sandbox?.pauseBetweenTurns) proc.pause();
      if (cpu0 === null || cpu1 === null) return reply;
      return onCpu ? { ...reply, cpuMs: Math.max(0, cpu1 - cpu0), cpuJudged: true as const } : { ...reply, cpuMs: Math.max(0, cpu1 - cpu0) };
    });
  }

  /** The longest an ask waits: its deadline, or with a deadline judged on CPU time, 3× it and a second of wall time. */
  maxWaitMs(timeoutMs: number): number {
    return this.ctx.sandbox?.deadline === 'cpu' ? Math.min(3 * timeoutMs + 1000, 2 ** 31 - 1) : timeoutMs;
  }

  /**
   * Times the answer out once the bot's processes spent `deadlineMs` of CPU time on it. They cannot spend more than
   * the wall time times the cores they may use, so it is read when that could have happened, and again when the
   * rest could have (at least 5 ms apart): a bot that waits is read a few times a turn.
   */
  private watchCpu(proc: BotProcess, cpu0: number, deadlineMs: number): { timer?: NodeJS.Timeout } {
    const cores = Math.max(0.01, proc.cpuFromCgroup ? (this.ctx.sandbox?.cpus ?? 1) : availableParallelism());
    const watch: { timer?: NodeJS.Timeout } = {};
    const check = () => {
      const used = (proc.cpuMs() ?? cpu0) - cpu0;
      if (used >= deadlineMs) {
        this.answers.expire(
          `used ${Math.round(used)} ms of CPU time without answering: over the ${deadlineMs} ms deadline, judged on CPU time`,
          proc.lastStderr(),
        );
        return;
      }
      watch.timer = setTimeout(check, Math.max(5, (deadlineMs - used) / cores));
    };
    watch.timer = setTimeout(check, Math.max(5, deadlineMs / cores));
    return watch;
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
    // A bot stopped between turns runs again to read its input's end and exit (endInput and kill see to it too).
    this.proc?.resume();
    if (this.proc && exitMs > 0) await this.proc.endInput(exitMs);
    await this.proc?.kill(exitMs > 0 ? exitMs : undefined);
  }
}
