import { newJob, type JobTimeouts, type MatchJob } from '../arena/match-job.js';
import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';
import { resultLine, type Replay, type ResultLine } from '../core/replay.js';
import { pairSeed } from './schedule.js';
import { addPair, eloEstimate, sprt, type EloEstimate, type Pentanomial, type SprtBounds, type SprtState } from './sprt.js';
import { configForSeed, gameKey } from './vary.js';

/**
 * `botarena ab`: is the candidate better than the baseline? Games come in pairs on one seed with the seats
 * swapped, and each pair gives the candidate 0 to 2 points (the pentanomial model, see sprt.ts):
 *
 * - head to head: the candidate against the baseline, then the same seed with the seats swapped;
 * - against opponents: the candidate and the baseline each play the same opponent on the same seed and in the
 *   same seat; the pair gives 1 + (candidate's result − baseline's result), a result being 1 for a lone first
 *   place, ½ for a shared one, 0 otherwise. Opponents take turns pair by pair, and so do the seats.
 *
 * Pairs are played several at once, but counted in their order, so the decision and the pair it falls on are the
 * same whatever the concurrency. Play stops at the decision, or undecided once `maxGames` games are played.
 *
 * Deterministic bots play the same game on every seed unless the seed changes the game (vary.ts picks a map
 * from it where the game has shipped maps). A pair whose games repeat an earlier pair's move for move is no
 * new evidence: it is counted as copies, left out of the test, and after `COPY_RUN` such pairs in a row play
 * stops undecided: the games repeat, and more of them would only repeat the same verdict.
 */
export interface AbSpec {
  game: string;
  candidate: { name: string; bot: string };
  baseline: { name: string; bot: string };
  opponents: { name: string; bot: string }[];
  bounds: SprtBounds;
  maxGames: number;
  seed: number;
  config: Record<string, unknown>;
  timeouts: JobTimeouts;
}

export interface AbReport {
  game: string;
  seed: number;
  candidate: string;
  baseline: string;
  opponents: string[];
  /** the bot specs behind those names */
  bots: { candidate: string; baseline: string; opponents: string[] };
  pairs: number;
  games: number;
  /** the candidate's games: wins, draws, losses (head to head: against the baseline); copies left out */
  wins: number;
  draws: number;
  losses: number;
  /** the baseline's games, counted as the candidate's (head to head: the candidate's mirrored); copies left out */
  baselineRecord: { wins: number; draws: number; losses: number };
  pentanomial: Pentanomial;
  estimate: EloEstimate;
  sprt: SprtState;
  decision: 'H1' | 'H0' | null;
  /** games that repeated an earlier pair's games move for move; their pairs are in `pairs` and `games` only */
  copies: number;
  /**
   * games of pairs where a game ended as an error (paint's failed ready handshake): no game was played, so
   * the pair is left out of the counts and the test; they are in `pairs`, `games` and `faults` only
   */
  errors: number;
  /**
   * why play stopped without a decision before the cap: `copies` after `COPY_RUN` repeated pairs in a row;
   * `interrupted` when the user stopped it (Ctrl-C): the figures are those of the pairs finished in order
   */
  stopped: 'copies' | 'interrupted' | null;
  faults: { candidate: Record<string, number>; baseline: Record<string, number> };
}

/** Repeated pairs in a row after which play stops: the games come from a few the seeds cannot change. */
export const COPY_RUN = 20;

/** A result's value for the seat at `slot`: 1 a lone first place, ½ a shared one, 0 otherwise. */
function resultOf(line: ResultLine, slot: number): number {
  const rank = line.players[slot]!.rank;
  if (rank !== 1) return 0;
  return line.players.filter((p) => p.rank === 1).length === 1 ? 1 : 0.5;
}

/** The games of pair `p`: the jobs, and how to read the candidate's points (0..2) from their results. */
function pairJobs(
  game: AnyGame,
  spec: AbSpec,
  p: number,
): { jobs: MatchJob[]; points(lines: ResultLine[]): number; seats: ('candidate' | 'baseline' | null)[][] } {
  const seed = pairSeed(spec.seed, 'ab', p);
  const config = configForSeed(game, spec.config, spec.opponents.length ? Math.max(2, game.players.min) : 2, seed);
  const job = (seats: { name: string; bot: string }[], k: number) =>
    newJob({ game: spec.game, seats, seed, config, timeouts: spec.timeouts, matchId: `ab${spec.seed}-${p}-${k}` });
  const { candidate: c, baseline: b } = spec;
  if (!spec.opponents.length) {
    return {
      jobs: [job([c, b], 0), job([b, c], 1)],
      points: ([first, second]) => resultOf(first!, 0) + resultOf(second!, 1),
      seats: [
        ['candidate', 'baseline'],
        ['baseline', 'candidate'],
      ],
    };
  }
  const opp = spec.opponents[p % spec.opponents.length]!;
  const players = Math.max(2, game.players.min);
  const others = Array.from({ length: players - 1 }, (_, i) => ({ ...opp, name: players > 2 ? `${opp.name}#${i + 1}` : opp.name }));
  // The tested bot's seat turns with the pairs, so each sits in each seat as often.
  const slot = Math.floor(p / spec.opponents.length) % players;
  const seatsWith = (who: { name: string; bot: string }) => [...others.slice(0, slot), who, ...others.slice(slot)];
  const role = (r: 'candidate' | 'baseline') => Array.from({ length: players }, (_, i) => (i === slot ? r : null));
  return {
    jobs: [job(seatsWith(c), 0), job(seatsWith(b), 1)],
    points: ([withC, withB]) => 1 + resultOf(withC!, slot) - resultOf(withB!, slot),
    seats: [role('candidate'), role('baseline')],
  };
}

