import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { PersonDesk, type DeskNotice, type PersonAsk, type Submitted } from '../bots/browser-transport.js';

// A person's desk across threads: the pages of a person seat talk to a DeskHost on the thread that answers
// HTTP, while the match (and the seat's BrowserTransport) plays in a match thread (match-pool.ts), on a
// PortDesk. The two are joined by a MessagePort: asks, withdrawals and notices go to the host; who listens
// (presence) and each line the person submits go to the thread, whose answer (taken, more, or what is wrong
// with the line) comes back for the HTTP answer.

/** From the match thread to the host. */
type ToHost =
  | { type: 'ask'; ask: PersonAsk }
  | { type: 'withdraw' }
  | { type: 'publish'; notice: DeskNotice }
  | { type: 'taken'; id: number; result: string | null | 'more' | { idle: string } };
/** From the host to the match thread. */
type ToThread = { type: 'presence'; listening: number } | { type: 'ended' } | { type: 'submit'; id: number; line: string };

const IDLE = 'nothing is asked of this seat now: wait for the next `ask` event';
const OVER: Submitted = { ok: false, why: 'over', error: 'the match is over for this seat' };
/** After the end, how long the lines sent to the thread may wait for its answer before they are told it is over. */
const END_DRAIN_MS = 2000;

/**
 * The thread's side: a PersonDesk for the seat's BrowserTransport whose pages are on the other end of `port`
 * (the number listening and the lines they send come from the host; asks and notices go to it).
 */
export class PortDesk extends PersonDesk {
  private listeningThere = 0;
  private endedThere = false;
  private take: ((line: string) => string | null | 'more') | null = null;
  private presenceThere: (() => void) | null = null;

  constructor(private readonly port: MessagePort) {
    super({}, false);
    port.on('message', (m: ToThread) => this.receive(m));
  }

  override get listening(): number {
    return this.listeningThere;
  }

  override get ended(): boolean {
    return this.endedThere;
  }

  override ask(ask: PersonAsk, take: (line: string) => string | null | 'more'): void {
    this.take = take;
    this.post({ type: 'ask', ask });
  }

  override withdraw(): void {
    this.take = null;
    this.post({ type: 'withdraw' });
  }

  override onPresence(f: (() => void) | null): void {
    this.presenceThere = f;
  }

  override publish(n: DeskNotice): void {
    this.post({ type: 'publish', notice: n });
  }

  /** The seat is closed: the port too (the host ends the pages' side itself, when the match is recorded). */
  override end(): void {
    this.endedThere = true;
    this.take = null;
    this.port.close();
  }

  private post(m: ToHost): void {
    if (!this.endedThere) this.port.postMessage(m);
  }

  private receive(m: ToThread): void {
    if (m.type === 'presence') {
      this.listeningThere = m.listening;
      this.presenceThere?.();
    } else if (m.type === 'ended') {
      this.endedThere = true;
      this.take = null;
      this.presenceThere?.();
    } else {
      const take = this.take;
      if (!take) return this.post({ type: 'taken', id: m.id, result: { idle: IDLE } });
      const result = take(m.line);
      if (result === null) this.take = null;
      this.post({ type: 'taken', id: m.id, result });
    }
  }
}

/**
 * The host's side, on the thread that answers HTTP: the pages listen to it and submit lines to it, as to a
 * PersonDesk, but a line is answered by the match thread (`submit` resolves once it has said). `attach`
 * gives the port to hand to the match thread.
 */
export class DeskHost {
  private readonly listeners = new Set<(n: DeskNotice) => void>();
  private pending: PersonAsk | null = null;
  private over: { reason: string; result?: unknown } | null = null;
  private port: MessagePort | null = null;
  private readonly calls = new Map<number, { line: string; turn: number; resolve: (s: Submitted) => void }>();
  private nextId = 0;

  /** `tag` goes into every notice (the match id and slot). */
  constructor(readonly tag: Record<string, unknown> = {}) {}

  /** Pages listening now. */
  get listening(): number {
    return this.listeners.size;
  }

