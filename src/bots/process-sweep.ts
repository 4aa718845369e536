// The sweep of a bot's processes that left its group: each bot's processes carry a mark in their environment,
// and once a bot exits, /proc is searched for its mark and whatever still carries it is killed (again a few
// times: a process caught in an exec may not show it at once). Bots that exit together share one pass.
import { threadId } from 'node:worker_threads';
import { pidsByEnv } from './proc.js';

/** How long the pipes of a process that exited may take to close by themselves before they are dropped. */
export const DRAIN_MS = 150;

/** The environment variable that marks a bot's processes. */
export const MARK_VAR = 'BOTARENA_BOT';
/** This thread's marks: the arena's pid and the thread, then the bot's number (`4242.0.7`). */
const MARK_PREFIX = `${process.pid}.${threadId}.`;
let marks = 0;

/** A new mark for a bot's processes (this thread's next). */
export function newMark(): string {
  return `${MARK_PREFIX}${++marks}`;
}

/** Whether any bot of this thread was marked (so that the final sweep has something to look for). */
export function anyMarked(): boolean {
  return marks > 0;
}

/**
 * A bot that exited is looked for at the end of the event loop's turn that saw its exit: the marks of the bots
 * whose exit was seen since the last look, with who is told which processes carried each (each sent SIGKILL).
 * Bots whose exits are seen together (a match's end) share one pass over /proc.
 */
const looking = new Map<string, (pids: number[]) => void>();
let lookSoon = false;
/** Marks to look for once more: when they were last looked for, and how many looks are left. */
const again = new Map<string, { last: number; left: number }>();
let againTimer: NodeJS.Timeout | undefined;
/**
 * A mark is looked for again AGAIN_MS after it was looked for (a process caught in an exec may not have shown it
 * the first time), or with an earlier look once AGAIN_MIN_MS have passed, so the bots of one match share it;
 * and again while its processes are still found (one may have forked while the pass went on), MAX_LOOKS in all.
 */
const AGAIN_MS = DRAIN_MS;
const AGAIN_MIN_MS = DRAIN_MS / 2;
const MAX_LOOKS = 5;

/** Asks for the processes carrying `mark` (a bot that exited) to be looked for and killed; resolves with them. */
export function lookFor(mark: string): Promise<number[]> {
  return new Promise((resolve) => {
    looking.set(mark, resolve);
    if (lookSoon) return;
    lookSoon = true;
    setImmediate(() => sweep());
  });
}

/**
 * One pass over /proc for the marks being looked for and those due another look: kills the processes that carry
 * them (the bots' descendants, even those that left the group or were orphaned, unless they cleared their
 * environment), and plans the next look. When the arena exits (`final`), every process carrying any of this
 * thread's marks is killed, those of bots still running too.
 */
export function sweep(final = false): void {
  lookSoon = false;
  const now = performance.now();
  const due = [...again].filter(([, a]) => now - a.last >= AGAIN_MIN_MS).map(([mark]) => mark);
  if (looking.size || due.length || final) {
    let found = new Map<string, number[]>();
    try {
      found = pidsByEnv(MARK_VAR, MARK_PREFIX);
    } catch {
      // a pass that fails finds nothing: the seats waiting for it must not wait for ever
    }
    if (final) for (const pids of found.values()) signalPids(pids, 'SIGKILL');
    for (const mark of due) {
      const pids = found.get(mark) ?? [];
      signalPids(pids, 'SIGKILL');
      const left = again.get(mark)!.left - 1;
      if (pids.length && left > 0) again.set(mark, { last: now, left });
      else again.delete(mark);
    }
    const told = [...looking];
    looking.clear();
    for (const [mark, tell] of told) {
      const pids = found.get(mark) ?? [];
      signalPids(pids, 'SIGKILL');
      again.set(mark, { last: now, left: MAX_LOOKS - 1 });
      tell(pids);
    }
  }
  clearTimeout(againTimer);
  againTimer = undefined;
  if (again.size && !final) {
    const first = Math.min(...[...again.values()].map((a) => a.last));
    againTimer = setTimeout(() => sweep(), Math.max(0, first + AGAIN_MS - performance.now()));
    againTimer.unref();
  }
}

export function signalPids(pids: readonly number[], sig: NodeJS.Signals): void {
  for (const p of pids) {
    try {
      process.kill(p, sig);
    } catch {
      // already gone
    }
  }
}
