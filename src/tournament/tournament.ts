// A tournament on disk: the spec checked, the schedule it plays and resumes, its results file and replays. What
// the results are read into (standings, head-to-head) is standings.ts.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { newJob } from '../arena/match-job.js';
import { UsageError } from '../core/errors.js';
import { resultLine, type Replay } from '../core/replay.js';
import type { AnyGame } from '../core/game.js';
import { allTogether, duel, gauntlet, knockoutFirstRound, pairKey, roundRobin, swissPairs, swissRounds, type Format, type Scheduled } from './schedule.js';
import { configForSeed, gameKey } from './vary.js';
import { knockoutPoints, sameDuel, standingsOf, type MatchLine, type Standing, type TournamentSpec } from './standings.js';

export { copiesOf, errorsOf, headToHead, standingsOf, type MatchLine, type Standing, type TournamentSpec } from './standings.js';

/** Runs one match (a worker pool's `run`, or runMatch itself in tests): resolves with its replay. */
export type MatchRunner = (job: ReturnType<typeof newJob>) => Promise<Replay>;

/** The results file, the spec file and the replays' folder inside a tournament's output folder. */
export const OUT_FILES = { spec: 'tournament.json', results: 'results.jsonl', replays: 'replays' };

/** Whether a game's tournaments seat all the bots at once (a round-robin of a game for more than two, with room for all). */
export function seatsAllAtOnce(game: AnyGame, format: Format, bots: number): boolean {
  return format === 'round-robin' && game.players.max > 2 && bots >= 3 && bots <= game.players.max;
}

/** Checks a spec against its game: bot count, names, games per pairing. Throws a UsageError saying what to change. */
export function checkSpec(game: AnyGame, spec: TournamentSpec): void {
  const n = spec.bots.length;
  if (n < 2) throw new UsageError('a tournament needs at least 2 bots');
  if (new Set(spec.bots.map((b) => b.name)).size !== n)
    throw new UsageError(
      `bot names must differ (they identify the bots in results and ratings): ${spec.bots.map((b) => b.name).join(', ')}; name them with --name INDEX=NAME`,
    );
  if (!seatsAllAtOnce(game, spec.format, n) && game.players.min > 2)
    throw new UsageError(`${game.id} is played by at least ${game.players.min} bots: give ${game.players.min} to ${game.players.max} bots for a round-robin`);
  if (spec.format === 'round-robin' && game.players.max > 2 && n > game.players.max) {
    // Too many for one match: the round-robin is played in duels (every game here takes two players).
    if (game.players.min > 2) throw new UsageError(`${game.id} seats at most ${game.players.max} bots; got ${n}`);
  }
  if (!Number.isInteger(spec.games) || spec.games < 1) throw new UsageError(`--games must be a whole number from 1, got ${spec.games}`);
}

/**
 * A tournament on one machine: schedules the matches (schedule.ts), runs them through `run` (several at once
 * when it is a pool), and with an output folder keeps every replay and an append-only results file, so the
 * same command run again resumes: the matches already in the results file are not played again, and as the
 * schedule is a function of the spec and the results, the rest is what it would have been. Stopping loses
 * at most the matches under way.
 */
export class Tournament {
  readonly lines: MatchLine[] = [];
  private readonly done = new Map<number, MatchLine>();
  private stopped = false;
  /** matches in the schedule so far (Swiss and knockout rounds are added as they are known) */
  total = 0;

  constructor(
    readonly game: AnyGame,
    readonly spec: TournamentSpec,
    private readonly run: MatchRunner,
    private readonly opts: { out?: string; onMatch?: (line: MatchLine, t: Tournament) => void } = {},
  ) {
    checkSpec(game, spec);
    if (opts.out) this.resume(opts.out);
    this.total = this.estimate();
  }

  /** Matches already finished when the tournament started (read from the results file). */
  get resumed(): number {
    return this.done.size;
  }

  /** Stops scheduling new matches; those under way are for the runner to cancel. */
  stop(): void {
    this.stopped = true;
  }

