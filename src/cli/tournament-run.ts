// `tournament` and `ab` once their options are read (about 380 lines: the two commands share the pool, the
// progress bar and the options' checks; their reports, formatReport and abText, are what moves out first).
import { availableParallelism } from 'node:os';
import { existsSync, statSync } from 'node:fs';
import { randomSeed } from '../arena/match-job.js';
import { MatchCancelledError } from '../arena/run-match.js';
import { defaultBotName, parseBotSpec } from '../bots/index.js';
import { MatchEngine } from '../core/engine.js';
import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';
import { EloLadder, eloMargin, outcomeFromJsonResult, SkillLadder } from '../ratings/index.js';
import { COPY_RUN, playAb, type AbReport, type AbSpec } from '../tournament/ab.js';
import { MatchPool } from '../arena/match-pool.js';
import { checkTimeRules } from '../arena/time-rules.js';
import { copiesOf, errorsOf, headToHead, Tournament, TournamentStopped, type MatchLine, type TournamentSpec } from '../tournament/tournament.js';
import { table } from './format.js';
import { readConfigFiles } from './options.js';
import { timeRulesOf, type TimeRuleFlags } from './time-rule-flags.js';

// Loaded only when one of the two commands runs.

/** The options `tournament` and `ab` share. */
export interface ManyOptions extends TimeRuleFlags {
  seed?: number;
  set?: Record<string, string>;
  timeout?: number;
  initTimeout?: number;
  name?: Record<string, string>;
  concurrency?: number;
  json?: boolean;
  /** --bot-env: the variables passed to the bots' environment, besides the allow-list */
  botEnv?: Record<string, string>;
}

/** `botarena tournament`'s options. */
export interface TournamentOptions extends ManyOptions {
  out?: string;
  format: 'round-robin' | 'swiss' | 'gauntlet' | 'knockout';
  games?: number;
  rounds?: number;
}

/** `botarena ab`'s options. */
export interface AbOptions extends ManyOptions {
  opponents?: string[];
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  maxGames: number;
}

/** The bots' names: `--name i=NAME`, else the spec's default, made unique with the bot's index. */
export function botNames(game: AnyGame, bots: string[], named: Record<string, string> = {}): { name: string; bot: string }[] {
  for (const key of Object.keys(named)) {
    if (!/^\d+$/.test(key) || Number(key) >= bots.length)
      throw new UsageError(`--name ${key}=…: the index must be 0 to ${bots.length - 1} (the bots' order on the command line)`);
  }
  const base = bots.map((b, i) => named[i] ?? defaultBotName(parseBotSpec(b, game)));
  return base.map((name, i) => ({ name: named[i] === undefined && base.filter((n) => n === name).length > 1 ? `${name}#${i}` : name, bot: bots[i]! }));
}

/** The parts of a many-match spec every command reads the same way: config checked by the game, deadlines, seed. */
export function commonSpec(game: AnyGame, o: ManyOptions, players: number): Pick<TournamentSpec, 'seed' | 'config' | 'timeouts'> {
  const config = readConfigFiles(game, o.set ?? {});
  new MatchEngine(game, { config, seed: 0, players }); // a bad config is reported before any match starts
  const timeouts: TournamentSpec['timeouts'] = timeRulesOf(o);
  if (o.initTimeout !== undefined) timeouts.initMs = o.initTimeout;
  if (o.timeout !== undefined) timeouts.turnMs = o.timeout;
  checkTimeRules(game, timeouts); // strikes in a game without a pass are refused before any match starts
  return { seed: o.seed ?? randomSeed(), config, timeouts };
}

/** Checks --out: a folder, or a path whose parent exists. */
function checkOut(out: string | undefined): void {
  if (out === undefined) return;
  if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`--out ${out} is a file; give a folder (it is created if needed)`);
}

/**
 * Progress on stderr: a bar (cli-progress) with matches done, matches per minute, the time left and the
 * leader on a terminal; otherwise a plain line at most once a second (and for the last match).
 */
