// The doctor: one check-up that feeds a canned match to a bot and turns what it did into checks with advice.
// This file feeds the match and judges the answers (fault, speed and latency checks); what the checks share is
// doctor-report.ts, the output and exit checks doctor-lines.ts, the HTTP checks doctor-http.ts.
import {
  capabilitiesOf,
  parseBotSpec,
  PUBLIC_ONLY,
  type AddressPolicy,
  type BotEnvOptions,
  type BotSpec,
  type SandboxOptions,
  type UploadRunOptions,
} from '../bots/index.js';
import { MatchEngine } from '../core/engine.js';
import type { AnyGame, Fault } from '../core/game.js';
import type { Replay, TranscriptEntry } from '../core/replay.js';
import { httpChecks } from './doctor-http.js';
import { execExitCheck, exitCheck, FLUSH, LATE_LINE, lineChecks, unflushed } from './doctor-lines.js';
import { clip, fmt, isProse, quoted, type Asked, type DoctorCheck, type DoctorReport, type Kind, type Run } from './doctor-report.js';
import { feedSeat, type FedAnswer } from './refeed.js';
import { runMatch } from './run-match.js';
import { deadlineFor, dialectFor, OpenSeat, round, seatContext, type SeatConnection } from './seat.js';

/**
 * `botarena doctor`: a bot is fed a canned match of its game (built-in bots playing one another, the same
 * every time) from one seat and then from another, message by message, as `replay refeed` does: each answer
 * is read and judged by the rules in that exact position, while the recorded moves carry the match on, so a
 * bot that loses or errs early still sees every message type to the end. From what it answered, how fast,
 * and what it wrote besides, each check below passes or fails with what to change.
 */

export type { DoctorCheck, DoctorReport } from './doctor-report.js';

export interface DoctorOptions {
  /** deadlines instead of the game's (a hello's, a turn's) */
  initMs?: number;
  turnMs?: number;
  /** another canned match (its seed; the same built-in bots) */
  seed?: number;
  /** for bots that connect in (smart-dog's tcp): waits for the bot to connect and join; it is fed once */
  connect?: () => Promise<SeatConnection>;
  /** which addresses an HTTP bot may be called at (an arena open to anyone's URLs: 'public-only'); default 'any' */
  addressPolicy?: AddressPolicy;
  /** what the bot program's environment holds besides the allow-list, and its HOME (see `BotEnvOptions`) */
  botEnv?: BotEnvOptions;
  /** how the bot program is confined (see `SandboxOptions`); none: unconfined */
  sandbox?: SandboxOptions;
  /** where uploaded code is and how it runs here (an upload: bot, always sandboxed) */
  uploads?: UploadRunOptions;
  /** every line of every feed as it happens, labelled with the seat fed */
  log?: (seat: number, entry: TranscriptEntry) => void;
}
/** Faults after which a feed stops: the bot is not answering any more, and each later message would wait out its deadline. */
const STOPPING: Fault['kind'][] = ['timeout', 'crash', 'transport', 'too-large'];
/**
 * After a timeout, a late answer is awaited with the bot's input still open, for the deadline once more,
 * 2 s at least and 10 s at most, and no longer than it takes to come: an answer that comes late is a slow
 * bot, one that comes only when its input closes does not flush, and one that never comes is stuck.
 */
const LATE_WAIT_MS = { min: 2000, max: 10_000 };
/** A feed stops after this many faults of any kind: the first ones say what is wrong. */
const MAX_FAULTS = 3;

/** The canned match of a game: the game's choice, or its first built-in bot against its last. */
export function cannedMatch(game: AnyGame, seed?: number): { bots: string[]; seed: number; config: Record<string, unknown> } {
  const names = Object.keys(game.bots);
  const hint = game.tooling?.doctor;
  const bots = hint?.bots ?? [names[0]!, names[names.length - 1]!];
  return { bots, seed: seed ?? hint?.seed ?? 1, config: hint?.config ?? {} };
}

