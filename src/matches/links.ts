import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { LINK_LOST, type LinkToSeat, type SeatToLink } from '../bots/link-transport.js';
import type { FaultKind } from '../core/moves.js';
import type { ResultLine } from '../core/replay-result.js';
import type { BotRow } from '../store/index.js';

// The bots linked to this server from their authors' machines (`botarena connect`): one WebSocket per bot,
// held on the server's main thread (the route: server/routes/connect.ts), carrying the matches the bot is
// seated in. A seat of such a bot plays in a match thread (bots/link-transport.ts) and talks to its link here
// over a MessagePort, as a person's seat talks to its desk (arena/desk-bridge.ts). The protocol over the
// WebSocket is docs/connect.md's.

/** The protocol's version, sent in `hello`. */
export const LINK_PROTOCOL = 1;

/** What the server needs of a WebSocket (the `ws` library's, in the route). */
export interface LinkSocket {
  send(text: string): void;
  /** bytes handed to the socket and not yet sent to the client */
  readonly bufferedAmount: number;
  ping(): void;
  /** a polite close: `reason` at most 123 bytes */
  close(code: number, reason: string): void;
  /** cuts the connection at once (a client that does not read gets no close frame) */
  terminate(): void;
}

/** The bounds of a link. */
export interface LinkLimits {
  /** a ping every this long; a link that has not answered the last one by then is cut (default 20 s) */
  pingMs: number;
  /** bytes waiting unsent to a client before it is taken for one that does not read, and cut (default 4 MiB) */
  maxUnreadBytes: number;
  /** the largest message a client may send, in bytes (the WebSocket's own cap; default 1 MiB + 16 KiB: an answer is at most 1 MiB) */
  maxMessageBytes: number;
  /** messages in a row that answer nothing asked (late, unknown, repeated) before the link is cut as a flood (default 200) */
  maxUnasked: number;
}

export const LINK_DEFAULTS: LinkLimits = { pingMs: 20_000, maxUnreadBytes: 4 * 1024 * 1024, maxMessageBytes: 1024 * 1024 + 16 * 1024, maxUnasked: 200 };

/** Close codes (4000–4999 are the application's): each close comes with a short reason, and a `refused`/`cut` message before it says more. */
export const LINK_CLOSE = {
  /** the bot has a link already */
  taken: 4409,
  /** a message that is not the protocol's */
  protocol: 4400,
  /** too many messages that answer nothing */
  flood: 4429,
  /** the server is stopping */
  stopping: 1001,
  /** the bot was deleted, or is no longer a `connect:` bot */
  gone: 4410,
} as const;

/** How long a seat whose match thread closed waits for the match's end (its result) before it is told the end without one. */
const END_WAIT_MS = 10_000;

/** A seat of a linked bot in a match being played: its channel to the match thread, and the ask it waits on. */
class LinkSeat {
  /** the number of the ask the client owes an answer to (0: none) */
  asked = 0;
  ended = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly link: Link,
    readonly matchId: string,
    readonly slot: number,
    readonly port: MessagePort,
  ) {
    port.on('message', (m: SeatToLink) => this.fromThread(m));
  }

  private fromThread(m: SeatToLink): void {
    if (this.ended) return;
    if (m.type === 'ask') {
      this.asked = m.n;
      this.link.send({ type: 'ask', match: this.matchId, slot: this.slot, n: m.n, phase: m.phase, turn: m.turn, timeoutMs: m.timeoutMs, message: m.text });
    } else if (m.type === 'tell') this.link.send({ type: 'tell', match: this.matchId, slot: this.slot, phase: m.phase, turn: m.turn, message: m.text });
    else {
      // The seat is closed: the match is over; its end (with the result) comes from the arena once it is recorded.
      this.asked = 0;
      this.timer = setTimeout(() => this.link.links.endSeat(this, { reason: 'the match is over' }), END_WAIT_MS);
      this.timer.unref();
    }
  }

  toThread(m: LinkToSeat): void {
    try {
      this.port.postMessage(m);
    } catch {
      // the thread's side is closed already
    }
  }

  end(info: { reason: string; result?: unknown }): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearTimeout(this.timer);
    this.port.close();
    this.link.send({ type: 'end', match: this.matchId, slot: this.slot, reason: info.reason, ...(info.result !== undefined ? { result: info.result } : {}) });
  }
}

/** One bot's link: its WebSocket and the seats it carries. */
export class Link {
  readonly seats = new Map<string, LinkSeat>();
  /** why the link is over (null while it lives) */
  gone: string | null = null;
  private alive = true;
  private unasked = 0;
  private readonly pinger: NodeJS.Timeout;