  /** Plays the tournament to its end; resolves with every match's line, in schedule order. */
  async play(): Promise<MatchLine[]> {
    const n = this.spec.bots.length;
    let index = 0;
    const stage = async (matches: Scheduled[]): Promise<MatchLine[]> => {
      const first = index;
      index += matches.length;
      return Promise.all(matches.map((m, k) => this.match(first + k, m)));
    };
    const { format, games, seed } = this.spec;
    if (seatsAllAtOnce(this.game, format, n)) await stage(allTogether(n, games, seed));
    else if (format === 'round-robin') await stage(roundRobin(n, games, seed));
    else if (format === 'gauntlet') await stage(gauntlet(n, games, seed));
    else if (format === 'swiss') {
      const met = new Set<string>();
      const byes = new Set<number>();
      for (let round = 0; round < (this.spec.rounds ?? swissRounds(n)); round++) {
        const points = this.standings().map((s) => s.points + s.byes);
        const { pairs, bye } = swissPairs(points, met, byes);
        if (bye !== null) byes.add(bye);
        this.byes = byes;
        pairs.forEach(([a, b]) => met.add(pairKey(a, b)));
        await stage(pairs.flatMap(([a, b]) => duel(a, b, games, seed, round, `${pairKey(a, b)}/r${round}`)));
      }
    } else {
      // Knockout: each pairing plays its games; a tie gets up to two more pairs of games, then the better seed goes on.
      // A game that ended as an error counts against the seat(s) it names as faulty (knockoutPoints): the bot that
      // failed the handshake must not go on by seed.
      let pairs: [number, number | null][] = knockoutFirstRound(n);
      for (let round = 0; pairs.length; round++) {
        const live = pairs.filter((p): p is [number, number] => p[1] !== null);
        const lines = await stage(live.flatMap(([a, b]) => duel(a, b, games, seed, round, `${pairKey(a, b)}/k${round}`)));
        const winners = new Map<string, number>();
        let tied = live;
        let extra = lines;
        for (let tb = 0; tb <= 2 && tied.length; tb++) {
          const still: [number, number][] = [];
          for (const [a, b] of tied) {
            const [pa, pb] = [a, b].map((x) =>
              knockoutPoints(
                extra.filter((l) => sameDuel(l, a, b)),
                x,
              ),
            ) as [number, number];
            if (pa !== pb) winners.set(pairKey(a, b), pa > pb ? a : b);
            else if (tb === 2) winners.set(pairKey(a, b), Math.min(a, b));
            else still.push([a, b]);
          }
          tied = still;
          if (tied.length) extra = await stage(tied.flatMap(([a, b]) => duel(a, b, 2, seed, round, `${pairKey(a, b)}/k${round}/tb${tb}`)));
        }
        const next = pairs.map(([a, b]) => (b === null ? a : winners.get(pairKey(a, b))!));
        if (next.length === 1) {
          this.champion = next[0]!;
          break;
        }
        pairs = [];
        for (let i = 0; i < next.length; i += 2) pairs.push([next[i]!, next[i + 1] ?? null]);
      }
    }
    const extra = [...this.done.keys()].filter((i) => i >= index);
    if (extra.length)
      throw new UsageError(
        `${join(this.opts.out ?? '.', OUT_FILES.results)} has match ${extra[0]}, and this tournament has ${index} matches (0 to ${index - 1}): it belongs to another tournament`,
      );
    return [...this.done.values()].sort((a, b) => a.index - b.index);
  }

  /** Swiss: the bots that had a bye (a point each, no game). */
  byes = new Set<number>();
  /** Knockout: the winner, once known. */
  champion: number | null = null;

  /** One match: from the results file when it was played before, else played now and recorded. */
  private async match(index: number, m: Scheduled): Promise<MatchLine> {
    const known = this.done.get(index);
    if (known) {
      if (known.seats.join() !== m.seats.join())
        throw new UsageError(
          `the results file's match ${index} seated bots ${known.seats.join(',')}, the schedule says ${m.seats.join(',')}: it belongs to another tournament`,
        );
      return known;
    }
    if (this.stopped) throw new TournamentStopped();
    const { spec } = this;
    const matchId = `t${spec.seed}-${index}`;
    const config = configForSeed(this.game, spec.config, m.seats.length, m.seed);
    const job = newJob({
      game: spec.game,
      seats: m.seats.map((b) => ({ bot: spec.bots[b]!.bot, name: spec.bots[b]!.name })),
      seed: m.seed,
      config,
      timeouts: spec.timeouts,
      matchId,
    });
    const replay = await this.run(job);
    const line: MatchLine = { index, matchId, round: m.round, seats: m.seats, ...resultLine(replay), key: gameKey(replay) };
    if (this.opts.out) {
      const file = join(OUT_FILES.replays, `${String(index).padStart(5, '0')}.json.gz`);
      writeFileSync(join(this.opts.out, file), gzipSync(JSON.stringify(replay) + '\n'));
      line.replay = file;
      // The replay first, then its line: a line in the results file always has its replay.
      appendFileSync(join(this.opts.out, OUT_FILES.results), JSON.stringify(line) + '\n');
    }
    this.done.set(index, line);
    this.lines.push(line);
    this.total = Math.max(this.total, this.estimate());
    this.opts.onMatch?.(line, this);
    return line;
  }

