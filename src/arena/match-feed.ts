import { recordedTiming, type TurnRecord } from '../core/engine.js';
import type { AnyGame } from '../core/game.js';
import type { ReplayHeader, ReplayResult, TranscriptEntry } from '../core/replay.js';
import type { LiveEvents } from '../live/events.js';

/**
 * What a running match publishes, to whom. `full`: the header and every step as recorded (enough to rebuild
 * every frame with `ReplayFollower`). `public`: the same for games without hidden information; for the
 * others, a header without config and seed, and each step's actions as the game's spectator rules show them,
 * with the public frame to draw (or, for a frame that grows with the match, the frame with the first step and
 * each later step's `delta`, which the viewer folds into it; no state fingerprint, and no fault details for hellos, which may quote a
 * secret). `{seat}`: that seat's raw messages, stderr and notes, for its bot's owner only. Publishing never
 * throws into the match.
 */
export class MatchFeed {
  private steps = 0;

  constructor(
    private readonly live: LiveEvents | undefined,
    private readonly game: AnyGame,
    private readonly header: ReplayHeader,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /**
   * The match starts from `state` (as set up, before any step): spectators of a game with hidden information get
   * its public frame with the header, so the board (lighthouses' island, smart-dog's land) is drawn at step 0,
   * not only from the first step on.
   */
  started(state: unknown): void {
    const { matchId } = this.header;
    if (!this.live) return;
    this.send('full', { type: 'started', matchId, header: this.header });
    const spectator = this.game.presentation.spectator;
    if (!spectator) return this.send('public', { type: 'started', matchId, header: this.header });
    const header = { game: this.header.game, matchId, seats: this.header.seats, timeouts: this.header.timeouts, hidden: true as const };
    this.send('public', { type: 'started', matchId, header, frame: spectator.frame(state) });
  }

  step(record: TurnRecord, state: unknown): void {
    const { matchId } = this.header;
    const index = this.steps++;
    // With nowhere to publish (a match played from the CLI, a tournament's), the public frame and moves are
    // not made: they were a tenth of the arena's work for a lighthouses command to a stdio bot.
    if (!this.live) return;
    this.send('full', { type: 'step', matchId, index, record });
    const spectator = this.game.presentation.spectator;
    if (!spectator) return this.send('public', { type: 'step', matchId, index, record });
    const moves = record.moves.map((m) => {
      const shown: TurnRecord['moves'][number] = { slot: m.slot };
      if (m.action !== undefined) {
        const action = record.phase === 'init' ? spectator.hello?.(m.action) : spectator.action(m.action);
        if (action !== undefined) shown.action = action;
      }
      if (m.fault) shown.fault = record.phase === 'init' ? { kind: m.fault.kind, detail: 'hidden until the match is over' } : m.fault;
      if (m.ms !== undefined) Object.assign(shown, recordedTiming(m));
      return shown;
    });
    const shown = { turn: record.turn, phase: record.phase, moves };
    // A frame that grows with the match (Battleship's shots) goes with the first step only, then what each step changed.
    if (spectator.delta && index > 0) this.send('public', { type: 'step', matchId, index, record: shown, delta: spectator.delta(state) });
    else this.send('public', { type: 'step', matchId, index, record: shown, frame: spectator.frame(state) });
  }

  message(slot: number, entry: TranscriptEntry): void {
    this.send({ seat: slot }, { type: 'message', matchId: this.header.matchId, slot, entry });
  }

  ended(result: ReplayResult, durationMs: number): void {
    // Its step count lets a viewer that lost steps just before the end be told so (live/follow.ts).
    const event = { type: 'ended' as const, matchId: this.header.matchId, reason: result.reason, result, durationMs, steps: this.steps };
    this.send('full', event);
    this.send('public', event);
  }

  stopped(reason: string): void {
    const event = { type: 'stopped' as const, matchId: this.header.matchId, reason };
    this.send('full', event);
    this.send('public', event);
  }

  private send(audience: Parameters<LiveEvents['publish']>[1], event: Parameters<LiveEvents['publish']>[2]): void {
    if (!this.live) return;
    try {
      this.live.publish(this.header.matchId, audience, event);
    } catch (err) {
      this.log(`live events: publishing "${event.type}" of match ${this.header.matchId} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