async function progress(label: string, lead = 'leader'): Promise<{ update(done: number, total: number, leader: string): void; stop(): void }> {
  const t0 = performance.now();
  const rate = (done: number) => (done / Math.max((performance.now() - t0) / 60_000, 1e-9)).toFixed(1);
  if (process.stderr.isTTY) {
    // cli-progress is CommonJS: its exports come as the module's default.
    const { SingleBar, Presets } = (await import('cli-progress')).default;
    const bar = new SingleBar(
      { format: `${label} {bar} {value}/{total} matches | {rate}/min | ETA {eta_formatted} | ${lead}: {leader}`, hideCursor: true, etaBuffer: 20 },
      Presets.shades_classic,
    );
    bar.start(1, 0, { rate: '0', leader: '-' });
    return {
      update: (done, total, leader) => (bar.setTotal(total), bar.update(done, { rate: rate(done), leader })),
      stop: () => bar.stop(),
    };
  }
  let last = 0;
  return {
    update(done, total, leader) {
      const now = performance.now();
      if (now - last < 1000 && done < total) return;
      last = now;
      const mins = (now - t0) / 60_000;
      const eta = done > 0 ? Math.round(((total - done) * mins * 60) / done) : null;
      process.stderr.write(`${label} ${done}/${total} matches, ${rate(done)}/min${eta !== null ? `, ETA ${eta}s` : ''}, ${lead}: ${leader}\n`);
    },
    stop() {},
  };
}

/** Runs `work` with a pool of K threads; Ctrl-C stops it (bots shut down) and exits 130 with a resume hint. */
async function withPool<T>(
  k: number,
  botEnv: Record<string, string> | undefined,
  work: (pool: MatchPool, stopping: () => boolean) => Promise<T>,
  onStop: () => void,
  resumeHint: string,
): Promise<T | null> {
  const pool = new MatchPool(k, { botEnv: { pass: botEnv, home: 'user' } });
  let stopping = false;
  const onSigint = () => {
    if (stopping) return;
    stopping = true;
    onStop();
    void pool.cancel();
  };
  process.on('SIGINT', onSigint);
  try {
    return await work(pool, () => stopping);
  } catch (err) {
    if (stopping && (err instanceof MatchCancelledError || err instanceof TournamentStopped)) {
      process.stderr.write(`stopped; every bot was shut down. ${resumeHint}\n`);
      process.exitCode = 130;
      return null;
    }
    await pool.cancel();
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    await pool.close();
  }
}

/** `botarena tournament`. */
export async function runTournament(game: AnyGame, bots: string[], o: TournamentOptions): Promise<void> {
  checkOut(o.out);
  const named = botNames(game, bots, o.name);
  const spec: TournamentSpec = {
    game: game.id,
    bots: named,
    format: o.format,
    games: o.games ?? (o.format === 'round-robin' && game.players.max > 2 && bots.length > 2 ? bots.length : 2),
    ...commonSpec(game, o, Math.min(Math.max(bots.length, game.players.min), game.players.max)),
  };
  if (o.rounds !== undefined) {
    if (o.format !== 'swiss') throw new UsageError('--rounds is for --format swiss');
    spec.rounds = o.rounds;
  }
  const k = o.concurrency ?? availableParallelism();
  let bar: Awaited<ReturnType<typeof progress>> | null = null;
  let tournament: Tournament | null = null;
  const lines = await withPool(
    k,
    o.botEnv,
    async (pool) => {
      const run = (job: Parameters<MatchPool['run']>[0]) => pool.run(job);
      tournament = new Tournament(game, spec, run, {
        out: o.out,
        onMatch: (_line, t) => {
          const leader = [...t.standings()].sort((a, b) => b.points + b.byes - (a.points + a.byes))[0]!;
          bar?.update(t.lines.length, t.total, `${leader.name} (${showPoints(leader.points + leader.byes)} pts)`);
        },
      });
      process.stderr.write(
        `tournament of ${game.id}: ${named.map((b) => b.name).join(', ')} · ${spec.format} · seed ${spec.seed} · ${k} at once${tournament.resumed ? ` · resuming: ${tournament.resumed} matches already played` : ''}\n`,
      );
      bar = await progress(spec.format);
      try {
        return await tournament.play();
      } finally {
        bar.stop();
      }
    },
    () => tournament?.stop(),
    o.out ? `Run the same command again to resume (${o.out} keeps the finished matches).` : 'Nothing was kept: give --out DIR to keep results and resume.',
  );
  if (!lines) return;
  const report = tournamentReport(spec, lines, tournament!);
  if (o.json) process.stdout.write(JSON.stringify(report) + '\n');
  else process.stdout.write(formatReport(report) + '\n');
}