  constructor(
    readonly links: BotLinks,
    readonly bot: Pick<BotRow, 'id' | 'name' | 'game' | 'capacity'>,
    private readonly socket: LinkSocket,
    private readonly limits: LinkLimits,
  ) {
    this.pinger = setInterval(() => {
      if (!this.alive) return this.cut(`no answer to the server's ping within ${limits.pingMs} ms`);
      this.alive = false;
      try {
        socket.ping();
      } catch {
        this.cut('the connection failed');
      }
      // A bot deleted, or no longer `connect:`, since it linked: its link is closed, saying so.
      void links.unwanted(bot.id).then(
        (why) => why && !this.gone && this.refuse(LINK_CLOSE.gone, 'the bot is not linkable now', why),
        () => {},
      );
    }, limits.pingMs);
    this.pinger.unref();
  }

  /** Sends a protocol message; a client that lets more than maxUnreadBytes wait unsent is cut. */
  send(m: Record<string, unknown>): void {
    if (this.gone) return;
    if (this.socket.bufferedAmount > this.limits.maxUnreadBytes)
      return this.cut(`the client does not read: over ${this.limits.maxUnreadBytes} bytes were waiting to be sent to it`);
    try {
      this.socket.send(JSON.stringify(m));
    } catch {
      this.cut('the connection failed');
    }
  }

  /** The client answered a ping (or sent anything: it is there). */
  pong(): void {
    this.alive = true;
  }

  /** A message from the client: an answer or a fault for a seat's pending ask; anything else closes the link, saying what was expected. */
  receive(data: string): void {
    if (this.gone) return;
    this.alive = true;
    let m: unknown;
    try {
      m = JSON.parse(data);
    } catch {
      return this.refuse(LINK_CLOSE.protocol, 'not JSON', `a message is not JSON: ${preview(data)}; expected one JSON object a message (docs/connect.md)`);
    }
    const bad = shapeError(m);
    if (bad) return this.refuse(LINK_CLOSE.protocol, 'not the protocol', `${bad}; got ${preview(data)} (docs/connect.md)`);
    const msg = m as { type: 'answer' | 'fault'; match: string; slot: number; n: number; text?: string; kind?: string; detail?: string };
    const seat = this.seats.get(seatKey(msg.match, msg.slot));
    if (!seat || seat.ended || seat.asked !== msg.n) {
      // Late (its deadline passed), for a match that is over, or made up: dropped, and counted.
      if (++this.unasked > this.limits.maxUnasked)
        this.refuse(
          LINK_CLOSE.flood,
          'flood',
          `over ${this.limits.maxUnasked} messages in a row answered nothing the server asked: the link is closed as a flood`,
        );
      return;
    }
    this.unasked = 0;
    seat.asked = 0;
    if (msg.type === 'answer') seat.toThread({ type: 'answer', n: msg.n, text: msg.text! });
    else {
      const kind: FaultKind =
        msg.kind && (['crash', 'timeout', 'transport', 'too-large'] as string[]).includes(msg.kind) ? (msg.kind as FaultKind) : 'transport';
      seat.toThread({ type: 'fault', n: msg.n, kind, detail: `on its author's machine: ${String(msg.detail ?? '').slice(0, 500)}` });
    }
  }

  /** Sends why the link is closed (a `cut` message), then closes it politely. */
  refuse(code: number, reason: string, message: string): void {
    this.send({ type: 'cut', message });
    this.closed(message);
    try {
      this.socket.close(code, reason);
    } catch {
      this.socket.terminate();
    }
  }

  /** Cuts the link at once (the client does not read, or does not answer pings): no close frame it would not read anyway. */
  cut(why: string): void {
    this.closed(why);
    this.socket.terminate();
  }

  /** The connection is over (closed by either side, or cut): every seat's match thread is told, and the bot is away. */
  closed(why: string): void {
    if (this.gone) return;
    this.gone = why;
    clearInterval(this.pinger);
    for (const seat of this.seats.values()) if (!seat.ended) seat.toThread({ type: 'gone', why: `${LINK_LOST}: ${why}` });
    this.links.dropped(this, why);
  }
}

/** What a new link is: taken, or refused (the close code, a short reason, and the whole message). */
export type Linked = { link: Link } | { refused: { code: number; reason: string; message: string } };

/**
 * The links of this server, one per bot: which bots are connected, a seat's channel to its bot's link when a
 * match starts, and each seat's end. `changed` is told when a bot's link comes or goes (the arena marks the bot
 * active or away).
 */
export class BotLinks {
  private readonly byBot = new Map<string, Link>();
  /** the seats of each match, by match id */
  private readonly byMatch = new Map<string, Set<LinkSeat>>();
  readonly limits: LinkLimits;

  constructor(
    limits: Partial<LinkLimits> = {},
    private readonly changed: (bot: Pick<BotRow, 'id' | 'name'>, connected: boolean, why: string) => void = () => {},
    /** why a linked bot may not stay linked now (deleted, no longer `connect:`), or null; asked at every ping */
    readonly unwanted: (botId: string) => Promise<string | null> = () => Promise.resolve(null),
  ) {
    this.limits = { ...LINK_DEFAULTS, ...limits };
  }

