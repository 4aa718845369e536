import type { JobSeat } from '../arena/match-job.js';
import { randomSeed } from '../arena/match-job.js';
import { MatchCancelledError, runMatch, seatNames as displayNames, type MatchReport } from '../arena/run-match.js';
import type { SeatConnection } from '../arena/seat.js';
import { acceptJoins, capabilitiesOf, checkSandbox, parseBotSpec, type BotSpec } from '../bots/index.js';
import { MatchEngine } from '../core/engine.js';
import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';
import { ReplayFollower, resultLine, type Replay } from '../core/replay.js';
import type { LiveEvent } from '../live/events.js';
import { LocalLiveEvents } from '../live/local.js';
import { matchHeader, matchSummary, transcriptLine } from './format.js';
import { readConfigFiles } from './options.js';
import { checkReplayPath, writeReplay } from './replay-file.js';
import { sandboxFrom, type SandboxFlags } from './sandbox-flags.js';
import { timeRulesOf, type TimeRuleFlags } from './time-rule-flags.js';

// What `play` and `replay fork` do once their options are read: loaded only when one of them runs, so that
// `botarena games` and the help start without the transports, the runner and the files' code.

/** The options every command that runs a match takes (`play`, `replay fork`). */
export interface PlayOptions extends SandboxFlags, TimeRuleFlags {
  seed?: number;
  set?: Record<string, string>;
  timeout?: number;
  initTimeout?: number;
  name?: Record<string, string>;
  replay?: string;
  log?: boolean;
  watch?: boolean;
  delay?: number;
  json?: boolean;
  port?: number;
  /** --bot-env: the variables passed to the bots' environment, besides the allow-list */
  botEnv?: Record<string, string>;
  /** --pause-between-turns: stdio bots stopped between their answer and their next message */
  pauseBetweenTurns?: boolean;
}

/**
 * Runs one match from the command line and prints it (a summary, `--watch` frames, or the `--json` result;
 * `--log` prints every message on stderr as it happens); `start` adds config under the user's `--set` (a fork's position) and marks the
 * replay as forked.
 */
