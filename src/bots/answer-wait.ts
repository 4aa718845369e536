import type { Fault, Phase } from '../core/game.js';
import { forLog } from './line-reader.js';
import type { OutgoingMessage, Reply, ByteSeatContext } from './transport.js';

interface Pending {
  resolve: (r: Reply) => void;
  t0: number;
  phase: Phase;
  timer: NodeJS.Timeout;
  skip?: (line: string) => string | null;
  converse?: (line: string) => boolean;
}

/**
 * The answer a line transport (stdio, tcp) is waiting for, shared so every such transport pairs lines with
 * messages the same way: one line answers one message (or a stream step takes lines until the game says it
 * is over); lines a message says are stale are skipped; with strict pairing a line arriving after its
 * deadline pays for the message it missed (unless the game can tell by its shape that it answers a turn while
 * a hello's answer is owed: the bot skipped the hello); any other line that comes while nothing is asked goes to
 * `stray`. Every wait ends exactly once, by a line, its deadline, its cancellation or `settle`, and leaves
 * no timer or listener behind.
 */
export class AnswerWait {
  private pending: Pending | null = null;
  /** the phases of the messages whose deadline passed, oldest first: each owes a line (strict pairing only) */
  private readonly owed: Phase[] = [];
  /** whether the bot has sent a line yet (its first may be a greeting to ignore) */
  private heard = false;

  constructor(
    private readonly ctx: ByteSeatContext,
    private readonly stray: (line: string) => void = (line) => ctx.log('note', `dropped a line sent while no answer was expected: ${forLog(line, 200)}`),
  ) {}

  /** Waits for the answer to `msg` (already sent by the caller); `lateDetail` adds to a timeout's detail (the last stderr line). */
  wait(msg: OutgoingMessage, timeoutMs: number, signal?: AbortSignal, lateDetail: () => string = () => ''): Promise<Reply> {
    this.settle({ kind: 'transport', detail: 'a new message was sent before this one was answered' });
    return new Promise<Reply>((resolve) => {
      const onAbort = () => this.settle({ kind: 'transport', detail: 'cancelled' });
      const timer = setTimeout(() => this.expire(`no answer within ${timeoutMs} ms`, lateDetail()), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        t0: performance.now(),
        phase: msg.phase,
        timer,
        skip: msg.skip,
        converse: msg.converse,
      };
    });
  }

  /** A line from the bot: the answer, a line of a stream step, a skipped or owed line, or a stray one. */
  line(line: string): void {
    if (!this.heard) {
      this.heard = true;
      if (this.ctx.greeting?.(line)) {
        this.ctx.log('note', `ignored the first line ${JSON.stringify(forLog(line, 200))}: a join greeting, and this seat is already in its match`);
        return;
      }
    }
    if (this.owed.length > 0 && this.forgaveHellos(line)) {
      this.ctx.log('note', `no answer came to the hello: this line has a turn answer's shape, so it answers the turn: ${forLog(line, 200)}`);
    }
    if (this.owed.length > 0) {
      this.owed.shift();
      this.ctx.log('note', `dropped a late answer (its deadline had passed): ${forLog(line, 200)}`);
      return;
    }
    const p = this.pending;
    if (!p) return this.stray(line);
    const skipped = p.skip?.(line);
    if (skipped) {
      this.ctx.log('note', `skipped a line (${skipped}): ${forLog(line, 200)}`);
      return;
    }
    this.ctx.log('recv', forLog(line));
    // A stream step: every line is handed over as it comes; the step is answered when the game says so.
    if (p.converse && !p.converse(line)) return;
    this.end({ kind: 'text', text: p.converse ? '' : line, ms: performance.now() - p.t0 });
  }

  /**
   * Forgives the hellos owed when `line` has a turn answer's shape (a bot answers in order, so one that
   * answers a turn has skipped the hellos before it); whether it did. Only the game's `answerPhase` can
   * tell; without it every owed line is paid, whatever it holds.
   */
  private forgaveHellos(line: string): boolean {
    if (this.owed[0] !== 'init' || this.ctx.answerPhase?.(line) !== 'play') return false;
    while (this.owed[0] === 'init') this.owed.shift();
    return true;
  }

  /**
   * Ends the wait under way, if any, as timed out: `why` is noted in the log and is the fault's detail, with
   * `more` (the last stderr line). With strict pairing the message still owes its line.
   */
  expire(why: string, more = ''): void {
    const p = this.pending;
    if (!p) return;
    this.ctx.log('note', why);
    if (this.ctx.strictPairing) this.owed.push(p.phase);
    this.settle({ kind: 'timeout', detail: why + more });
  }

  /** Ends the wait under way, if any, with `fault` (the bot exited, disconnected, overflowed…). */
  settle(fault: Fault): void {
    const p = this.pending;
    if (p) this.end({ kind: 'fault', fault, ms: performance.now() - p.t0 });
  }

  private end(reply: Reply): void {
    const p = this.pending!;
    this.pending = null;
    clearTimeout(p.timer);
    p.resolve(reply);
  }
}
