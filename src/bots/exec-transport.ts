import { forLog } from './line-reader.js';
import { BotProcess } from './process-group.js';
import type { AskMessage, BotTransport, OutgoingMessage, Reply, ByteSeatContext, TransportCapabilities } from './transport.js';

/** How often an exec bot's CPU time is read from /proc while it runs, when no cgroup counts it, ms. */
const SAMPLE_MS = 20;

/**
 * One process per message (Bolosseum's `file://` bots): the message is the program's argv[1] and its
 * whole stdout, trailing whitespace trimmed, is the answer.
 */
export class ExecTransport implements BotTransport {
  static readonly capabilities: TransportCapabilities = { dialects: true };
  readonly capabilities = ExecTransport.capabilities;
  private running = new Set<BotProcess>();
  private closed = false;

  constructor(
    private readonly command: string,
    private readonly ctx: ByteSeatContext,
  ) {}

  async start(): Promise<void> {}

  async ask(msg: AskMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    const t0 = performance.now();
    const ms = () => performance.now() - t0;
    if (signal?.aborted) return { kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: 0 };
    if (this.closed) return { kind: 'fault', fault: { kind: 'transport', detail: 'the match is over' }, ms: 0 };
    this.ctx.log('send', forLog(msg.text));
    // "$@" hands the message to the command as its first argument, whatever the command line is.
    const proc = new BotProcess(`${this.command} "$@"`, ['botarena', msg.text], this.ctx.log, this.ctx.maxStderrBytes, this.ctx.sandbox, this.ctx.env);
    this.running.add(proc);
    const chunks: Buffer[] = [];
    let bytes = 0;
    let ended: 'timeout' | 'too-large' | 'cancelled' | null = null;
    const stop = (why: typeof ended) => {
      ended ??= why;
      void proc.kill(0);
    };
    proc.child.stdout!.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > this.ctx.maxAnswerBytes) return stop('too-large');
      chunks.push(chunk);
    });
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    // Its CPU time: its cgroup counts it to the end; without one, /proc is read while it runs (every
    // SAMPLE_MS and as its output ends), since a process's count goes with it.
    const sampler = proc.cpuFromCgroup ? undefined : setInterval(() => proc.cpuMs(), SAMPLE_MS);
    if (sampler) {
      proc.cpuMs();
      proc.child.stdout!.once('end', () => proc.cpuMs());
    }
    await proc.exited;
    clearTimeout(timer);
    clearInterval(sampler);
    const cpuMs = proc.cpuMs();
    const timing = cpuMs === null ? {} : { cpuMs };
    signal?.removeEventListener('abort', onAbort);
    this.running.delete(proc);

    if (ended === 'timeout') {
      this.ctx.log('note', `no answer within ${timeoutMs} ms; process stopped`);
      return { kind: 'fault', fault: { kind: 'timeout', detail: `no answer within ${timeoutMs} ms${proc.lastStderr()}` }, ms: ms(), ...timing };
    }
    if (ended === 'too-large')
      return { kind: 'fault', fault: { kind: 'too-large', detail: `answer exceeded ${this.ctx.maxAnswerBytes} bytes` }, ms: ms(), ...timing };
    if (ended === 'cancelled') return { kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: ms(), ...timing };
    if (proc.spawnError) {
      const tooLong = proc.spawnError.code === 'E2BIG';
      const detail = tooLong ? `the message (${msg.text.length} bytes) is too long to pass as a command-line argument; use stdio: instead` : proc.deathNote('');
      return { kind: 'fault', fault: { kind: 'transport', detail }, ms: ms(), ...timing };
    }
    const text = Buffer.concat(chunks).toString('utf8').trimEnd();
    const exit = proc.exit!;
    this.ctx.log('recv', forLog(text));
    if (exit.code !== 0) return { kind: 'fault', fault: { kind: 'crash', detail: proc.deathNote('') }, ms: ms(), ...timing };
    return { kind: 'text', text, ms: ms(), ...timing };
  }

  /** One process per message is for questions: a notice that expects no answer starts no process. */
  tell(msg: OutgoingMessage): Promise<void> {
    this.ctx.log('note', `not sent (exec bots are run only for messages that ask): ${msg.text.slice(0, 200)}`);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running].map((p) => p.kill()));
  }
}