export async function playMatch(
  game: AnyGame,
  bots: string[],
  o: PlayOptions,
  start: { config?: Record<string, unknown>; forkedFrom?: Replay['forkedFrom'] } = {},
): Promise<void> {
  const names = seatNames(o.name ?? {}, bots.length);
  const out = o.json ? process.stderr : process.stdout;
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint); // kept until the match ends, so the process-group guard leaves the shutdown to us
  // --watch follows the match as any viewer would: from its live events, rebuilding each frame by the rules.
  const live = new LocalLiveEvents();
  let follower: ReplayFollower | null = null;
  let watched: Promise<void> = Promise.resolve();
  // --delay paces the boards: each is printed at least that long after the one before (frames wait in line).
  let paced: Promise<void> = Promise.resolve();
  const show = (text: string) => {
    if (!o.delay) return void out.write(text);
    const wait = o.delay;
    paced = paced.then(() => {
      out.write(text);
      return new Promise((resolve) => setTimeout(resolve, wait));
    });
  };
  const watchNames: string[] = [];
  const watch = (e: LiveEvent) => {
    if (e.type === 'started' && 'config' in e.header) {
      follower = new ReplayFollower(game, e.header);
      e.header.seats.forEach((s) => (watchNames[s.slot] = s.name));
      out.write(`${game.id} · seed ${e.header.seed} · ${e.header.seats.map((s) => `${s.name} (${s.bot})`).join(' vs ')}\n`);
    }
    if (e.type === 'step' && follower && 'hash' in e.record) {
      follower.step(e.record);
      const moves = e.record.moves.map(
        (m) => `${watchNames[m.slot] ?? `slot ${m.slot}`}: ${m.fault ? `${m.fault.kind} (${m.fault.detail})` : JSON.stringify(m.action)}`,
      );
      show(`\n── turn ${e.record.turn} (${e.record.phase}) ${moves.join('; ')}\n${game.presentation.render(follower.engine.state)}\n`);
    }
  };
  const seed = o.seed ?? randomSeed();
  const matchId = String(seed);
  if (o.watch) {
    watched = new Promise((resolve) =>
      live.subscribe(matchId, 'full', (e) => {
        watch(e);
        if (e.type === 'ended' || e.type === 'stopped') resolve();
      }),
    );
  }
  if (o.delay !== undefined && !o.watch) throw new UsageError('--delay paces the boards of --watch: give --watch too');
  if (o.replay) checkReplayPath(o.replay);
  const sandbox = sandboxFrom(o, !!o.sandbox);
  if (sandbox) {
    // Where the machine gives no cgroup, the limits that fall back to per-process ones are said, never silently.
    const { fallback } = checkSandbox(sandbox);
    if (fallback) process.stderr.write(`botarena: warning: --sandbox: ${fallback}\n`);
  }
  let report: MatchReport;
  const specs = bots.map((bot) => parseBotSpec(bot, game)); // a typo is reported before anyone waits for bots to join
  const config = { ...(start.config ?? {}), ...readConfigFiles(game, o.set ?? {}) };
  // So is a bad config; and what the game warns about it (a setting the map overrides) is said up front.
  for (const w of new MatchEngine(game, { config, seed, players: bots.length }).warnings) process.stderr.write(`botarena: warning: ${w}\n`);
  const seats: JobSeat[] = bots.map((bot, i) => (names[i] === undefined ? { bot } : { bot, name: names[i] }));
  const connections: (SeatConnection | undefined)[] = [];
  // --log prints every message as it happens, on stderr: a bot that hangs shows its last lines at once.
  const followLog = () => {
    const labels = displayNames(seats, specs);
    const width = Math.max(...labels.map((l, slot) => `${l} (${slot})`.length));
    labels.forEach((label, slot) => {
      const who = `${label} (${slot})`.padEnd(width);
      live.subscribe(matchId, { seat: slot }, (e) => {
        if (e.type === 'message') process.stderr.write(`${who} ${transcriptLine(e.entry, width + 1)}\n`);
      });
    });
  };
  try {
    // Seats of bots that connect in (tcp): wait for them to join, then seat them in join order.
    const waiting = specs.flatMap((spec, i) => (capabilitiesOf(spec).connectIn ? [i] : []));
    if (waiting.length) {
      if (!game.wire.lobby) throw new UsageError(`${game.id} bots cannot connect in: the game has no lobby (use stdio:, http: or a built-in bot)`);
      const log = (l: string) => process.stderr.write(`${l}\n`);
      const joined = await acceptJoins(
        { port: o.port ?? 3002, host: '127.0.0.1', lobby: game.wire.lobby, count: waiting.length, waitMs: o.initTimeout, log },
        controller.signal,
      ).catch((err: unknown) => {
        throw controller.signal.aborted ? new MatchCancelledError((err as Error).message) : err;
      });
      waiting.forEach((slot, k) => {
        seats[slot] = { bot: seats[slot]!.bot, name: names[slot] ?? joined[k]!.name };
        connections[slot] = joined[k]!.connection;
      });
    }
    if (o.log) followLog();
    report = await runMatch(
      {
        game: game.id,
        seats,
        matchId,
        config,
        seed,
        timeouts: { initMs: o.initTimeout, turnMs: o.timeout, ...timeRulesOf(o) },
        transcripts: !!o.log,
        forkedFrom: start.forkedFrom,
      },
      { game, connections, signal: controller.signal, live, sandbox, botEnv: { pass: o.botEnv, home: 'user' }, pauseBetweenTurns: o.pauseBetweenTurns },
    );
    await watched;
    await paced;
    // The live events are delivered on later ticks: a match of built-in bots can end before any was.
    if (o.log) await live.drained();
  } catch (err) {
    if (err instanceof MatchCancelledError) {
      process.stderr.write(`${err.message}; every bot was stopped\n`);
      process.exitCode = 130;
      // The turns played are kept: a replay marked stopped, which `replay show` reads.
      if (o.replay && err.replay) writeStopped(o.replay, err.replay);
      return;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    await live.close();
  }
  const { replay, timing, state } = report;
  // Checked before the match; should writing fail anyway (a full disk), the result is still printed.
  let unwritten: string | null = null;
  if (o.replay) {
    try {
      writeReplay(o.replay, replay);
    } catch (err) {
      unwritten = `botarena: the replay could not be written to ${o.replay}: ${(err as Error).message}; the result above is all that is left of the match\n`;
      process.exitCode = 73;
    }
  }
  if (o.json) process.stdout.write(JSON.stringify(jsonResult(replay)) + '\n');
  else {
    out.write(`${matchHeader(replay)}\n\n${game.presentation.render(state)}\n\n${matchSummary(game, replay, timing, state)}\n`);
    if (o.replay && !unwritten) out.write(`\nreplay written to ${o.replay}\n`);
  }
  for (const hint of firstTimeoutHints(game, replay, bots, specs)) process.stderr.write(`${hint}\n`);
  if (unwritten) process.stderr.write(unwritten);
  // The rules ended the match as an error (paint: a player failed the ready handshake): no game was played.
  if (replay.result.error) {
    process.stderr.write(`botarena: the match ended as an error: ${replay.result.error}\n`);
    process.exitCode ||= 1;
  }
}

