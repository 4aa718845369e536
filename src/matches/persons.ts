import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SeatConnection } from '../arena/seat.js';
import { BrowserTransport, PersonDesk, type PersonLimits, type SeatContext } from '../bots/index.js';
import { forbidden, notFound, unauthorized } from '../core/request-errors.js';

/** A person seat of a match: its desk, and the hash of its token (the token itself is shown once). */
interface PersonSeat {
  desk: PersonDesk;
  tokenHash: Buffer;
}

const tokenDigest = (token: string) => createHash('sha256').update(token).digest();

/**
 * The person seats of the matches queued or playing in this process, by match id then slot: the desk a
 * person's page talks to (the HTTP routes), opened as the seat's transport when the match plays (in this
 * process: a desk cannot move to another thread or machine). Each seat has a token, shown once.
 */
export class PersonSeats {
  private readonly byMatch = new Map<string, Map<number, PersonSeat>>();

  constructor(private readonly limits?: PersonLimits) {}

  /** Opens the desks of a match's person slots; returns each slot's token. */
  open(matchId: string, slots: number[]): { slot: number; token: string }[] {
    const persons = slots.map((slot) => ({ slot, token: `person_${randomBytes(32).toString('base64url')}` }));
    if (persons.length) this.byMatch.set(matchId, new Map(persons.map(({ slot, token }) => [slot, { desk: new PersonDesk({ matchId, slot }, false), tokenHash: tokenDigest(token) }])));
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
   * none (or the match is over), 401 without a token, 403 with another one.
   */
  desk(matchId: string, slot: number, token: string | undefined): PersonDesk {
    const seat = this.byMatch.get(matchId)?.get(slot);
    if (!seat) throw notFound(`match ${matchId} has no person in seat ${slot} being played now (it may be over: see /api/matches/${matchId})`);
    if (!token) throw unauthorized('this needs the seat\'s person token (from the match\'s "persons"): "Authorization: Bearer TOKEN" or ?token=TOKEN');
    if (!timingSafeEqual(tokenDigest(token), seat.tokenHash)) throw forbidden(`the token is not the person token of seat ${slot} of match ${matchId}`);
    return seat.desk;
  }

  /** The seat of a person of this match, opened from its desk (undefined for a bot's seat). */
  connection(matchId: string, slot: number): SeatConnection | undefined {
    const seat = this.byMatch.get(matchId)?.get(slot);
    if (!seat) return undefined;
    const limits = this.limits;
    // The runner hands an in-process seat its whole SeatContext (the game, the config) beside the byte limits.
    return { open: (ctx) => new BrowserTransport(ctx as SeatContext, seat.desk, limits) };
  }

  /** Tells the people of a match it is over (once), and forgets their seats. */
  end(matchId: string, info: { reason: string; result?: unknown }): void {
    for (const seat of this.byMatch.get(matchId)?.values() ?? []) seat.desk.end(info);
    this.byMatch.delete(matchId);
  }
}
