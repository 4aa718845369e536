import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The most viewer tokens kept; the oldest are forgotten first (a test page reads its logs soon after). */
const MAX_VIEWERS = 10_000;

const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * The viewer tokens of test matches, by match id: shown once to who started the match, kept hashed and in memory
 * only (a restart forgets them: the owners' tokens and the admin's still read the logs).
 */
export class ViewerTokens {
  private readonly hashes = new Map<string, Buffer>();

  /** A new token for a test match. */
  issue(matchId: string): string {
    const token = `viewer_${randomBytes(24).toString('base64url')}`;
    this.hashes.set(matchId, digest(token));
    if (this.hashes.size > MAX_VIEWERS) this.hashes.delete(this.hashes.keys().next().value!);
    return token;
  }

  /** Whether `token` is the viewer token of this match. */
  check(matchId: string, token: string | undefined): boolean {
    const kept = this.hashes.get(matchId);
    return !!kept && !!token && timingSafeEqual(kept, digest(token));
  }
}
