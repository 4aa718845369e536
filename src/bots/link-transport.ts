import type { MessagePort } from 'node:worker_threads';
import type { FaultKind } from '../core/game.js';
import { forLog } from './line-reader.js';
import type { AskMessage, BotTransport, ByteSeatContext, OutgoingMessage, Reply, TransportCapabilities } from './transport.js';

// A bot linked to the server from its author's machine (`botarena connect`): its seat plays in a match thread
// and talks, over a MessagePort, to the link the server holds on its main thread (matches/links.ts), which
// carries the seat's wire messages to the author's machine and brings the answers back. As a person's seat
// talks to its desk (arena/desk-bridge.ts).

/** How a linked seat's fault begins when its link was lost (the author's side stopped or its network dropped): not the bot's play. */
export const LINK_LOST = "the link to the bot's machine was lost";

/** From the match thread to the link. */
export type SeatToLink =
  | { type: 'ask'; n: number; phase: string; turn: number; text: string; timeoutMs: number }
  | { type: 'tell'; phase: string; turn: number; text: string }
  | { type: 'close'; graceful: boolean };

/** From the link to the match thread. */
export type LinkToSeat =
  { type: 'answer'; n: number; text: string } | { type: 'fault'; n: number; kind: FaultKind; detail: string } | { type: 'gone'; why: string };

interface Pending {
  n: number;
  t0: number;
  timer: NodeJS.Timeout;
  resolve: (r: Reply) => void;
  skip?: (line: string) => string | null;
}

/**
 * The seat of a linked bot, in the match thread: each message asked is sent over the port with its number and
 * deadline; the answer with that number (text, or the fault its author's side saw) settles it. The deadline is
 * kept here; a late answer (its number passed) is dropped. When the link is gone (its connection dropped, the
 * client stopped) every ask from then on is a transport fault: the game's fault rules end the match for it.
 */
export class LinkTransport implements BotTransport {
  static readonly capabilities: TransportCapabilities = { connectIn: true };
  readonly capabilities = LinkTransport.capabilities;
  private n = 0;
  private pending: Pending | null = null;
  private gone: string | null = null;

  constructor(
    private readonly port: MessagePort,
    private readonly ctx: ByteSeatContext,
  ) {
    port.on('message', (m: LinkToSeat) => this.receive(m));
    port.on('close', () => this.drop('the link to the bot was closed'));
  }

  async start(): Promise<void> {}

  ask(msg: AskMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    this.settle({ kind: 'transport', detail: 'a new message was sent before this one was answered' });
    if (this.gone) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: this.gone }, ms: 0 });
    if (signal?.aborted) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: 0 });
    const n = ++this.n;
    return new Promise<Reply>((resolve) => {
      const onAbort = () => this.settle({ kind: 'transport', detail: 'cancelled' });
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => {
        this.ctx.log('note', `no answer within ${timeoutMs} ms`);
        this.settle({ kind: 'timeout', detail: `no answer within ${timeoutMs} ms (the time counts the link to the bot's machine)` });
      }, timeoutMs);
      this.pending = {
        n,
        t0: performance.now(),
        timer,
        skip: msg.skip,
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
      };
      this.ctx.log('send', forLog(msg.text));
      this.post({ type: 'ask', n, phase: msg.phase, turn: msg.turn, text: msg.text, timeoutMs });
    });
  }

  tell(msg: OutgoingMessage): Promise<void> {
    if (!this.gone) {
      this.ctx.log('send', forLog(msg.text));
      this.post({ type: 'tell', phase: msg.phase, turn: msg.turn, text: msg.text });
    }
    return Promise.resolve();
  }

  async close(graceful = false): Promise<void> {
    this.settle({ kind: 'transport', detail: 'the match is over' });
    if (this.gone) return;
    this.gone = 'the match is over';
    this.post({ type: 'close', graceful });
    this.port.close();
  }

  private post(m: SeatToLink): void {
    try {
      this.port.postMessage(m);
    } catch {
      this.drop('the link to the bot was closed');
    }
  }

  private receive(m: LinkToSeat): void {
    if (m.type === 'gone') return this.drop(m.why);
    const p = this.pending;
    if (!p || p.n !== m.n) {
      if (m.type === 'answer') this.ctx.log('note', `dropped an answer that came after its deadline: ${forLog(m.text, 200)}`);
      return;
    }
    const ms = performance.now() - p.t0;
    if (m.type === 'fault') {
      this.ctx.log('note', `${m.kind}: ${m.detail}`);
      return this.settle({ kind: m.kind, detail: m.detail }, ms);
    }
    this.ctx.log('recv', forLog(m.text));
    if (Buffer.byteLength(m.text) > this.ctx.maxAnswerBytes)
      return this.settle({ kind: 'too-large', detail: `the answer exceeded ${this.ctx.maxAnswerBytes} bytes` }, ms);
    const skipped = p.skip?.(m.text);
    if (skipped) {
      // A stale answer (the game's own rule): the seat waits on for the answer to this message until its deadline.
      this.ctx.log('note', `skipped an answer (${skipped}): ${forLog(m.text, 200)}`);
      return;
    }
    this.finish({ kind: 'text', text: m.text, ms });
  }

  /** The link is unusable from now on: the ask waiting and every later one get a transport fault. */
  private drop(why: string): void {
    if (this.gone) return;
    this.gone = why;
    this.ctx.log('note', why);
    this.settle({ kind: 'transport', detail: why });
  }

  private settle(fault: { kind: FaultKind; detail: string }, ms?: number): void {
    const p = this.pending;
    if (p) this.finish({ kind: 'fault', fault, ms: ms ?? performance.now() - p.t0 });
  }

  private finish(r: Reply): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.resolve(r);
  }
}
