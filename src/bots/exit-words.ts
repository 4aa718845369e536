// How a bot process's end is told to people: its exit in words, whether it ever ran, and the line of its
// stderr that says why it stopped (process-group.ts runs the processes; the transports quote these).

/** How a bot process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Describes an exit for people: `exited with code 1` / `killed by signal SIGSEGV`. */
export function describeExit(e: ExitInfo): string {
  return e.signal ? `killed by signal ${e.signal}` : `exited with code ${e.code}`;
}

/**
 * Whether a crash's detail (a `deathNote`) says the program never ran: it could not be spawned, or the shell found
 * no such command (127) or could not execute it (126). Any other exit is the bot's own doing.
 */
export function neverStarted(detail: string): boolean {
  return /^could not start |^process exited with code 12[67]\b/.test(detail);
}

/** The line Node prints last, after its report of an uncaught exception: `Node.js v20.20.2`. */
const NODE_VERSION_LINE = /^Node\.js v\d/;
/** The line of `^` that Node's report puts under the source line where the value was thrown. */
const CARET_LINE = /^\^+$/;

/**
 * The line of a bot's stderr that says why it stopped, for error messages ('' when there is none).
 *
 * Mostly the last non-empty line: the exception that ends a Python traceback (`ValueError: bad`), the
 * message of `raise SystemExit("msg")`, a shell's `…: not found`. But Node ends its report of an uncaught
 * exception with its version (`Node.js v20.20.2`), so there it is the thrown value's first line instead
 * (`Error: boom`, or the string or object thrown). The report reads: where the value was thrown
 * (`file:line`), that source line, a line of `^` under it, the value (an Error as its `Name: message`
 * line and its stack), a blank line, the version. So the value is the first line after the first `^`
 * line; without one (Node had no source to show, as for an error thrown inside `JSON.parse`) it starts
 * the last paragraph. Only the end of stderr is kept: a report cut short may give a stack line.
 */
export function errorLine(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim());
  while (lines.at(-1) === '') lines.pop();
  const last = lines.pop() ?? '';
  if (!NODE_VERSION_LINE.test(last)) return last;
  // Node's report: the thrown value follows the `^` line, or else starts the last paragraph.
  while (lines.at(-1) === '') lines.pop();
  const caret = lines.findIndex((line) => CARET_LINE.test(line));
  const value = caret >= 0 ? lines.slice(caret + 1).find((line) => line !== '') : lines[lines.lastIndexOf('') + 1];
  return value ?? last;
}
