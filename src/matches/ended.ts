import { gunzipSync } from 'node:zlib';
import type { Replay } from '../core/replay.js';
import type { LiveEvent } from '../live/events.js';
import type { Store } from '../store/index.js';

/**
 * Matches' ends as the store has them, for live viewers whose events lost one (published while the live events'
 * link was down: a Redis restart) and who would otherwise wait for an end that never comes. Each viewer asks
 * every few seconds (`followMatch`'s `overInStore`); one store read per match and second answers them all.
 */
export class EndsInStore {
  private readonly asked = new Map<string, { at: number; answer: Promise<LiveEvent | null> }>();

  constructor(private readonly store: Store) {}

  /** The `ended` (with the replay's result) or `stopped` event of match `matchId` if the store has it over; else null. */
  of(matchId: string): Promise<LiveEvent | null> {
    const now = Date.now();
    const kept = this.asked.get(matchId);
    if (kept && now - kept.at < 1000) return kept.answer;
    const answer = this.read(matchId);
    this.asked.set(matchId, { at: now, answer });
    for (const [id, e] of this.asked) if (now - e.at > 10_000) this.asked.delete(id);
    return answer;
  }

  private async read(matchId: string): Promise<LiveEvent | null> {
    const m = await this.store.getMatch(matchId);
    if (!m) return null;
    if (m.status === 'aborted') return { type: 'stopped', matchId, reason: m.abortReason ?? 'aborted' };
    if (m.status !== 'finished') return null;
    const gz = await this.store.getReplay(matchId);
    if (!gz) return null;
    const { result, durationMs, turns } = JSON.parse(gunzipSync(gz).toString('utf8')) as Replay;
    return { type: 'ended', matchId, reason: result.reason, result, durationMs: durationMs ?? 0, steps: turns.length };
  }
}
