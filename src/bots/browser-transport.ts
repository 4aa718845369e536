import type { AskPhase, Phase } from '../core/game.js';
import type { AskMessage, BotTransport, OutgoingMessage, Reply, SeatContext, TransportCapabilities } from './transport.js';

/** What a person in the browser is asked: the turn, the message object, the game's prompt and what they answered so far. */
export interface PersonAsk {
  turn: number;
  phase: AskPhase;
  /** the message object the seat was sent (the wire's JSON, typed; smart-dog: its lines) */
  view: unknown;
  /** the game's text prompt (the board and the question), as at the terminal */
  prompt: string;
  /** a stream step (smart-dog): send lines one by one; the turn is over after the game's end line (`end`) */
  stream: boolean;
  seat: { config: Record<string, unknown>; answered: unknown[] };
}

/** What a desk tells the pages that listen to its seat; `tag` (the match and slot) is merged into each. */
export type DeskNotice =
  | ({ type: 'ask' } & PersonAsk)
  | { type: 'told'; turn: number; phase: Phase; view: unknown }
  | { type: 'accepted'; turn: number; line: string; more: boolean }
  | { type: 'ended'; reason: string; result?: unknown };

/** What `PersonDesk.submit` answers: taken, or why not (a bad line is the person's to fix; idle and over are the page's). */
export type Submitted = { ok: true } | { ok: false; why: 'bad' | 'idle' | 'over'; error: string };

/** How long a person may be away or think before the seat faults. */
export interface PersonLimits {
  /** a move is asked and no page listens for this long: the person left (default 30 s) */
  leaveMs?: number;
  /** the longest one move may take (default 10 min) */
  personTurnMs?: number;
}

export const DEFAULT_LEAVE_MS = 30_000;
export const DEFAULT_PERSON_TURN_MS = 10 * 60_000;

/**
 * The desk of one person's seat, held by whoever serves the pages (the server): pages listen to it, lines
 * are submitted to it, and the seat's BrowserTransport publishes its asks and notices on it. At most one ask
 * is pending; a page that starts listening gets it at once.
 */
export class PersonDesk {
  private readonly listeners = new Set<(n: DeskNotice) => void>();
  private pending: { ask: PersonAsk; take: (line: string) => string | null | 'more' } | null = null;
  private presence: (() => void) | null = null;
  private over: { reason: string; result?: unknown } | null = null;

  /** `tag` goes into every notice (the server's match id and slot); `endOnClose`: the seat's close announces the end (else the owner's `end`). */
  constructor(
    readonly tag: Record<string, unknown> = {},
    readonly endOnClose = true,
  ) {}

  /** Pages listening now. */
  get listening(): number {
    return this.listeners.size;
  }

  /** Whether the match is over for this seat. */
  get ended(): boolean {
    return this.over !== null;
  }

  /** Starts sending notices to a page (the pending ask first, or `ended` when it is over); returns how to stop. */
  listen(send: (n: DeskNotice) => void): () => void {
    if (this.over) {
      send(this.notice({ type: 'ended', ...this.over }));
      return () => {};
    }
    this.listeners.add(send);
    this.presence?.();
    if (this.pending) send(this.notice({ type: 'ask', ...this.pending.ask }));
    return () => {
      if (this.listeners.delete(send)) this.presence?.();
    };
  }

  /** A line from the person: handed to the pending ask, which takes it or says what is wrong with it. */
  submit(line: string): Submitted {
    if (this.over) return { ok: false, why: 'over', error: 'the match is over for this seat' };
    const p = this.pending;
    if (!p) return { ok: false, why: 'idle', error: 'nothing is asked of this seat now: wait for the next `ask` event' };
    const problem = p.take(line);
    if (problem !== null && problem !== 'more') return { ok: false, why: 'bad', error: problem };
    if (problem !== 'more') this.pending = null;
    this.publish({ type: 'accepted', turn: p.ask.turn, line, more: problem === 'more' });
    return { ok: true };
  }

  /** The match is over for this seat: pages get `ended` (once) and stop. */
  end(info: { reason: string; result?: unknown }): void {
    if (this.over) return;
    this.pending = null;
    this.publish({ type: 'ended', ...info });
    this.over = info;
    this.listeners.clear();
    this.presence?.();
  }

  /** For the seat: asks the person; `take` gets each line and answers null (taken), 'more' (taken, the turn goes on) or the error. */
  ask(ask: PersonAsk, take: (line: string) => string | null | 'more'): void {
    this.pending = { ask, take };
    this.publish({ type: 'ask', ...ask });
  }

  /** For the seat: the ask is withdrawn (answered by timeout, cancelled). */
  withdraw(): void {
    this.pending = null;
  }

  /** For the seat: called whenever pages come or go. */
  onPresence(f: (() => void) | null): void {
    this.presence = f;
  }

  /** Sends a notice to every page listening. */
  publish(n: DeskNotice): void {
    const tagged = this.notice(n);
    for (const send of this.listeners) send(tagged);
  }

  private notice(n: DeskNotice): DeskNotice {
    return { ...n, ...this.tag } as DeskNotice;
  }
}