/** Runs the check-up of `bot` (a bot spec) at `game`. */
export async function doctor(game: AnyGame, bot: string, opts: DoctorOptions = {}): Promise<DoctorReport> {
  const spec = parseBotSpec(bot, game);
  const caps = capabilitiesOf(spec);
  const canned = cannedMatch(game, opts.seed);
  const { replay } = await runMatch(
    { game: game.id, seats: canned.bots.map((b) => ({ bot: b })), seed: canned.seed, config: canned.config, matchId: `doctor-${canned.seed}` },
    { game },
  );
  replay.timeouts = {
    initMs: opts.initMs ?? replay.timeouts.initMs,
    turnMs: opts.turnMs ?? replay.timeouts.turnMs,
    turnSet: opts.turnMs !== undefined || replay.timeouts.turnSet,
  };
  // A bot that connects in joins once; the others are fed as the first seat, then as the second.
  const seats = caps.connectIn ? [0] : [0, 1];
  const runs: Run[] = [];
  for (const seat of seats) {
    const run = await feed(game, replay, seat, spec, opts);
    runs.push(run);
    // A bot that fails its very first message is not fed again: that is the thing to fix first. A hello's
    // fault that the rules ignore does not count: its first turn is then its first message that counts.
    const counted = run.asked.find((a) => !a.ignored);
    if (!counted || counted.fault) break;
  }
  const checks: DoctorCheck[] = [];
  const all = runs.flatMap((r) => r.asked);
  const firstPhase = replay.turns[0]?.phase ?? 'play';
  const deadline = (phase: 'init' | 'play') => deadlineFor({ phase, deadlineMs: undefined }, replay.timeouts);
  const first = all[0];

  // 1. It starts and answers its first message in time.
  let coldStartMs: number | null = null;
  if (!first) checks.push({ name: 'starts', status: 'fail', detail: 'it was asked nothing: the canned match has no message for its seat' });
  else if (first.fault) checks.push(faultCheck('starts and answers its first message', first, runs[0]!, game, spec));
  else {
    coldStartMs = first.ms;
    const limit = deadline(firstPhase);
    const slow = first.ms > limit / 2;
    checks.push({
      name: 'starts and answers its first message',
      status: slow ? 'warn' : 'pass',
      detail: `${fmt(first.ms)} from start to its first answer (the deadline is ${limit} ms)`,
      fix: slow
        ? 'it answers its first message in over half its deadline: on a busy arena it will time out; load less before the first answer (a lazy import, a smaller table)'
        : undefined,
    });
  }

  // 2. Every message type gets a readable, legal answer.
  for (const kind of ['hello', 'first turn', 'turns', 'late game'] as Kind[]) {
    // A first message that failed is reported once, above.
    const ofKind = all.filter((a) => a.kind === kind && !(a === first && first.fault));
    if (!ofKind.length) continue;
    const name = `answers ${kind === 'hello' ? 'the hello (init) message' : kind === 'turns' ? 'turns in mid-game' : kind === 'late game' ? 'turns late in the game' : 'its first turn'}`;
    // A fault the rules ignore is reported only where no real one is (a warning, not a failure).
    const bad = ofKind.find((a) => (a.fault && !a.ignored) || a.refused.length) ?? ofKind.find((a) => a.fault);
    if (!bad) checks.push({ name, status: 'pass', detail: `${ofKind.length} answered, all read and legal` });
    else if (bad.fault)
      checks.push(
        faultCheck(
          name,
          bad,
          runs.find((r) => r.seat === bad.seat)!,
          game,
          spec,
        ),
      );
    else {
      checks.push({
        name,
        status: 'fail',
        detail: `seat ${bad.seat}, turn ${bad.turn}: the game refused ${bad.refused.length} of its lines: ${bad.refused
          .slice(0, 3)
          .map((l) => JSON.stringify(l))
          .join(', ')}`,
        fix: `each line must be a command the game takes in that position: see docs/games/${game.id}.md`,
      });
    }
  }

  // 2b. Legal moves that lose at once where another would not (games that can tell for certain: Tron's walls).
  const moved = all.filter((a) => a.phase === 'play' && !a.fault);
  if (game.tooling?.losesAtOnce && moved.length) {
    const losing = moved.filter((a) => a.loses);
    const name = 'avoids moves that lose at once';
    if (!losing.length) checks.push({ name, status: 'pass', detail: `none of its ${moved.length} moves loses at once` });
    else {
      const [one] = losing;
      const sent = one!.sent ? `\nthe message was: ${clip(one!.sent, 300)}` : '';
      checks.push({
        name,
        status: 'warn',
        detail: `${losing.length} of its ${moved.length} moves lose at once where another would not; the first: seat ${one!.seat}, turn ${one!.turn}: ${one!.loses!.move}: ${one!.loses!.why}${sent}`,
        fix: `the move is legal, but in that position (the message shown above) it loses there and then: read the board before choosing (the rules are in docs/games/${game.id}.md)`,
      });
    }
  }

  // 3. Answers are flushed; 4. stdout holds answers only; 5. one line per message, none to notices.
  if (caps.dialects && spec.transport !== 'http') checks.push(...lineChecks(runs, game, spec));

  // 6. It exits by itself when the match is over (an exec bot, by itself after each answer).
  if (spec.transport === 'stdio') checks.push(exitCheck(runs, game));
  if (spec.transport === 'exec') checks.push(execExitCheck(runs));

  // 7. Answer times against the deadline.
  const answered = all.filter((a) => a.kind !== 'hello' && !a.fault);
  const sortedOf = (pick: (a: Asked) => number | undefined) =>
    answered
      .map(pick)
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const times = sortedOf((a) => a.ms);
  const turnDeadline = deadline('play');
  let latency: DoctorReport['latency'] = null;
  if (times.length) {
    latency = { answers: times.length, p50Ms: quantile(times, 0.5), p99Ms: quantile(times, 0.99), deadlineMs: turnDeadline };
    // Where the time went: a bot program's CPU time, an HTTP bot's connecting and first byte.
    const cpu = sortedOf((a) => a.cpuMs);
    if (cpu.length) latency.cpu = { p50Ms: round(quantile(cpu, 0.5)), p99Ms: round(quantile(cpu, 0.99)) };
    const firstByte = sortedOf((a) => a.firstByteMs);
    const connect = sortedOf((a) => a.connectMs);
    if (firstByte.length)
      latency.http = {
        connectMaxMs: round(connect.at(-1) ?? 0),
        firstByteP50Ms: round(quantile(firstByte, 0.5)),
        firstByteP99Ms: round(quantile(firstByte, 0.99)),
      };
    const slowMs = game.timeouts.slowMs;
    const tight = latency.p99Ms > turnDeadline / 2 || (slowMs !== undefined && latency.p99Ms > slowMs);
    const spent = latency.cpu
      ? `; CPU time p50 ${fmt(latency.cpu.p50Ms)}, p99 ${fmt(latency.cpu.p99Ms)}`
      : latency.http
        ? `; first byte p50 ${fmt(latency.http.firstByteP50Ms)}, p99 ${fmt(latency.http.firstByteP99Ms)}, connecting at most ${fmt(latency.http.connectMaxMs)}`
        : '';
    // Slow on the wall but not in CPU time: it waits (a sleep, a lock, a slow disk), it does not compute.
    const waits = tight && latency.cpu !== undefined && latency.cpu.p99Ms < latency.p99Ms / 4;
    checks.push({
      name: 'answer time',
      status: tight ? 'warn' : 'pass',
      detail: `p50 ${fmt(latency.p50Ms)}, p99 ${fmt(latency.p99Ms)} over ${times.length} answers${spent} (the deadline is ${turnDeadline} ms${slowMs !== undefined ? `; the game asks for ${slowMs} ms` : ''})`,
      fix: tight
        ? `its slowest answers use over ${slowMs !== undefined && latency.p99Ms > slowMs ? `the ${slowMs} ms the game asks for` : 'half the deadline'}: on a loaded arena they will time out; keep a margin (search with a time budget and answer when it runs out)${waits ? `; its CPU time is far less than its wall time: it waits for something (a sleep, a lock, its input, the disk) rather than computing` : ''}`
        : undefined,
    });
  }

  // 8. HTTP bots: status, content type, keep-alive.
  if (spec.transport === 'http' && first && first.fault?.kind !== 'transport')
    checks.push(...(await httpChecks(spec.url, dialectFor(game, spec), game, replay, opts.addressPolicy)));

  return {
    game: game.id,
    bot,
    ok: !checks.some((c) => c.status === 'fail'),
    canned: { bots: canned.bots, seed: canned.seed, steps: replay.turns.length, seats: runs.map((r) => r.seat) },
    checks,
    coldStartMs: coldStartMs === null ? null : round(coldStartMs),
    latency,
  };
}

