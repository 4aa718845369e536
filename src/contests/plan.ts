// The final's plan: which matches a contest's final is made of, as a pure function of its definition, the
// number of entrants and the results so far. Round robins are known at once; a Swiss round is known when the
// round before it is played, a knockout round when the one before it is decided. Every match has a stable index
// (its place in the plan, which only ever grows at its end) and a stable key naming what it is, so the server
// creates each exactly once (a unique (contest, index)) however often it plans again, and verify.ts can say
// which match is missing, added or twice.
import type { JobRequest } from '../arena/match-job.js';
import type { ResultLine } from '../core/replay.js';
import { duel, knockoutFirstRound, pairKey, swissPairs, swissRounds, type Scheduled } from '../tournament/schedule.js';
import { knockoutPoints, type MatchLine } from '../tournament/standings.js';
import { CONTEST_LIMITS, ContestDefinitionError, type ContestDefinition, type ContestEntrant } from './definition.js';

/** One match of the final: where it sits, what it is, the entrants by seat, its seed and its configuration. */
export interface PlannedMatch {
  /** its place in the plan, from 0: stable, as the plan only grows at its end */
  index: number;
  /**
   * what the match is, unique in the final: `r{round}:c{config}:{a}-{b}:g{game}` (a < b, entrant indices; the
   * config's index in the definition), and `…:t{tiebreak}:g{game}` for a knockout tiebreak
   */
  key: string;
  /** 0 for round robins; the Swiss or knockout round */
  round: number;
  /** the configuration's label (`configIndex` in the definition's configs) */
  config: string;
  configIndex: number;
  /** the entrants by seat (indices in seeding order) */
  seats: [number, number];
  seed: number;
}

/** What the plan reads of a finished match: its key, its seats and its result (ranks, faults, an error). */
export type PlayedMatch = { key: string; seats: number[] } & Pick<ResultLine, 'players' | 'error'>;

/** The final as far as it can be known now. */
export interface FinalPlan {
  /** every match known so far, in index order: those already played, and those to create now */
  matches: PlannedMatch[];
  /** whether the schedule is complete and every match in it has been played */
  done: boolean;
  /** Swiss: the entrants that had a bye, by round (a bye is worth a won pairing: games × configs points) */
  byes: number[];
  /** knockout: the winner, once decided; else null */
  champion: number | null;
  /** the matches the whole final will have, as far as it can be told now (for progress) */
  expected: number;
}

/** How many games each pairing plays on each configuration. */
export function gamesPerConfig(def: Pick<ContestDefinition, 'format' | 'gamesPerPairing'>): number {
  return def.format === 'double-round-robin' ? 2 * def.gamesPerPairing : def.gamesPerPairing;
}

/** Matches of the whole final, as far as it can be told before it is played (knockout tiebreaks not counted). */
export function expectedMatches(def: ContestDefinition, entrants: number): number {
  const perPairing = gamesPerConfig(def) * def.configs.length;
  if (def.format === 'round-robin' || def.format === 'double-round-robin') return ((entrants * (entrants - 1)) / 2) * perPairing;
  if (def.format === 'swiss') return (def.rounds ?? swissRounds(entrants)) * Math.floor(entrants / 2) * perPairing;
  return Math.max(0, entrants - 1) * perPairing;
}

/**
 * The final's matches for `entrants` entrants (in seeding order) and the matches played so far (by key; a line
 * whose key is not in the plan is ignored here, and verify.ts names it). Deterministic: the same definition,
 * entrants and results give the same plan. Throws a ContestDefinitionError when the final would be too large.
 */