/** Everything a tournament's outcome says, as one object (`--json`). */
export function tournamentReport(spec: TournamentSpec, lines: MatchLine[], t: Tournament) {
  const elo = new EloLadder();
  const skill = new SkillLadder();
  for (const l of lines) {
    const outcome = outcomeFromJsonResult(l);
    if (outcome.error) continue; // no game was played: not rated
    elo.rate(outcome);
    skill.rate(outcome);
  }
  const eloRows = new Map(elo.table(spec.game).map((r) => [r.name, r]));
  const skillRows = new Map(skill.table(spec.game).map((r) => [r.name, r]));
  const standings = t.standings().map((s) => {
    const share = s.games ? s.points / s.games : null;
    const e = eloRows.get(s.name);
    const sk = skillRows.get(s.name);
    return {
      ...s,
      score: share,
      elo: e ? round1(e.rating) : 1500,
      // The 95 % half-width of the Elo a score share over this many games stands for (none at 0 % or 100 %).
      eloMargin: share === null ? null : ((m) => (m === null ? null : round1(m)))(eloMargin(s.games, share)),
      openskill: sk ? { mu: round2(sk.mu), sigma: round2(sk.sigma), ordinal: round2(sk.ordinal) } : null,
    };
  });
  standings.sort((a, b) => b.points + b.byes - (a.points + a.byes) || b.elo - a.elo);
  const names = spec.bots.map((b) => b.name);
  const h2h = headToHead(spec, lines);
  return {
    game: spec.game,
    format: spec.format,
    seed: spec.seed,
    matches: lines.length,
    /** matches that repeated an earlier one move for move (the standings count them all) */
    copies: copiesOf(lines),
    /** matches that ended as an error (paint's failed ready handshake): neither scored nor rated */
    errors: errorsOf(lines),
    champion: t.champion !== null ? names[t.champion] : undefined,
    standings,
    headToHead: Object.fromEntries(names.map((a, i) => [a, Object.fromEntries(names.flatMap((b, j) => (i === j ? [] : [[b, h2h[i]![j]!]])))])),
  };
}

/** Points as a person reads them: all-bots matches give thirds and such, shown to two places (3.67, not 3.6666666666666665). */
const showPoints = (points: number): string => String(Math.round(points * 100) / 100);

