import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { AskMessage, BotTransport, OutgoingMessage, Reply, SeatContext, TransportCapabilities } from './transport.js';

/** The most characters a side of the terminal is taken to have: a board is drawn for it, and COLUMNS is anyone's to set. */
const MAX_SCREEN = 1000;

/**
 * The person's terminal size: the output's when it is a terminal, else COLUMNS and LINES (as `ls` reads them),
 * else unknown.
 */
export function screenOf(output: Writable, env: NodeJS.ProcessEnv = process.env): { columns: number; rows: number } | undefined {
  const tty = output as Partial<NodeJS.WriteStream>;
  const [columns, rows] = tty.isTTY ? [tty.columns, tty.rows] : [Number(env.COLUMNS), Number(env.LINES)];
  if (!Number.isInteger(columns) || !Number.isInteger(rows) || columns! < 1 || rows! < 1) return undefined;
  return { columns: Math.min(columns!, MAX_SCREEN), rows: Math.min(rows!, MAX_SCREEN) };
}

/**
 * A person at the terminal: shows the position, reads a move, and asks again after a typo or an
 * illegal move. People have no deadline. Prompts go to stderr so `--json` output stays clean.
 */
export class HumanTransport implements BotTransport {
  static readonly capabilities: TransportCapabilities = { values: true, untimed: true };
  readonly capabilities = HumanTransport.capabilities;
  private rl: Interface | null = null;
  private lines: string[] = [];
  private waiting: ((line: string | null) => void) | null = null;
  private ended = false;
  /** the answers the person gave so far, for prompts that show them (Battleship's own fleet) */
  private answered: unknown[] = [];

  constructor(
    private readonly ctx: SeatContext,
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stderr,
  ) {}

  async start(): Promise<void> {
    this.rl = createInterface({ input: this.input, terminal: false });
    this.rl.on('line', (line) => {
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = null;
        w(line);
      } else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      this.waiting?.(null);
      this.waiting = null;
    });
  }

  private nextLine(): Promise<string | null> {
    if (this.lines.length) return Promise.resolve(this.lines.shift()!);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  async ask(msg: AskMessage, _timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    const t0 = performance.now();
    const onAbort = () => {
      const w = this.waiting;
      this.waiting = null;
      w?.(null);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.askPerson(msg, t0, signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async askPerson(msg: AskMessage, t0: number, signal?: AbortSignal): Promise<Reply> {
    const human = this.ctx.game.presentation.human;
    if (!human) {
      return { kind: 'fault', fault: { kind: 'transport', detail: `${this.ctx.game.id} cannot be played by a human at the terminal` }, ms: 0 };
    }
    if (msg.phase === 'init' && human.hello) return { kind: 'value', value: human.hello(msg.view, this.ctx.name), ms: 0 };
    this.output.write(
      `\n${this.ctx.name} (slot ${this.ctx.slot}), turn ${msg.turn}\n${human.prompt(msg.view, msg.phase, { config: this.ctx.config, answered: this.answered, screen: screenOf(this.output) })} `,
    );
    for (;;) {
      const line = await this.nextLine();
      if (signal?.aborted) return { kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: performance.now() - t0 };
      if (line === null) {
        return { kind: 'fault', fault: { kind: 'crash', detail: 'the terminal input closed before a move was entered' }, ms: performance.now() - t0 };
      }
      const read = human.parse(line.trim(), msg.view, msg.phase);
      const problem = 'error' in read ? read.error : (msg.validate?.(read.answer) ?? null);
      if (problem === null && 'answer' in read) {
        this.answered.push(read.answer);
        return { kind: 'value', value: read.answer, ms: performance.now() - t0 };
      }
      this.output.write(`${problem} — try again: `);
    }
  }

  /** Shows a notice (a command's result) to the person. */
  tell(msg: OutgoingMessage): Promise<void> {
    this.output.write(`${this.ctx.name}: ${JSON.stringify(msg.view)}\n`);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.rl?.close();
    this.rl = null;
  }
}
