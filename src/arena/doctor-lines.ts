// The doctor's checks of what a bot wrote besides its answers (stray lines, prose on stdout, unflushed output)
// and of how its process ends; they read the per-seat runs the feed recorded (doctor.ts).
import type { BotSpec } from '../bots/index.js';
import type { AnyGame } from '../core/game.js';
import type { TranscriptEntry } from '../core/replay.js';
import { clip, fmt, isProse, type DoctorCheck, type Run } from './doctor-report.js';
import { dialectFor } from './seat.js';

export const STDOUT = 'stdout holds answers only';
export const FLUSH =
  'Flush stdout after each answer (Python: print(answer, flush=True); C: fflush(stdout); C++: std::endl; Java: System.out.flush(); Node writes at once)';

/** Whether a feed's bot timed out and its answers came only at its exit, once its input was closed: it does not flush. */
export function unflushed(run: Run): boolean {
  const late = (e: TranscriptEntry) => e.dir === 'note' && LATE_LINE.test(e.text);
  return run.asked.some((a) => a.fault?.kind === 'timeout' && !a.ignored) && !run.lateWhileOpen && run.log.slice(run.closedAt).some(late);
}

/** Notes of lines that came when no answer was awaited (late, stray, or cut off at exit). */
export const LATE_LINE = /^(dropped a late answer|dropped a line sent while no answer was expected|unfinished line at exit)/;
export const STRAY_LINE = /^dropped a line sent while no answer was expected: (.*)$/s;

/** Checks of a line transport's output: flushing, debug text on stdout, one line per message. */
export function lineChecks(runs: Run[], game: AnyGame, spec: BotSpec): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const timedOut = runs.filter((r) => r.asked.some((a) => a.fault?.kind === 'timeout' && !a.ignored));
  const held = timedOut.find(unflushed);
  if (held) {
    checks.push({
      name: 'flushes each answer',
      status: 'fail',
      detail: `seat ${held.seat}: no answer came while it was awaited; when its input was closed, it wrote: ${held.log
        .slice(held.closedAt)
        .filter((e) => e.dir === 'note' && LATE_LINE.test(e.text))
        .slice(0, 2)
        .map((e) => clip(e.text, 120))
        .join('; ')}`,
      fix: FLUSH,
    });
  } else if (runs.some((r) => r.asked.some((a) => !a.fault)))
    checks.push({ name: 'flushes each answer', status: 'pass', detail: 'every answer arrived while it was awaited' });

  // Debug text: a line that is neither JSON nor an answer, where the game speaks JSON.
  if ((dialectFor(game, spec).contentType ?? '').includes('json')) {
    const lines = runs.flatMap((r) =>
      r.log
        .filter((e) => e.dir === 'recv' || (e.dir === 'note' && STRAY_LINE.test(e.text)))
        .map((e) => ({ seat: r.seat, text: e.dir === 'recv' ? e.text : STRAY_LINE.exec(e.text)![1]! })),
    );
    const junk = lines.find((l) => isProse(l.text));
    if (lines.length)
      checks.push(
        junk
          ? {
              name: STDOUT,
              status: 'fail',
              detail: `seat ${junk.seat} wrote ${JSON.stringify(clip(junk.text, 120))} on stdout, where only answers go`,
              fix: 'write debug output to stderr (Python: print(..., file=sys.stderr); Node: console.error): the arena keeps it in the log',
            }
          : { name: STDOUT, status: 'pass', detail: `${lines.length} lines, all answers` },
      );
  }

  // Lines nobody asked for (answers to notices, two answers to one message), when nothing timed out and no
  // debug text pushed the answers back.
  if (!timedOut.length && !checks.some((c) => c.name === STDOUT && c.status === 'fail')) {
    const strays = runs.flatMap((r) =>
      r.log.filter((e) => e.dir === 'note' && STRAY_LINE.test(e.text)).map((e) => ({ seat: r.seat, text: STRAY_LINE.exec(e.text)![1]! })),
    );
    const notices = [game.wire.ack ? 'results (notices)' : '', game.wire.farewell ? 'the end of the match' : ''].filter(Boolean).join(' and ');
    checks.push(
      strays.length
        ? {
            name: 'one answer per message',
            status: 'fail',
            detail: `${strays.length} lines came when no answer was awaited, the first ${JSON.stringify(clip(strays[0]!.text, 120))} (seat ${strays[0]!.seat})`,
            fix: `answer each message that asks with exactly one line${notices ? `; ${notices} need no answer` : ''}`,
          }
        : { name: 'one answer per message', status: 'pass', detail: notices ? `and nothing to ${notices}` : 'and nothing else' },
    );
  }
  return checks;
}

/** Whether a bot process, fed to the end of the match, exited by itself, and cleanly. */
export function exitCheck(runs: Run[], game: AnyGame): DoctorCheck {
  const name = 'exits when the match is over';
  const run = runs.find((r) => r.complete);
  if (!run) return { name, status: 'skip', detail: 'no feed reached the end of the match (see above)' };
  const note = run.log.find((e) => e.dir === 'note' && /^process (exited with code|killed by signal)/.test(e.text));
  const grace = game.timeouts.exitMs ?? 1000;
  if (!note) return { name, status: 'fail', detail: 'it was still running at the end', fix: 'exit when stdin reaches its end' };
  const code = /exited with code (\d+)/.exec(note.text)?.[1];
  const after = `${fmt(Math.max(0, note.t - run.endedAt))} after the last message`;
  if (code === '0') return { name, status: 'pass', detail: `exit code 0, ${after}` };
  if (code !== undefined) {
    return {
      name,
      status: 'fail',
      detail: `seat ${run.seat}: ${note.text} at the end of the match`,
      fix: `the end of its input (and ${game.wire.farewell ? 'the last message, ' : ''}end of file on stdin) must end it cleanly: stop reading and exit with code 0 (Python: the loop \`for line in sys.stdin\` ends by itself; Node: readline's 'close' event)`,
    };
  }
  return {
    name,
    status: 'fail',
    detail: `seat ${run.seat}: it was still running ${grace} ms after its input closed, and was stopped (${note.text})`,
    fix: `exit when stdin reaches its end (read returns nothing / end of file): a bot that waits for more is killed after ${grace} ms`,
  };
}

/**
 * An exec bot is one process per message: its answer is read when that process exits, so every answer proves
 * an exit, and an exit code other than 0 is already a crash of that answer. There is no process left at the
 * end of the match to wait for.
 */
export function execExitCheck(runs: Run[]): DoctorCheck {
  const name = 'exits when the match is over';
  if (!runs.some((r) => r.complete)) return { name, status: 'skip', detail: 'no feed reached the end of the match (see above)' };
  const answered = runs.flatMap((r) => r.asked).filter((a) => !a.fault).length;
  return { name, status: 'pass', detail: `one process per message: each of its ${answered} answers came when its process exited with code 0` };
}