function formatReport(r: ReturnType<typeof tournamentReport>): string {
  const rows: (string | number)[][] = [['#', 'bot', 'games', 'W-D-L', 'points', 'score', 'ELO', 'OpenSkill', 'faults']];
  r.standings.forEach((s, i) => {
    const faults =
      Object.entries(s.faults)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || '-';
    rows.push([
      i + 1,
      s.name,
      s.games,
      `${s.wins}-${s.draws}-${s.losses}`,
      showPoints(s.points + s.byes),
      s.score === null ? '-' : `${(s.score * 100).toFixed(1)}%`,
      `${s.elo.toFixed(1)}${s.eloMargin !== null ? ` ±${s.eloMargin.toFixed(0)}` : ''}`,
      s.openskill ? `${s.openskill.ordinal.toFixed(1)} (μ ${s.openskill.mu.toFixed(1)} σ ${s.openskill.sigma.toFixed(1)})` : '-',
      faults,
    ]);
  });
  const names = r.standings.map((s) => s.name);
  const matrix: string[][] = [['W-D-L vs →', ...names]];
  for (const a of names) matrix.push([a, ...names.map((b) => (a === b ? '·' : ((c) => `${c.wins}-${c.draws}-${c.losses}`)(r.headToHead[a]![b]!)))]);
  const copies = r.copies
    ? [
        `${r.copies} of ${r.matches} matches were identical copies of earlier ones, move for move: these bots play the same few games whatever the seed, and the table counts every copy`,
      ]
    : [];
  const errors = r.errors
    ? [`${r.errors} of ${r.matches} matches ended as an error (a player failed the game's handshake; see each one's fault): they are neither scored nor rated`]
    : [];
  return [
    `${r.game} ${r.format}, seed ${r.seed}: ${r.matches} matches${r.champion ? `; champion: ${r.champion}` : ''}`,
    ...copies,
    ...errors,
    '',
    table(rows),
    '',
    'head to head (row against column):',
    table(matrix),
  ].join('\n');
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** `botarena ab`: exit 0 when the candidate is better (H1), 1 when it is not (H0), 3 when undecided. */
export async function runAb(game: AnyGame, candidate: string, baseline: string, o: AbOptions): Promise<void> {
  if (o.elo1 <= o.elo0) throw new UsageError(`--elo1 (${o.elo1}) must be above --elo0 (${o.elo0})`);
  const all = [candidate, baseline, ...(o.opponents ?? [])];
  // Named as everywhere else, from their specs (`--name` to choose): the report says which is which.
  const named = botNames(game, all, o.name);
  const spec: AbSpec = {
    game: game.id,
    candidate: named[0]!,
    baseline: named[1]!,
    opponents: named.slice(2),
    bounds: { elo0: o.elo0, elo1: o.elo1, alpha: o.alpha, beta: o.beta },
    maxGames: o.maxGames,
    ...commonSpec(game, o, Math.max(2, game.players.min)),
  };
  const k = o.concurrency ?? availableParallelism();
  process.stderr.write(
    `ab ${game.id}: ${spec.candidate.name} (${candidate}) against ${spec.baseline.name} (${baseline})${spec.opponents.length ? `, both against ${spec.opponents.map((b) => b.name).join(', ')}` : ''} · seed ${spec.seed} · ${k} at once\n`,
  );
  let bar: Awaited<ReturnType<typeof progress>> | null = null;
  let sofar: AbReport | null = null; // the report as the pairs are counted, for a stop to print
  const report = await withPool(
    k,
    o.botEnv,
    async (pool) => {
      bar = await progress('ab', 'so far');
      try {
        return await playAb(game, spec, (job) => pool.run(job), {
          concurrency: k,
          onStart: (r) => (sofar = r),
          onPair: (r) =>
            bar?.update(
              r.games,
              spec.maxGames,
              `Elo ${signed(r.estimate.elo)}, LLR ${r.sprt.llr.toFixed(2)} (bounds ${r.sprt.lower.toFixed(2)}, ${r.sprt.upper.toFixed(2)})`,
            ),
        });
      } finally {
        bar.stop();
      }
    },
    () => {},
    'Nothing was decided; below, what the pairs finished so far say.',
  );
  if (!report) {
    // Stopped (Ctrl-C, exit 130): the games played are still an estimate worth printing.
    const r = sofar as AbReport | null;
    if (!r) return;
    r.stopped = 'interrupted';
    r.decision = null;
    process.stdout.write(o.json ? JSON.stringify(r) + '\n' : abText(r, o));
    return;
  }
  process.exitCode = report.decision === 'H1' ? 0 : report.decision === 'H0' ? 1 : 3;
  process.stdout.write(o.json ? JSON.stringify(report) + '\n' : abText(report, o));
}

/** `ab`'s outcome as text: games and copies, each side's record, the pairs, the estimate, the test and faults. */
function abText(report: AbReport, o: AbOptions): string {
  const e = report.estimate;
  const s = report.sprt;
  const verdict =
    report.decision === 'H1'
      ? `H1 accepted: ${report.candidate} is better (by at least ${o.elo1} Elo, at these error rates)`
      : report.decision === 'H0'
        ? `H0 accepted: ${report.candidate} is not better by ${o.elo1} Elo or more`
        : report.stopped === 'copies'
          ? `no decision: the last ${COPY_RUN} pairs only repeated earlier games, so these bots play the same few games whatever the seed (make the games differ: another --set, bots that use their seed)`
          : report.stopped === 'interrupted'
            ? `no decision: stopped after ${report.games} games`
            : `undecided after ${report.games} games (--max-games ${o.maxGames})`;
  const faults = (f: Record<string, number>) =>
    Object.entries(f)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ') || 'none';
  const record = (r: { wins: number; draws: number; losses: number }) => `won ${r.wins}, drew ${r.draws}, lost ${r.losses} of ${r.wins + r.draws + r.losses}`;
  const { candidate: c, baseline: b } = report;
  const against = report.opponents.join(', ');
  const p = report.pentanomial;
  return (
    [
      `${c} vs ${b}${against ? ` (both against ${against})` : ''}: ${report.games} games in ${report.pairs} pairs`,
      ...(report.copies
        ? [`${report.copies} of ${report.games} games were identical copies of earlier ones, move for move: the counts and the test leave them out`]
        : []),
      ...(report.errors
        ? [
            `${report.errors} of ${report.games} games were in pairs where a match ended as an error (a player failed the game's handshake: see the faults): the counts and the test leave them out`,
          ]
        : []),
      against ? `games against ${against}: ${c} ${record(report)}; ${b} ${record(report.baselineRecord)}` : `games: ${c} ${record(report)} against ${b}`,
      `pairs counted: ${p.reduce((x, y) => x + y, 0)}; by ${c}'s points in the pair, 0: ${p[0]}, ½: ${p[1]}, 1: ${p[2]}, 1½: ${p[3]}, 2: ${p[4]}`,
      `Elo difference: ${signed(e.elo)} (95 % ${signed(e.low)} to ${signed(e.high)}), likelihood of superiority ${(e.los * 100).toFixed(1)} %`,
      `SPRT elo0 ${o.elo0}, elo1 ${o.elo1}, alpha ${o.alpha}, beta ${o.beta}: LLR ${s.llr.toFixed(2)} (bounds ${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}): ${verdict}`,
      `faults: ${report.candidate} ${faults(report.faults.candidate)}; ${report.baseline} ${faults(report.faults.baseline)}`,
    ].join('\n') + '\n'
  );
}

/** An Elo figure with its sign, one decimal; ±∞ as words. */
function signed(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '+∞' : '−∞';
  return `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
}