  /** Reads (or starts) the output folder: the spec must be this one; the finished matches are kept. */
  private resume(out: string): void {
    const specFile = join(out, OUT_FILES.spec);
    const resultsFile = join(out, OUT_FILES.results);
    const text = JSON.stringify(this.spec, null, 2) + '\n';
    if (existsSync(specFile)) {
      const before = readFileSync(specFile, 'utf8');
      if (before !== text)
        throw new UsageError(
          `${out} holds another tournament (${differences(before, this.spec)}): give another --out, or the same command as before to resume it`,
        );
    } else {
      if (existsSync(resultsFile)) throw new UsageError(`${out} has a results file but no ${OUT_FILES.spec}: give another --out`);
      mkdirSync(join(out, OUT_FILES.replays), { recursive: true });
      writeFileSync(specFile, text);
    }
    mkdirSync(join(out, OUT_FILES.replays), { recursive: true });
    if (!existsSync(resultsFile)) return;
    const lines = readFileSync(resultsFile, 'utf8').split('\n');
    const kept: string[] = [];
    lines.forEach((raw, i) => {
      if (!raw.trim()) return;
      let line: MatchLine;
      try {
        line = JSON.parse(raw) as MatchLine;
        if (!isMatchLine(line, this.spec.bots.length)) throw new Error('not a match line');
      } catch {
        // A line cut off by a crash can only be the last one: that match is played again.
        if (i >= lines.length - 2) return;
        throw new UsageError(`${resultsFile} line ${i + 1} is not a match result: ${raw.slice(0, 80)}`);
      }
      this.done.set(line.index, line);
      this.lines.push(line);
      kept.push(raw);
    });
    // Drop a cut-off last line, so appends start on a line of their own.
    writeFileSync(resultsFile, kept.map((l) => l + '\n').join(''));
  }

  /** Matches in the whole schedule, as far as it can be told now. */
  private estimate(): number {
    const n = this.spec.bots.length;
    const g = this.spec.games;
    if (seatsAllAtOnce(this.game, this.spec.format, n)) return Math.max(1, Math.ceil(g / n)) * n;
    if (this.spec.format === 'round-robin') return ((n * (n - 1)) / 2) * g;
    if (this.spec.format === 'gauntlet') return (n - 1) * g;
    if (this.spec.format === 'swiss') return (this.spec.rounds ?? swissRounds(n)) * Math.floor(n / 2) * g;
    return (n - 1) * g + (this.done.size > 0 ? [...this.done.values()].filter((l) => /\/tb/.test(l.matchId)).length : 0);
  }

  /** Each bot's standing from the matches finished so far. */
  standings(): Standing[] {
    return standingsOf(this.spec, this.lines, this.byes);
  }
}

/** Whether a parsed results line has the shape the standings read: bots by seat in range, a rank per seat. */
function isMatchLine(l: MatchLine, bots: number): boolean {
  if (typeof l !== 'object' || l === null || !Number.isSafeInteger(l.index) || l.index < 0) return false;
  if (!Array.isArray(l.seats) || !Array.isArray(l.players) || l.seats.length !== l.players.length || l.seats.length < 1) return false;
  return (
    l.seats.every((b) => Number.isInteger(b) && b >= 0 && b < bots) &&
    l.players.every((p) => typeof p === 'object' && p !== null && Number.isInteger(p.rank) && p.rank >= 1)
  );
}

/** Raised by a match that was not started because the tournament was stopped. */
export class TournamentStopped extends Error {
  override name = 'TournamentStopped';
}

/** Which fields of a saved spec differ from this one, for the message. */
function differences(saved: string, spec: TournamentSpec): string {
  try {
    const before = JSON.parse(saved) as Record<string, unknown>;
    const keys = Object.keys(spec).filter((k) => JSON.stringify(before[k]) !== JSON.stringify((spec as unknown as Record<string, unknown>)[k]));
    return keys.length ? `its ${keys.join(', ')} ${keys.length === 1 ? 'differs' : 'differ'}` : 'its settings differ';
  } catch {
    return `its ${OUT_FILES.spec} cannot be read`;
  }
}
