import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MessagePort } from 'node:worker_threads';
import { DeskHost } from '../arena/desk-bridge.js';
import { forbidden, notFound, unauthorized } from '../core/request-errors.js';

/** A person seat of a match: its desk, and the hash of its token (the token itself is shown once). */
interface PersonSeat {
  desk: DeskHost;
  tokenHash: Buffer;
}

const tokenDigest = (token: string) => createHash('sha256').update(token).digest();

/**
 * How long the seats of a finished match are kept: a move or a page that comes just after the end (the person
 * pressed a key as the bot won) is told the match is over, by the desk, rather than that there is no such seat.
 */
const ENDED_KEEP_MS = 60_000;

/**
 * The person seats of the matches queued or playing in this process, by match id then slot: the desk a
 * person's page talks to (the HTTP routes), joined to the seat's transport in the match thread that plays
 * the match (arena/desk-bridge.ts; the desk stays in this process: the pages are connected to it). Each seat
 * has a token, shown once.
 */
export class PersonSeats {
  private readonly byMatch = new Map<string, Map<number, PersonSeat>>();
  /** the seats of the matches ended in the last ENDED_KEEP_MS, oldest first */
  private readonly ended = new Map<string, { at: number; seats: Map<number, PersonSeat> }>();

  /** Opens the desks of a match's person slots; returns each slot's token. */
  open(matchId: string, slots: number[]): { slot: number; token: string }[] {
    const persons = slots.map((slot) => ({ slot, token: `person_${randomBytes(32).toString('base64url')}` }));
    if (persons.length)
      this.byMatch.set(matchId, new Map(persons.map(({ slot, token }) => [slot, { desk: new DeskHost({ matchId, slot }), tokenHash: tokenDigest(token) }])));
    return persons;
  }

  /** Whether a match has person seats here. */
  has(matchId: string): boolean {
    return !!this.byMatch.get(matchId)?.size;
  }

  /** How many matches have person seats here. */
  get size(): number {
    return this.byMatch.size;
  }

  /**
   * The desk of a person seat of a match being played here, for the caller holding its token: 404 when there is
   * none, 401 without a token, 403 with another one. A match that ended a moment ago still has its seats' desks,
   * which say it is over (a move is refused with that, a page is sent `ended`).
   */
  desk(matchId: string, slot: number, token: string | undefined): DeskHost {
    this.forget();
    const seat = this.byMatch.get(matchId)?.get(slot) ?? this.ended.get(matchId)?.seats.get(slot);
    if (!seat) throw notFound(`match ${matchId} has no person in seat ${slot} being played now (it may be over: see /api/matches/${matchId})`);
    if (!token) throw unauthorized('this needs the seat\'s person token (from the match\'s "persons"): "Authorization: Bearer TOKEN" or ?token=TOKEN');
    if (!timingSafeEqual(tokenDigest(token), seat.tokenHash)) throw forbidden(`the token is not the person token of seat ${slot} of match ${matchId}`);
    return seat.desk;
  }

  /** The match thread's end of the channel to a person seat's desk (undefined for a bot's seat). */
  port(matchId: string, slot: number): MessagePort | undefined {
    return this.byMatch.get(matchId)?.get(slot)?.desk.attach();
  }

  /** Tells the people of a match it is over (once); their seats are forgotten ENDED_KEEP_MS later. */
  end(matchId: string, info: { reason: string; result?: unknown }): void {
    const seats = this.byMatch.get(matchId);
    for (const seat of seats?.values() ?? []) seat.desk.end(info);
    this.byMatch.delete(matchId);
    this.forget();
    if (seats) this.ended.set(matchId, { at: performance.now(), seats });
  }

  /** Drops the seats of the matches ended more than ENDED_KEEP_MS ago. */
  private forget(): void {
    const before = performance.now() - ENDED_KEEP_MS;
    for (const [matchId, { at }] of this.ended) {
      if (at > before) break;
      this.ended.delete(matchId);
    }
  }
}