/** Feeds the canned match to the bot in `seat`, recording each answer and every line of its log. */
async function feed(game: AnyGame, replay: Replay, seat: number, spec: BotSpec, opts: DoctorOptions): Promise<Run> {
  const t0 = performance.now();
  const log: TranscriptEntry[] = [];
  let onLate: (() => void) | null = null;
  const sink = (dir: TranscriptEntry['dir'], text: string) => {
    const entry = { dir, t: round(performance.now() - t0), text };
    log.push(entry);
    opts.log?.(seat, entry);
    if (dir === 'note' && LATE_LINE.test(text)) onLate?.();
  };
  const engine = new MatchEngine(game, { config: replay.config, seed: replay.seed, players: replay.seats.length });
  const ctx = seatContext(
    game,
    { slot: seat, players: replay.seats.length, config: engine.config, seed: replay.seed, name: `doctor (seat ${seat})`, log: sink },
    { addressPolicy: opts.addressPolicy, botEnv: opts.botEnv, sandbox: opts.sandbox, uploads: opts.uploads },
  );
  const connection = opts.connect ? await opts.connect() : undefined;
  const open = OpenSeat.open(game, spec, ctx, { connection, echo: true });
  const total = replay.turns.filter((t) => t.moves.some((m) => m.slot === seat)).length;
  const asked: Asked[] = [];
  let faults = 0;
  let playIndex = 0;
  let endedAt = 0;
  let lateWhileOpen = false;
  let lateWaitMs = 0;
  let lateAnswerMs: number | undefined;
  let closedAt = 0;
  const complete = await feedSeat(game, replay, seat, open, async (a: FedAnswer) => {
    const { decision, now } = a;
    const sent = [...log].reverse().find((e) => e.dir === 'send')?.text;
    let kind: Kind = 'turns';
    if (decision.phase === 'init') kind = 'hello';
    else if (playIndex++ === 0) kind = 'first turn';
    else if (asked.length >= total * 0.75) kind = 'late game';
    const refused = (a.replies ?? []).filter((r) => r.startsWith('error'));
    const why = !now.fault && decision.phase === 'play' && game.tooling?.losesAtOnce ? game.tooling.losesAtOnce(a.state, seat, now.action) : null;
    const loses = why ? { move: typeof now.action === 'string' ? now.action : JSON.stringify(now.action), why } : undefined;
    asked.push({
      seat,
      kind,
      turn: decision.turn,
      phase: decision.phase,
      fault: now.fault,
      ms: now.ms,
      cpuMs: now.cpuMs,
      connectMs: now.connectMs,
      firstByteMs: now.firstByteMs,
      sent,
      refused,
      loses,
    });
    endedAt = performance.now() - t0;
    if (now.fault && !(decision.phase === 'init' && game.rules.init?.faultsIgnored === true)) faults++;
    const ignored = !!now.fault && decision.phase === 'init' && game.rules.init?.faultsIgnored === true;
    if (ignored) asked[asked.length - 1]!.ignored = true;
    // A hello's fault that the rules ignore stops nothing: the match goes on, and so does the feed.
    const go = !(now.fault && !ignored && (STOPPING.includes(now.fault.kind) || faults >= MAX_FAULTS));
    if (now.fault?.kind === 'timeout' && spec.transport === 'stdio') {
      // A slow bot answers late with its input still open; a bot that does not flush only when it closes.
      const mark = log.length;
      const askedAt = performance.now() - now.ms;
      lateWaitMs = Math.min(LATE_WAIT_MS.max, Math.max(LATE_WAIT_MS.min, deadlineFor(decision, replay.timeouts)));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, lateWaitMs);
        onLate = () => (clearTimeout(timer), resolve());
      });
      onLate = null;
      lateWhileOpen = log.slice(mark).some((e) => e.dir === 'note' && LATE_LINE.test(e.text));
      if (lateWhileOpen) lateAnswerMs = performance.now() - askedAt;
      asked[asked.length - 1]!.late = { whileOpen: lateWhileOpen, waitMs: lateWaitMs, answerMs: lateWhileOpen ? lateAnswerMs : undefined };
    }
    if (!go) closedAt = log.length;
    return go;
  });
  return { seat, asked, log, complete, endedAt, lateWhileOpen, lateWaitMs, lateAnswerMs, closedAt };
}