export function planFinal(def: ContestDefinition, entrants: number, played: readonly PlayedMatch[]): FinalPlan {
  if (!Number.isInteger(entrants) || entrants < 2 || entrants > CONTEST_LIMITS.entrants)
    throw new ContestDefinitionError('entrants', `must be 2 to ${CONTEST_LIMITS.entrants} for a final, got ${entrants}`);
  const expected = expectedMatches(def, entrants);
  if (expected > CONTEST_LIMITS.matches)
    throw new ContestDefinitionError(
      'format',
      `a ${def.format} final of ${entrants} entrants on ${def.configs.length} configurations with ${def.gamesPerPairing} games per pairing is ${expected} matches; at most ${CONTEST_LIMITS.matches}`,
    );
  const byKey = new Map<string, PlayedMatch>();
  for (const p of played) if (!byKey.has(p.key)) byKey.set(p.key, p);
  const matches: PlannedMatch[] = [];
  const games = gamesPerConfig(def);
  const add = (round: number, a: number, b: number, n: number, configs: number[], tag = ''): PlannedMatch[] => {
    const stage: PlannedMatch[] = [];
    const pk = pairKey(a, b);
    for (const c of configs) {
      const base = `r${round}:c${c}:${pk}${tag}`;
      duel(a, b, n, def.seed, round, base).forEach((s: Scheduled, g) => {
        const m: PlannedMatch = {
          index: matches.length,
          key: `${base}:g${g}`,
          round,
          config: def.configs[c]!.label,
          configIndex: c,
          seats: [s.seats[0]!, s.seats[1]!],
          seed: s.seed,
        };
        matches.push(m);
        stage.push(m);
      });
    }
    return stage;
  };
  const allConfigs = def.configs.map((_, c) => c);
  const isPlayed = (ms: PlannedMatch[]) => ms.every((m) => byKey.has(m.key));
  const lines = (ms: PlannedMatch[]) => ms.map((m) => byKey.get(m.key)!) as unknown as MatchLine[];
  const result = (done: boolean, extra: Partial<FinalPlan> = {}): FinalPlan => ({
    matches,
    done: done && isPlayed(matches),
    byes: [],
    champion: null,
    expected: Math.max(expected, matches.length),
    ...extra,
  });

  if (def.format === 'round-robin' || def.format === 'double-round-robin') {
    for (let a = 0; a < entrants; a++) for (let b = a + 1; b < entrants; b++) add(0, a, b, games, allConfigs);
    return result(true);
  }

  if (def.format === 'swiss') {
    const rounds = def.rounds ?? swissRounds(entrants);
    const met = new Set<string>();
    const byeSet = new Set<number>();
    const byes: number[] = [];
    const points = Array.from({ length: entrants }, () => 0);
    for (let round = 0; round < rounds; round++) {
      const { pairs, bye } = swissPairs(points, met, byeSet);
      if (bye !== null) {
        byeSet.add(bye);
        byes.push(bye);
      }
      const stage = pairs.flatMap(([a, b]) => {
        met.add(pairKey(a, b));
        return add(round, a, b, games, allConfigs);
      });
      if (!isPlayed(stage)) return result(false, { byes });
      // The points the next round is paired by, as the standings count them: each game's (a win 1, a draw ½; a
      // match that ended as an error none), a bye a won pairing's.
      for (let e = 0; e < entrants; e++) points[e]! += gamePoints(lines(stage), e);
      if (bye !== null) points[bye]! += games * def.configs.length;
    }
    return result(true, { byes });
  }

  // Knockout: each pairing plays its games on every configuration; a tie plays up to two tiebreaks of two games
  // each (on the configurations in turn), decided on the tiebreak's games alone; a tie after both: the better seed.
  let pairs: [number, number | null][] = knockoutFirstRound(entrants);
  for (let round = 0; ; round++) {
    const winners: number[] = [];
    const live = pairs.filter((p): p is [number, number] => p[1] !== null);
    const stages = live.map(([a, b]) => add(round, a, b, games, allConfigs));
    if (!stages.every(isPlayed)) return result(false);
    const decided = new Map<string, number>();
    let tied = live.map((p, i) => ({ pair: p, stage: stages[i]! }));
    for (let tb = 0; tied.length; tb++) {
      const still: typeof tied = [];
      for (const t of tied) {
        const [a, b] = t.pair;
        const [pa, pb] = [knockoutPointsPlayed(lines(t.stage), a), knockoutPointsPlayed(lines(t.stage), b)];
        if (pa !== pb) decided.set(pairKey(a, b), pa > pb ? a : b);
        else if (tb === 2) decided.set(pairKey(a, b), Math.min(a, b));
        else still.push(t);
      }
      if (!still.length) break;
      const next = still.map((t) => ({ pair: t.pair, stage: add(round, t.pair[0], t.pair[1], 2, [tb % def.configs.length], `:t${tb}`) }));
      if (!next.every((t) => isPlayed(t.stage))) return result(false);
      tied = next;
    }
    for (const [a, b] of pairs) winners.push(b === null ? a : decided.get(pairKey(a, b))!);
    if (winners.length === 1) return result(true, { champion: winners[0]! });
    pairs = [];
    for (let i = 0; i < winners.length; i += 2) pairs.push([winners[i]!, winners[i + 1] ?? null]);
  }
}

/**
 * An entrant's points in played games (a win 1, a draw ½; a game that ended as an error: lost by the faulty seat).
 * Only the games it sat in count: a line read from an archive may seat others than the plan (verify names it).
 */
function knockoutPointsPlayed(lines: MatchLine[], entrant: number): number {
  return knockoutPoints(
    lines.filter((l) => l.seats.includes(entrant)),
    entrant,
  );
}

/** An entrant's points as the standings count them: a win 1, a draw ½, a match that ended as an error nothing. */
function gamePoints(lines: MatchLine[], entrant: number): number {
  let p = 0;
  for (const l of lines) {
    const slot = l.seats.indexOf(entrant);
    if (slot < 0 || l.error || l.players[slot]?.rank !== 1) continue;
    p += 1 / l.players.filter((x) => x.rank === 1).length;
  }
  return p;
}

/**
 * The match job of a planned match: the contest's game, the match's configuration and seed, the entrants'
 * frozen bots by seat (named by their entry names) and the contest's time rules as the job's timeouts.
 */
export function jobFor(def: ContestDefinition, entrants: readonly ContestEntrant[], m: PlannedMatch, matchId: string): JobRequest {
  return {
    game: def.game,
    config: { ...def.configs[m.configIndex]!.config },
    seed: m.seed,
    seats: m.seats.map((e) => ({ bot: entrants[e]!.bot, name: entrants[e]!.name })),
    timeouts: { ...def.timeRules },
    matchId,
  };
}