/** "30 s", "10 min": a limit as a person reads it. */
export function spokenMs(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * A person in the browser: the same play as HumanTransport at the terminal (the game's `human` prompt and
 * parser, a retry after a bad line), but the lines come through a PersonDesk the server holds. A person has
 * no bot deadline; they fault `timeout` when no page listens for `leaveMs` while asked, or after `personTurnMs`.
 * In a stream step (smart-dog) each line is a wire line, given to the step as it comes, until the end line.
 */
export class BrowserTransport implements BotTransport {
  // Not `connectIn`: that means "joins through the game's lobby" (the CLI waits on a TCP port for those); a
  // browser seat is opened by the server from its desk (RunOptions.connections), and by nothing else.
  static readonly capabilities: TransportCapabilities = { values: true, untimed: true };
  readonly capabilities = BrowserTransport.capabilities;
  private readonly answered: unknown[] = [];
  private readonly leaveMs: number;
  private readonly turnMs: number;
  private closed = false;
  /** the person left (no page for leaveMs) and no page has come back since: later asks fault at once */
  private gone = false;

  constructor(
    private readonly ctx: SeatContext,
    private readonly desk: PersonDesk,
    limits: PersonLimits = {},
  ) {
    this.leaveMs = limits.leaveMs ?? DEFAULT_LEAVE_MS;
    this.turnMs = limits.personTurnMs ?? DEFAULT_PERSON_TURN_MS;
  }

  async start(): Promise<void> {}

  ask(msg: AskMessage, _timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    const t0 = performance.now();
    const { game } = this.ctx;
    const human = game.presentation.human;
    if (msg.phase === 'init' && human?.hello) return Promise.resolve({ kind: 'value', value: human.hello(msg.view, this.ctx.name), ms: 0 });
    if (!human && !msg.converse) {
      return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: `${game.id} has no play for a person (no prompt or move reader)` }, ms: 0 });
    }
    if (signal?.aborted) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'cancelled' }, ms: 0 });
    if (this.closed || this.desk.ended) return Promise.resolve({ kind: 'fault', fault: { kind: 'transport', detail: 'the seat is closed' }, ms: 0 });
    const left = `the person left: no page was open for this seat for ${spokenMs(this.leaveMs)}`;
    // Once gone, a person is not waited for again turn after turn (a game where a fault is a pass would drag on).
    if (this.gone && this.desk.listening === 0) return Promise.resolve({ kind: 'fault', fault: { kind: 'timeout', detail: left }, ms: 0 });
    this.gone = false;
    const seat = { config: this.ctx.config, answered: this.answered };
    const prompt = human ? human.prompt(msg.view, msg.phase, seat) : streamPrompt(msg.view);
    return new Promise<Reply>((resolve) => {
      let leaveTimer: NodeJS.Timeout | undefined;
      let settled = false;
      const done = (reply: Reply) => {
        if (settled) return;
        settled = true;
        clearTimeout(turnTimer);
        clearTimeout(leaveTimer);
        signal?.removeEventListener('abort', onAbort);
        this.desk.onPresence(null);
        this.desk.withdraw();
        resolve(reply);
      };
      const fault = (kind: 'timeout' | 'transport', detail: string) => done({ kind: 'fault', fault: { kind, detail }, ms: performance.now() - t0 });
      const onAbort = () => fault('transport', 'cancelled');
      // Leaving counts only while nobody listens: a page that comes back in time stops the clock.
      const presence = () => {
        clearTimeout(leaveTimer);
        leaveTimer = undefined;
        if (this.desk.listening > 0) return;
        leaveTimer = setTimeout(() => {
          this.gone = true;
          fault('timeout', left);
        }, this.leaveMs);
      };
      const turnTimer = setTimeout(() => fault('timeout', `no move within ${spokenMs(this.turnMs)}`), this.turnMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.desk.onPresence(presence);
      presence();
      this.desk.ask({ turn: msg.turn, phase: msg.phase, view: msg.view, prompt, stream: Boolean(msg.converse), seat }, (raw) => {
        const line = raw.trim();
        if (msg.converse) {
          // A stream step: each wire line goes to the step now (its replies come back as `told`).
          if (/[\r\n]/.test(line)) return 'send one line at a time: this one has a line break in it';
          if (!msg.converse(line)) return 'more';
          queueMicrotask(() => done({ kind: 'value', value: [], ms: performance.now() - t0 }));
          return null;
        }
        const read = human!.parse(line, msg.view, msg.phase);
        const problem = 'error' in read ? read.error : (msg.validate?.(read.answer) ?? null);
        if (problem !== null) return problem;
        const answer = (read as { answer: unknown }).answer;
        this.answered.push(answer);
        queueMicrotask(() => done({ kind: 'value', value: answer, ms: performance.now() - t0 }));
        return null;
      });
    });
  }

  /** Shows a notice (a command's result, a stream reply) to the person's pages. */
  tell(msg: OutgoingMessage, _timeoutMs?: number): Promise<void> {
    if (!this.closed) this.desk.publish({ type: 'told', turn: msg.turn, phase: msg.phase, view: msg.view });
    return Promise.resolve();
  }

  async close(graceful?: boolean): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.desk.withdraw();
    if (this.desk.endOnClose) this.desk.end({ reason: graceful ? 'the match is over' : 'the match was stopped' });
  }
}

/** The prompt of a step whose lines are the wire's own (smart-dog has no terminal play of its own). */
function streamPrompt(view: unknown): string {
  const lines = Array.isArray(view) ? view.join('\n') : JSON.stringify(view);
  return `${lines}\nsend your commands one line at a time, then end`;
}
