import type { AnyGame } from '../core/game.js';
import type { Replay, TranscriptEntry } from '../core/replay.js';
import type { SeatTiming } from '../arena/run-match.js';

export { PACKAGE_ROOT } from '../arena/package-root.js';

/** Left-aligned text table; the first row is the header. */
export function table(rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map(String));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A duration for people: µs under 1 ms, ms under 10 s, seconds above. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '-';
  if (ms < 1) return `${Math.round(ms * 1000)}µs`;
  if (ms < 10_000) return `${ms < 100 ? ms.toFixed(1) : Math.round(ms)}ms`;
  return `${(ms / 1000).toFixed(1)}s`;
}

/** The hint a bot's crash under --sandbox ends with (process-group.ts's deathNote), at the end of a detail. */
const SANDBOX_HINT = /; under --sandbox a bot sees only the system, the working folder \(.*?\) and the folders given with --sandbox-bind DIR$/;
/** The same hint inside a longer text (a reason quoting the fault's detail in parentheses). */
const SANDBOX_HINT_ANYWHERE = /; under --sandbox a bot sees only the system, the working folder \(.*?\) and the folders given with --sandbox-bind DIR/g;

/**
 * The readable end-of-match summary: who won and why, then one row per seat (with its label in the game:
 * a mark, a colour, paint's player id, from the final state) with timing and fault.
 */
export function matchSummary(game: AnyGame, replay: Replay, timing: SeatTiming[], state?: unknown): string {
  const r = replay.result;
  // The sandbox's hint (--sandbox-bind) is told once, in the fault: not again in the headline nor in the note.
  const hinted = r.faults.some((f) => f && SANDBOX_HINT.test(f.detail));
  const unhint = (text: string) => (hinted ? text.replace(SANDBOX_HINT_ANYWHERE, '') : text);
  const reason = unhint(r.reason);
  const headline = r.draw
    ? `Draw — ${reason.replace(/^draw: /, '')}`
    : `${r.winner !== null ? `Winner: ${replay.seats[r.winner]!.name} (slot ${r.winner})` : r.error ? 'Error' : 'Result'} — ${r.error ? reason.replace(/^error: /, '') : reason}`;
  // Notes: failures the rules ignore (a botsarena hello's), shown apart so they never read as what lost a game.
  const notes = r.notes?.some((n) => n !== null) ? r.notes : null;
  // The CPU time of bot programs' answers beside the wall time, when one was measured (stdio and exec bots).
  const cpu = timing.some((t) => t.medianCpuMs != null);
  const rows: (string | number)[][] = [
    [
      'slot',
      'name',
      'bot',
      'rank',
      ...(r.scores ? ['score'] : []),
      'answers',
      'median',
      'worst',
      ...(cpu ? ['cpu median', 'cpu worst'] : []),
      'fault',
      ...(notes ? ['note (ignored by the rules)'] : []),
    ],
  ];
  replay.seats.forEach((s, i) => {
    const f = r.faults[i];
    const n = notes?.[i];
    const label = game.presentation.seatLabel ? ` ${game.presentation.seatLabel(i, state)}` : '';
    rows.push([
      `${i}${label}`,
      s.name,
      s.bot,
      r.ranks[i]!,
      ...(r.scores ? [Math.round(r.scores[i]! * 100) / 100] : []), // shown to 2 decimals; --json keeps every digit
      timing[i]!.answers,
      formatMs(timing[i]!.medianMs),
      formatMs(timing[i]!.worstMs),
      ...(cpu ? [formatMs(timing[i]!.medianCpuMs ?? null), formatMs(timing[i]!.worstCpuMs ?? null)] : []),
      f ? `turn ${f.turn}: ${f.kind}: ${f.detail}${timing[i]!.faults > 1 ? ` (${timing[i]!.faults} turns faulted)` : ''}` : '-',
      ...(notes ? [n ? `turn ${n.turn}: ${n.kind}: ${unhint(n.detail)}` : '-'] : []),
    ]);
  });
  const clocks = clockLines(replay, timing);
  return `${headline}\n\n${table(rows)}${clocks.length ? `\n\n${clocks.join('\n')}` : ''}`;
}

/**
 * The match's time rules and what each seat used of them, one line each ("seat 1 (b) used 80 ms of its
 * 500 ms bank; 1 strike of 2"); nothing when the match had none.
 */
export function clockLines(replay: Replay, timing: SeatTiming[]): string[] {
  const t = replay.timeouts;
  const rules = [
    t.firstMs !== undefined ? `first answer ${t.firstMs} ms` : null,
    `turn ${t.turnMs} ms`,
    t.bankMs !== undefined ? `bank ${t.bankMs} ms a seat` : null,
    t.strikes !== undefined ? `${plural(t.strikes, 'strike')} a seat` : null,
  ].filter((x) => x !== null);
  if (t.firstMs === undefined && t.bankMs === undefined && t.strikes === undefined) return [];
  const lines = [`time rules: ${rules.join(', ')}`];
  replay.seats.forEach((s, i) => {
    const c = timing[i]?.clock;
    if (!c) return;
    const parts: string[] = [];
    if (c.bankMs !== undefined) parts.push(`used ${Math.round(c.bankMs - c.bankLeftMs!)} ms of its ${c.bankMs} ms bank`);
    if (c.strikesAllowed !== undefined) parts.push(`${plural(c.strikes, 'strike')} of ${c.strikesAllowed}`);
    if (parts.length) lines.push(`seat ${i} (${s.name}) ${parts.join('; ')}`);
  });
  return lines;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The match header line: game, seed, turns and duration. */
export function matchHeader(replay: Replay): string {
  const last = replay.turns.length ? replay.turns[replay.turns.length - 1]!.turn : 0;
  return `${replay.game} · seed ${replay.seed} · ${last} turns · ${formatMs(replay.durationMs ?? null)}`;
}

/** One bot's full log: every message sent and received, with its time since the match started. */
export function transcriptText(name: string, slot: number, entries: TranscriptEntry[]): string {
  return `── ${name} (slot ${slot}) ── ${entries.length} entries\n${entries.map((e) => `  ${transcriptLine(e)}`).join('\n')}`;
}

const ARROW = { send: '→', recv: '←', stderr: '!', note: '·' } as const;

/**
 * One log entry: its time since the match started, → sent to the bot, ← received, ! its stderr, · a note;
 * `indent` is what stands before it, so the lines of a multi-line stderr entry line up under the first.
 */
export function transcriptLine(e: TranscriptEntry, indent = 2): string {
  const text = e.dir === 'stderr' ? e.text.replace(/\n$/, '').replace(/\n/g, '\n' + ' '.repeat(indent + 11)) : e.text;
  return `${formatMs(e.t).padStart(8)} ${ARROW[e.dir]} ${text}`;
}