/**
 * A hint for each seat whose very first answer timed out: the match says only "timeout", where the usual
 * cause (a bot that does not flush its answers) is what `doctor` finds and names. A hello whose faults the
 * rules ignore (`init.faultsIgnored`) cost nothing: the first answer that counts is then its first turn's.
 */
function firstTimeoutHints(game: AnyGame, replay: Replay, bots: string[], specs: BotSpec[]): string[] {
  const skipHello = game.rules.init?.faultsIgnored === true;
  return replay.seats.flatMap((seat, slot) => {
    const step = replay.turns.find((t) => !(skipHello && t.phase === 'init') && t.moves.some((m) => m.slot === slot));
    if (step?.moves.find((m) => m.slot === slot)!.fault?.kind !== 'timeout' || capabilitiesOf(specs[slot]!).values) return [];
    const why = specs[slot]!.transport === 'stdio' ? 'if it answers only when its input closes, it does not flush stdout; ' : '';
    const bot = /^[\w:./@+=-]+$/.test(bots[slot]!) ? bots[slot]! : `'${bots[slot]!.replace(/'/g, "'\\''")}'`;
    const which = step.phase === 'init' ? 'the hello' : `turn ${step.turn}`;
    return [`botarena: hint: ${seat.name} (slot ${slot}): its first answer (${which}) timed out: ${why}\`botarena doctor ${game.id} ${bot}\` checks why`];
  });
}

/** Writes a stopped match's replay, saying so (or why it could not be written) on stderr. */
function writeStopped(file: string, replay: Replay): void {
  try {
    writeReplay(file, replay);
    process.stderr.write(`the ${replay.turns.length} steps played are in ${file} (a replay marked stopped)\n`);
  } catch (err) {
    process.stderr.write(`botarena: the replay of the stopped match could not be written to ${file}: ${(err as Error).message}\n`);
  }
}

/** The `--json` result of a match (the same line a tournament's results file holds, less its place in it). */
export const jsonResult = resultLine;

function seatNames(given: Record<string, string>, seats: number): (string | undefined)[] {
  const names: (string | undefined)[] = Array.from({ length: seats }, () => undefined);
  for (const [slot, name] of Object.entries(given)) {
    const i = Number(slot);
    if (!/^\d+$/.test(slot) || i >= seats) throw new UsageError(`--name ${slot}=${name}: the slot must be 0..${seats - 1}`);
    if (!name.trim()) throw new UsageError(`--name ${slot}=: the name is empty`);
    names[i] = name;
  }
  return names;
}