/** Plays pairs until the test decides or the cap is reached; `run` plays one match (a pool's run). */
export async function playAb(
  game: AnyGame,
  spec: AbSpec,
  run: (job: MatchJob) => Promise<Replay>,
  opts: { concurrency: number; onPair?: (r: AbReport) => void; onStart?: (r: AbReport) => void },
): Promise<AbReport> {
  if (spec.candidate.name === spec.baseline.name)
    throw new UsageError(`the candidate and the baseline need different names (both "${spec.candidate.name}"): name them with --name 0=NEW --name 1=OLD`);
  if (!spec.opponents.length && game.players.min > 2) throw new UsageError(`${game.id} needs at least ${game.players.min} bots: give --opponents`);
  const maxPairs = Math.max(1, Math.floor(spec.maxGames / 2));
  const report: AbReport = {
    game: spec.game,
    seed: spec.seed,
    candidate: spec.candidate.name,
    baseline: spec.baseline.name,
    opponents: spec.opponents.map((o) => o.name),
    bots: { candidate: spec.candidate.bot, baseline: spec.baseline.bot, opponents: spec.opponents.map((o) => o.bot) },
    pairs: 0,
    games: 0,
    wins: 0,
    draws: 0,
    losses: 0,
    baselineRecord: { wins: 0, draws: 0, losses: 0 },
    pentanomial: [0, 0, 0, 0, 0],
    estimate: eloEstimate([0, 0, 0, 0, 0]),
    sprt: sprt([0, 0, 0, 0, 0], spec.bounds),
    decision: null,
    copies: 0,
    errors: 0,
    stopped: null,
    faults: { candidate: {}, baseline: {} },
  };
  const finished = new Map<number, { points: number; lines: ResultLine[]; key: string; seats: ('candidate' | 'baseline' | null)[][] }>();
  const seen = new Set<string>(); // the keys of the pairs counted
  let copyRun = 0; // repeated pairs in a row
  let next = 0; // the next pair to start
  let counted = 0; // pairs counted, in order
  let failure: unknown = null;
  opts.onStart?.(report);
  const count = () => {
    while (finished.has(counted) && report.decision === null && report.stopped === null) {
      const f = finished.get(counted)!;
      finished.delete(counted);
      counted++;
      report.pairs++;
      report.games += f.lines.length;
      if (seen.has(f.key)) {
        report.copies += f.lines.length;
        if (++copyRun >= COPY_RUN) report.stopped = 'copies';
        opts.onPair?.(report);
        continue;
      }
      const error = f.lines.some((l) => l.error);
      if (error) report.errors += f.lines.length;
      else {
        seen.add(f.key);
        copyRun = 0;
        report.pentanomial = addPair(report.pentanomial, f.points);
      }
      f.lines.forEach((line, k) => {
        line.players.forEach((p, slot) => {
          const who = f.seats[k]![slot];
          if (who && !error) {
            const v = resultOf(line, slot);
            const record = who === 'candidate' ? report : report.baselineRecord;
            if (v === 1) record.wins++;
            else if (v === 0.5) record.draws++;
            else record.losses++;
          }
          if (who && p.fault) report.faults[who][p.fault.kind] = (report.faults[who][p.fault.kind] ?? 0) + 1;
        });
      });
      if (error) {
        opts.onPair?.(report);
        continue;
      }
      report.sprt = sprt(report.pentanomial, spec.bounds);
      report.estimate = eloEstimate(report.pentanomial);
      report.decision = report.sprt.decision;
      opts.onPair?.(report);
    }
  };
  const worker = async () => {
    while (report.decision === null && report.stopped === null && failure === null && next < maxPairs) {
      const p = next++;
      const { jobs, points, seats } = pairJobs(game, spec, p);
      try {
        const replays = await Promise.all(jobs.map(run));
        const lines = replays.map(resultLine);
        finished.set(p, { points: points(lines), lines, key: replays.map(gameKey).join(' '), seats });
        count();
      } catch (err) {
        failure ??= err;
      }
    }
  };
  // Each worker keeps a pair (two matches) going; enough of them to keep every thread busy.
  await Promise.all(Array.from({ length: Math.max(1, Math.ceil(opts.concurrency / 2)) }, worker));
  if (failure !== null && report.decision === null && report.stopped === null) throw failure;
  return report;
}