  /** Whether the match is over for this seat. */
  get ended(): boolean {
    return this.over !== null;
  }

  /** Joins the desk to the match thread that plays the seat: returns the thread's end of the channel (to transfer). */
  attach(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.port?.close();
    this.port = port1;
    port1.on('message', (m: ToHost) => this.receive(m));
    port1.on('close', () => {
      if (this.port === port1) this.port = null;
      this.settleCalls(OVER);
    });
    this.post({ type: 'presence', listening: this.listeners.size });
    return port2;
  }

  /** Starts sending notices to a page (the pending ask first, or `ended` when it is over); returns how to stop. */
  listen(send: (n: DeskNotice) => void): () => void {
    if (this.over) {
      send(this.notice({ type: 'ended', ...this.over }));
      return () => {};
    }
    this.listeners.add(send);
    this.post({ type: 'presence', listening: this.listeners.size });
    if (this.pending) send(this.notice({ type: 'ask', ...this.pending }));
    return () => {
      if (this.listeners.delete(send)) this.post({ type: 'presence', listening: this.listeners.size });
    };
  }

  /** A line from the person, for the pending ask: the match thread takes it or says what is wrong with it. */
  submit(line: string): Promise<Submitted> {
    if (this.over) return Promise.resolve(OVER);
    const ask = this.pending;
    if (!ask || !this.port) return Promise.resolve({ ok: false, why: 'idle', error: IDLE });
    const id = ++this.nextId;
    return new Promise<Submitted>((resolve) => {
      this.calls.set(id, { line, turn: ask.turn, resolve });
      this.post({ type: 'submit', id, line });
    });
  }

  /**
   * The match is over for this seat: pages get `ended` (once) and stop. The match's end comes to this thread on
   * another channel than the desk's (the match pool's), so it may arrive before the desk's last messages: a line
   * the thread took just before the end (the winning move) has its `taken` still on the way. So the channel
   * closes only once every line sent is answered (or the thread's side closes, or after END_DRAIN_MS): that
   * line is answered as taken, not as "the match is over".
   */
  end(info: { reason: string; result?: unknown }): void {
    if (this.over) return;
    this.pending = null;
    this.publish({ type: 'ended', ...info });
    this.over = info;
    this.listeners.clear();
    this.post({ type: 'ended' });
    if (!this.calls.size) return this.close();
    setTimeout(() => this.close(), END_DRAIN_MS).unref();
  }

  /** Closes the channel to the thread; the lines it has not answered are answered "the match is over". */
  private close(): void {
    this.settleCalls(OVER);
    this.port?.close();
    this.port = null;
  }

  private receive(m: ToHost): void {
    // Once over, only the answers to lines already sent count (an ask now is one the match will not take).
    if (this.over && m.type !== 'taken') return;
    if (m.type === 'ask') {
      this.pending = m.ask;
      this.publish({ type: 'ask', ...m.ask });
    } else if (m.type === 'withdraw') this.pending = null;
    else if (m.type === 'publish') this.publish(m.notice);
    else {
      const call = this.calls.get(m.id);
      if (!call) return;
      this.calls.delete(m.id);
      const r = m.result;
      if (r !== null && typeof r === 'object') call.resolve(this.over ? OVER : { ok: false, why: 'idle', error: r.idle });
      else if (r !== null && r !== 'more') call.resolve({ ok: false, why: 'bad', error: r });
      else {
        if (r === null) this.pending = null;
        this.publish({ type: 'accepted', turn: call.turn, line: call.line, more: r === 'more' });
        call.resolve({ ok: true });
      }
      if (this.over && !this.calls.size) this.close();
    }
  }

  private settleCalls(s: Submitted): void {
    for (const c of this.calls.values()) c.resolve(s);
    this.calls.clear();
  }

  private post(m: ToThread): void {
    this.port?.postMessage(m);
  }

  private publish(n: DeskNotice): void {
    const tagged = this.notice(n);
    for (const send of this.listeners) send(tagged);
  }

  private notice(n: DeskNotice): DeskNotice {
    return { ...n, ...this.tag } as DeskNotice;
  }
}