/** A failed check from an answer's fault: what happened, where, and what to change. */
function faultCheck(name: string, a: Asked, run: Run, game: AnyGame, spec: BotSpec): DoctorCheck {
  const f = a.fault!;
  const where = `seat ${a.seat}, turn ${a.turn}${a.phase === 'init' ? ' (hello)' : ''}`;
  const atExit = unflushed(run);
  // A run may time out twice (an ignored hello's, then a turn's): each timeout's own wait says what happened.
  const late = a.late ?? { whileOpen: run.lateWhileOpen, waitMs: run.lateWaitMs, answerMs: run.lateAnswerMs };
  const docs = `docs/games/${game.id}.md`;
  let fix: string;
  switch (f.kind) {
    case 'timeout':
      fix = atExit
        ? `its answer came only when its input was closed: it does not flush its output. ${FLUSH}`
        : late.whileOpen
          ? `its answer came late, ${fmt(late.answerMs!)} after it was asked: it is slow, not stuck; answer sooner (${a === run.asked[0] ? 'load less before the first answer: a lazy import, a smaller table' : 'search with a time budget and answer when it runs out'})`
          : spec.transport === 'http'
            ? 'answer each POST within the deadline, with the move as the body'
            : spec.transport === 'exec'
              ? 'its process did not exit within the deadline (its answer is read when it exits): write the answer and exit sooner'
              : `${spec.transport === 'stdio' ? `no answer came at all, not in ${fmt(late.waitMs)} past the deadline with its input open${a.ignored ? '' : ', nor when its input was closed'}: it seems stuck, not slow (waiting for more input than one line? writing nothing?); ` : ''}read one line from stdin per message and write one line back to stdout, ending with a newline, then flush; run it by hand and paste the message shown above to see what it does`;
      break;
    case 'crash':
      fix = /could not start/.test(f.detail)
        ? `check the command runs from this folder: ${spec.raw.replace(/^\w+:/, '')}`
        : 'it exited: run it by hand, paste the message shown above on its input, and read the error';
      break;
    case 'transport':
      if (f.detail.includes(PUBLIC_ONLY))
        fix =
          'give the bot a URL on a public address: this arena does not call loopback, private, link-local or metadata addresses (unless its operator starts it with --allow-private-bots)';
      else if (/CERT|SSL|TLS|certificate/i.test(f.detail))
        fix =
          "serve a certificate the arena trusts for this host name (one from a public authority, e.g. Let's Encrypt; for a private one the operator starts Botarena with NODE_EXTRA_CA_CERTS=its-ca.pem), or use http://";
      else fix = spec.transport === 'http' ? 'start the bot first, and check the URL (host, port and path) it listens on' : 'check the bot can be reached';
      break;
    case 'too-large':
      fix = 'an answer is one short line: end it with a newline (a missing newline makes the whole output one line)';
      break;
    case 'not-json':
      fix = `answer with one JSON value on one line, as ${docs} shows${isProse(quoted(f.detail)) ? '; debug output goes to stderr (Python: print(..., file=sys.stderr); Node: console.error)' : ''}`;
      break;
    case 'illegal-move':
      fix = `the move breaks the rules in that position (the message shown above); the rules are in ${docs}`;
      break;
    default:
      fix = `the answer was read but is not what this message asks for: the answers are in ${docs}`;
  }
  const sent = a.sent ? `\nthe message was: ${clip(a.sent, 300)}` : '';
  if (a.ignored) {
    // The rules go on as if it had answered: worth fixing (other arenas may not forgive it), but it costs nothing here.
    const ignored = `; the rules of ${game.id} ignore a hello's answer and its faults, so the match goes on and its turns are judged`;
    return { name, status: 'warn', detail: `${where}: ${f.kind}: ${f.detail}${ignored}${sent}`, fix };
  }
  return { name, status: 'fail', detail: `${where}: ${f.kind}: ${f.detail}${sent}`, fix };
}