  /**
   * A bot's client connected: its link, sent `hello`; or refused when the bot has one already (one link per bot:
   * its capacity is the matches at once over that link).
   */
  connect(bot: Pick<BotRow, 'id' | 'name' | 'game' | 'capacity'>, socket: LinkSocket): Linked {
    const had = this.byBot.get(bot.id);
    if (had && !had.gone)
      return {
        refused: {
          code: LINK_CLOSE.taken,
          reason: 'this bot is connected already',
          message: `bot ${bot.name} (${bot.id}) is linked to this server already, from another connection: one link per bot, carrying up to its capacity (${bot.capacity}) matches at once. A link that stopped answering is cut after ${(2 * this.limits.pingMs) / 1000} s at most; then connect again`,
        },
      };
    const link = new Link(this, bot, socket, this.limits);
    this.byBot.set(bot.id, link);
    link.send({
      type: 'hello',
      protocol: LINK_PROTOCOL,
      bot: { id: bot.id, name: bot.name, game: bot.game },
      capacity: bot.capacity,
      pingMs: this.limits.pingMs,
      maxMessageBytes: this.limits.maxMessageBytes,
    });
    this.changed(bot, true, 'connected');
    return { link };
  }

  /** Whether a bot is linked to this server now. */
  connected(botId: string): boolean {
    const link = this.byBot.get(botId);
    return !!link && !link.gone;
  }

  /** How many bots are linked now. */
  get size(): number {
    return this.byBot.size;
  }

  /**
   * The match thread's end of a channel to a linked bot's seat, its `start` sent to the client; or why the seat
   * cannot be opened (the bot is not linked here, or plays its capacity's worth of matches already).
   */
  open(
    matchId: string,
    slot: number,
    bot: Pick<BotRow, 'id' | 'name' | 'capacity'>,
    seat: { game: string; players: number; config: Record<string, unknown>; dialect: string },
  ): MessagePort | string {
    const link = this.byBot.get(bot.id);
    if (!link || link.gone) return `${bot.name} is not connected: its author's \`botarena connect\` is not linked to this server`;
    if (link.seats.size >= bot.capacity) return `${bot.name} plays ${link.seats.size} matches over its link already, its capacity (${bot.capacity})`;
    const { port1, port2 } = new MessageChannel();
    const s = new LinkSeat(link, matchId, slot, port1);
    link.seats.set(seatKey(matchId, slot), s);
    let seats = this.byMatch.get(matchId);
    if (!seats) this.byMatch.set(matchId, (seats = new Set()));
    seats.add(s);
    link.send({ type: 'start', match: matchId, slot, game: seat.game, players: seat.players, config: seat.config, dialect: seat.dialect, name: bot.name });
    return port2;
  }

  /** A match is over (recorded, or not played): its linked seats' clients are told, with the result when there is one. */
  end(matchId: string, info: { reason: string; result?: ResultLine }): void {
    // The result as its players read it: no seat's bot spec (another owner's command line, or URL).
    const r = info.result;
    const result = r && {
      winner: r.winner,
      draw: r.draw,
      reason: r.reason,
      turns: r.turns,
      players: r.players.map((p) => ({ slot: p.slot, name: p.name, rank: p.rank, score: p.score, fault: p.fault })),
    };
    for (const s of this.byMatch.get(matchId) ?? []) this.endSeat(s, { reason: info.reason, result });
  }

  /** @internal one seat's end */
  endSeat(s: LinkSeat, info: { reason: string; result?: unknown }): void {
    s.end(info);
    s.link.seats.delete(seatKey(s.matchId, s.slot));
    const seats = this.byMatch.get(s.matchId);
    seats?.delete(s);
    if (seats && !seats.size) this.byMatch.delete(s.matchId);
  }

  /** @internal a link is over */
  dropped(link: Link, why: string): void {
    if (this.byBot.get(link.bot.id) !== link) return;
    this.byBot.delete(link.bot.id);
    this.changed(link.bot, false, why);
  }

  /** Closes every link (the server stops). */
  closeAll(why = 'the server is stopping'): void {
    for (const link of [...this.byBot.values()]) link.refuse(LINK_CLOSE.stopping, 'the server is stopping', why);
  }
}

function seatKey(matchId: string, slot: number): string {
  return `${matchId}:${slot}`;
}

/** What is wrong with a client's message, or null when it is an answer or a fault of the protocol. */
function shapeError(m: unknown): string | null {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return 'a message must be a JSON object';
  const o = m as Record<string, unknown>;
  if (o.type !== 'answer' && o.type !== 'fault') return `"type" must be "answer" or "fault" (the client answers the server's "ask" messages)`;
  if (typeof o.match !== 'string' || o.match.length > 100) return '"match" must be the match id of the ask (a string)';
  if (!Number.isSafeInteger(o.slot)) return '"slot" must be the seat number of the ask';
  if (!Number.isSafeInteger(o.n)) return '"n" must be the number of the ask';
  if (o.type === 'answer' && typeof o.text !== 'string') return 'an answer\'s "text" must be a string: the bot\'s answer, as its own transport gave it';
  if (o.type === 'fault' && o.detail !== undefined && typeof o.detail !== 'string') return 'a fault\'s "detail" must be a string';
  return null;
}

function preview(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}
