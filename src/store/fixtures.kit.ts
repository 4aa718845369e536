import { gzipSync } from 'node:zlib';
import type { ResultLine } from '../core/replay.js';
import { openStore, type OpenOptions } from './open.js';
import type { BotRow, KeptRatings, MatchFinish, MatchRow, NewMatchRow, RatingUpdate, Store } from './store.js';

// Helpers of the store's contract tests: fresh databases, bots, matches and their endings.

/** Where the contract runs: fresh databases of one kind. */
export interface StoreTarget {
  /** a new empty database: a SQLite file path or a postgres:// URL */
  newDatabase(): Promise<string>;
  /**
   * whether two stores open on one database may write at once from this process: yes on Postgres; not on
   * SQLite, whose driver waits for the other connection's lock by blocking the thread (sqlite.test.ts has
   * two processes instead)
   */
  twoStores: boolean;
}

/** The stores a test opened, closed after it. */
export class Stores {
  private readonly open_: Store[] = [];
  constructor(private readonly target: StoreTarget) {}

  /** A store on a new empty database. */
  async fresh(opts?: OpenOptions): Promise<{ store: Store; url: string }> {
    const url = await this.target.newDatabase();
    return { url, store: await this.open(url, opts) };
  }

  /** A store on a database that exists. */
  async open(url: string, opts?: OpenOptions): Promise<Store> {
    const store = await openStore(url, opts);
    this.open_.push(store);
    return store;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open_.splice(0).map((s) => s.close()));
  }
}

/** A clock the test moves: each read is `step` ms after the one before. */
export function steppingClock(stepMs = 1, start = Date.parse('2030-01-01T00:00:00.000Z')) {
  let t = start;
  return {
    now: () => new Date((t += stepMs) - stepMs),
    set: (ms: number) => void (t = ms),
  };
}

/** An active registered bot of `game`. */
export function activeBot(store: Store, name: string, game = 'tictactoe'): Promise<BotRow> {
  return store.createBot({
    game,
    name,
    endpoint: `http://127.0.0.1:9/${encodeURIComponent(name)}`,
    status: 'active',
    tokenHash: 'scrypt$salt$hash',
    capacity: 2,
    ownerContact: 'owner@example.org',
  });
}

/** A queued match between these bots. */
export function queued(store: Store, bots: readonly BotRow[], o: Partial<NewMatchRow> = {}): Promise<MatchRow> {
  const game = bots[0]?.game ?? 'tictactoe';
  return store.createMatch({
    game,
    kind: 'ladder',
    rated: true,
    seed: 7,
    config: { size: 3 },
    job: { game, seats: bots.map((b) => ({ bot: b.endpoint, name: b.name })) },
    seats: bots.map((b) => b.id),
    ...o,
  });
}

/** A running match between these bots. */
export async function running(store: Store, bots: readonly BotRow[], o: Partial<NewMatchRow> = {}): Promise<MatchRow> {
  const m = await queued(store, bots, o);
  if (!(await store.startMatch(m.id))) throw new Error(`match ${m.id} did not start`);
  return (await store.getMatch(m.id))!;
}

/** A result line for a match ended with these ranks by slot (the second seat faulted when `fault`). */
export function resultOf(m: MatchRow, ranks: readonly number[], fault = false): ResultLine {
  return {
    game: m.game,
    seed: m.seed,
    turns: 5,
    winner: ranks.filter((r) => r === 1).length === 1 ? ranks.indexOf(1) : null,
    draw: ranks.filter((r) => r === 1).length > 1,
    players: m.seats.map((s, slot) => ({
      slot,
      name: s.name,
      bot: `http://bot/${slot}`,
      rank: ranks[slot]!,
      score: null,
      fault: fault && slot === 1 ? { turn: 3, kind: 'timeout', detail: 'no answer within 1000 ms' } : null,
    })),
    durationMs: 12,
  };
}

/** Everything a finished match leaves (no ratings unless `extra` gives them). */
export function finishOf(m: MatchRow, ranks: readonly number[], extra: Partial<MatchFinish> = {}, fault = false): MatchFinish {
  const result = resultOf(m, ranks, fault);
  return {
    result,
    seats: result.players.map((p) => ({ slot: p.slot, botId: m.seats[p.slot]!.botId, name: p.name, rank: p.rank, score: p.score, fault: p.fault })),
    replayGz: gzipSync(JSON.stringify({ matchId: m.id, turns: [1, 2, 3] })),
    logs: m.seats.map((_, slot) => ({ slot, gz: gzipSync(JSON.stringify([{ dir: 'send', t: 0, text: `hello seat ${slot}` }])) })),
    ...extra,
  };
}

/** An ELO change of +`delta` from 1500 (or from `before`) for one bot, its first game. */
export function eloChange(botId: string, delta: number, before = 1500) {
  return {
    botId,
    system: 'elo' as const,
    before,
    after: { rating: before + delta, mu: null, sigma: null, games: 1, wins: delta > 0 ? 1 : 0, draws: delta === 0 ? 1 : 0, losses: delta < 0 ? 1 : 0 },
  };
}

/** A rating function that adds 1 to each bot's ELO: after n matches a bot is at 1500 + n, unless an update was lost. */
export const plusOne =
  (ids: string[]) =>
  (kept: ReadonlyMap<string, KeptRatings>): RatingUpdate => ({
    elo: new Map(
      ids.map((id) => {
        const k = kept.get(id)?.elo;
        const before = k?.rating ?? 1500;
        return [id, { before, row: { rating: before + 1, games: (k?.games ?? 0) + 1, wins: (k?.wins ?? 0) + 1, draws: 0, losses: 0 } }];
      }),
    ),
    skill: new Map(),
    pairs: [],
  });

/** What a failed finish must have left: the match as it was, and nothing of the ending. */
export async function nothingOfTheEnding(store: Store, m: MatchRow): Promise<string[]> {
  const now = (await store.getMatch(m.id))!;
  const problems: string[] = [];
  if (now.status !== m.status) problems.push(`status is ${now.status}, was ${m.status}`);
  if (now.result !== null) problems.push('a result was kept');
  if (now.seats.some((s) => s.rank !== null)) problems.push('seat ranks were kept');
  if (await store.getReplay(m.id)) problems.push('a replay was kept');
  for (const s of m.seats) if (await store.getLogs(m.id, s.slot)) problems.push(`seat ${s.slot}'s log was kept`);
  for (const s of m.seats) {
    if (!s.botId) continue;
    if ((await store.ratingsOf(s.botId)).length) problems.push(`${s.name} has ratings`);
    if ((await store.ratingHistory(s.botId, 'elo')).length) problems.push(`${s.name} has rating history`);
    if ((await store.headToHead(s.botId)).length) problems.push(`${s.name} has pair records`);
  }
  return problems;
}
