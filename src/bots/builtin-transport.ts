import type { BuiltinBot } from '../core/game.js';
import { builtinBotSeed } from '../core/self-play.js';
import type { AskMessage, BotTransport, Reply, SeatContext, TransportCapabilities } from './transport.js';

/**
 * A built-in bot in this process: it gets the message object itself (no serialisation) and returns
 * the answer object. A throw is the bot's crash; a slow async answer still meets the deadline.
 */
export class BuiltinTransport implements BotTransport {
  static readonly capabilities: TransportCapabilities = { values: true };
  readonly capabilities = BuiltinTransport.capabilities;
  private bot: BuiltinBot<unknown> | null = null;

  constructor(
    private readonly botName: string,
    private readonly ctx: SeatContext,
  ) {}

  async start(): Promise<void> {
    const factory = this.ctx.game.bots[this.botName];
    if (!factory) return;
    // Each seat gets its own generator, derived from the match seed and the slot, so games replay exactly.
    this.bot = factory.create({
      slot: this.ctx.slot,
      players: this.ctx.players,
      config: this.ctx.config,
      seed: builtinBotSeed(this.ctx.seed, this.botName, this.ctx.slot),
    });
  }

  async ask(msg: AskMessage, timeoutMs: number): Promise<Reply> {
    const t0 = performance.now();
    const ms = () => performance.now() - t0;
    if (!this.bot) {
      return { kind: 'fault', fault: { kind: 'transport', detail: `${this.ctx.game.id} has no built-in bot "${this.botName}"` }, ms: 0 };
    }
    try {
      let value = this.bot.act(msg.view, msg.phase);
      if (value instanceof Promise) {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<typeof TIMEOUT>((resolve) => (timer = setTimeout(() => resolve(TIMEOUT), timeoutMs)));
        value = await Promise.race([value, late]).finally(() => clearTimeout(timer));
        if (value === TIMEOUT) return { kind: 'fault', fault: { kind: 'timeout', detail: `no answer within ${timeoutMs} ms` }, ms: ms() };
      }
      const elapsed = ms();
      if (elapsed > timeoutMs) {
        return { kind: 'fault', fault: { kind: 'timeout', detail: `answered after ${elapsed.toFixed(0)} ms; the limit is ${timeoutMs} ms` }, ms: elapsed };
      }
      return { kind: 'value', value, ms: elapsed };
    } catch (err) {
      const detail = `built-in bot "${this.botName}" threw: ${err instanceof Error ? err.message : String(err)}`;
      this.ctx.log('note', detail);
      return { kind: 'fault', fault: { kind: 'crash', detail }, ms: ms() };
    }
  }

  /** Built-in bots read everything they need from the next message. */
  tell(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.bot = null;
  }
}

const TIMEOUT = Symbol('timeout');
