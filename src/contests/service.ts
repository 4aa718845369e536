import { gunzipSync } from 'node:zlib';
import { newJob } from '../arena/match-job.js';
import { badRequest, conflict, notFound } from '../core/request-errors.js';
import type { Replay, ResultLine } from '../core/replay.js';
import type { BotRow, ContestEntryRow, ContestMatchRow, ContestRow, MatchStatus, Store } from '../store/index.js';
import { buildArchive, contestLine, writeArchive } from './archive.js';
import { checkDefinition, CONTEST_LIMITS, ContestDefinitionError, type ContestDefinition, type ContestEntrant } from './definition.js';
import { expectedMatches, jobFor, planFinal, type FinalPlan, type PlayedMatch } from './plan.js';
import { contestResults, resultsJson, type ContestMatchLine, type ContestResults } from './results.js';
import { CONTEST_REPLAYS, contestMatchId, entrantOf, replaysOf, type FrozenVersion } from './entrants.js';

export { CONTEST_REPLAYS, isContestMatchId, type FrozenVersion } from './entrants.js';

// Contests on the server (issue 38): what the routes and the runner call. Every step reads the store and
// writes it; nothing is held here between calls, so any step may be repeated after a crash, by this server or
// another one on the same store: the freeze writes each entrant's version once, and each planned match is
// created once (its plan key is unique in the contest) and handed to the queue when it is created.

/** What the contests need from the server. */
export interface ContestDeps {
  store: Store;
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
  /** hands a created match to the queue, with its seats' bot specs (which say where it can be played); a failure leaves it queued in the store, for the reconciler */
  enqueue: (matchId: string, bots: readonly string[]) => Promise<void>;
  /** runs the doctor's check of a bot now and gives its report (null: it could not run) */
  doctor?: (bot: BotRow) => Promise<unknown>;
  /** the server's clock, epoch ms */
  now?: () => number;
}

/** A contest's final as far as the store has it: its plan, and the matches created for it by key. */
interface FinalState {
  def: ContestDefinition;
  entries: ContestEntryRow[];
  entrants: ContestEntrant[];
  matches: ContestMatchRow[];
  plan: FinalPlan;
}

/** Entrants whose version is fixed at once at the freeze (a URL bot's is a doctor check: a short match). */
const FREEZE_CHECKS = 4;

/** Archives of finished contests kept in memory, the most recently made. */
const ARCHIVES_KEPT = 4;

/** Contests: create, enter, freeze, start, advance the final, and read them. */
export class Contests {
  constructor(private readonly d: ContestDeps) {}

  private now(): number {
    return this.d.now?.() ?? Date.now();
  }

  /** Checks an untrusted definition and creates the contest (taking entries). */
  async create(untrusted: unknown): Promise<ContestRow> {
    let def: ContestDefinition;
    try {
      def = checkDefinition(untrusted);
    } catch (err) {
      if (err instanceof ContestDefinitionError) throw badRequest(err.message);
      throw err;
    }
    const row = await this.d.store.createContest({ id: def.id, game: def.game, name: def.name, definition: def, closesAt: def.closesAt });
    this.d.log.info({ contest: def.id }, `contest ${def.id} created (${def.format}, ${def.game}), entries ${def.opensAt} to ${def.closesAt}`);
    return row;
  }

  async get(id: string): Promise<ContestRow> {
    const c = await this.d.store.getContest(id);
    if (!c) throw notFound(`no contest ${JSON.stringify(id)}`);
    return c;
  }

  /** A bot enters, within the contest's entry window. */
  async enter(id: string, bot: BotRow): Promise<ContestEntryRow> {
    const c = await this.get(id);
    const def = c.definition as ContestDefinition;
    if (c.status !== 'entry')
      throw conflict(`contest ${id} takes no more entries: it is ${c.status} (entries closed at the freeze${c.frozenAt ? `, ${c.frozenAt}` : ''})`);
    const now = this.now();
    if (now < Date.parse(def.opensAt)) throw conflict(`contest ${id} takes entries from ${def.opensAt}; it is ${new Date(now).toISOString()}`);
    if (now >= Date.parse(def.closesAt)) throw conflict(`contest ${id}'s entries closed at ${def.closesAt}`);
    if (bot.game !== c.game) throw badRequest(`bot: ${bot.name} plays ${bot.game}; contest ${id} is played in ${c.game}`);
    if (bot.status === 'deleted') throw notFound(`no bot ${JSON.stringify(bot.id)}`);
    // A final past the limits could never be planned: the entry that would make it so is refused.
    const n = (await this.d.store.contestEntries(id)).length + 1;
    if (n > CONTEST_LIMITS.entrants || expectedMatches(def, n) > CONTEST_LIMITS.matches)
      throw conflict(
        `contest ${id} is full: with ${n} entrants its final would be ${expectedMatches(def, n)} matches (at most ${CONTEST_LIMITS.matches}, and ${CONTEST_LIMITS.entrants} entrants)`,
      );
    return this.d.store.enterContest(id, bot.id);
  }

  /**
   * Closes the entries (if they are open) and fixes each entrant's version, in seeding order (the game's ladder,
   * best first; then the order they entered): an upload's version and sha256, a URL's doctor report now.
   * Repeating it (after a crash mid-freeze) fixes only the entrants not fixed yet.
   */
  async freeze(id: string): Promise<ContestRow> {
    const c = await this.get(id);
    if (c.status === 'entry' && (await this.d.store.closeEntries(id))) this.d.log.info({ contest: id }, `contest ${id} frozen: entries closed`);
    const entries = await this.d.store.contestEntries(id);
    if (entries.some((e) => e.frozen === null)) {
      const ratings = new Map((await this.d.store.ratingsFor(c.game, 'elo')).map((r) => [r.botId, r.rating]));
      // Seeding: a place already given stays (a freeze a crash cut off wrote some, in any order: the checks run
      // side by side); the others take the places left, lowest first, by rating (the practice ladder's) then entry.
      const taken = new Set(entries.map((e) => e.place).filter((p): p is number => p !== null));
      const free = [...entries.keys()].filter((p) => !taken.has(p));
      const rest = entries
        .filter((e) => e.frozen === null)
        .map((e, i) => ({ e, i }))
        .sort((a, b) => (ratings.get(b.e.botId) ?? 1500) - (ratings.get(a.e.botId) ?? 1500) || a.i - b.i);
      // The URL bots' doctor checks run FREEZE_CHECKS at a time (each plays a short canned match); each entrant's
      // version is written as soon as it is known, with its place.
      let next = 0;
      const worker = async () => {
        while (next < rest.length) {
          const k = next++;
          const e = rest[k]!.e;
          const frozen = await this.frozenVersion(await this.d.store.getBot(e.botId), e);
          await this.d.store.freezeEntry(id, e.botId, frozen, free[k]!);
        }
      };
      await Promise.all(Array.from({ length: Math.min(FREEZE_CHECKS, rest.length) }, worker));
    }
    return this.get(id);
  }

  private async frozenVersion(bot: BotRow | null, e: ContestEntryRow): Promise<FrozenVersion> {
    const at = new Date(this.now()).toISOString();
    if (!bot) return { kind: 'command', spec: '', at };
    const spec = bot.endpoint;
    if (bot.builtin) return { kind: 'builtin', spec, at };
    if (spec.startsWith('upload:')) {
      const sha256 = /^upload:[^:]+:([0-9a-f]{64})/.exec(spec)?.[1] ?? null;
      return { kind: 'upload', spec, version: bot.activeVersion, sha256, at };
    }
    if (/^https?:|^http\+form:/i.test(spec)) {
      let doctor: unknown = null;
      try {
        doctor = this.d.doctor ? await this.d.doctor(bot) : bot.doctorReport ? (JSON.parse(bot.doctorReport) as unknown) : null;
      } catch (err) {
        this.d.log.warn({ bot: bot.id }, `contest freeze: ${e.name}'s doctor check could not run: ${(err as Error).message}`);
      }
      return { kind: 'url', spec, doctor, at };
    }
    if (spec.startsWith('connect')) return { kind: 'connect', spec, at };
    return { kind: 'command', spec, at };
  }

  /** Starts the final (freezing first if need be): at least two entrants, each with its version fixed. */
  async start(id: string): Promise<ContestRow> {
    let c = await this.get(id);
    if (c.status === 'running' || c.status === 'done') throw conflict(`contest ${id} is ${c.status} already`);
    c = await this.freeze(id);
    const entries = await this.d.store.contestEntries(id);
    if (entries.length < 2) throw conflict(`contest ${id} has ${entries.length} entrant${entries.length === 1 ? '' : 's'}; a final needs at least 2`);
    // A final too large to plan (entries that raced past the limit) is refused before it runs, not stuck running.
    try {
      planFinal(c.definition as ContestDefinition, entries.length, []);
    } catch (err) {
      if (err instanceof ContestDefinitionError) throw conflict(`contest ${id} cannot start: ${err.message}`);
      throw err;
    }
    if (!(await this.d.store.startContest(id))) {
      const now = await this.get(id);
      if (now.status === 'running' || now.status === 'done') return now;
      throw conflict(`contest ${id} could not start: it is ${now.status}, and every entrant's version must be fixed first`);
    }
    this.d.log.info({ contest: id }, `contest ${id}: the final starts (${entries.length} entrants)`);
    await this.advance(id);
    return this.get(id);
  }

  /** The final as the store has it, planned from the results so far. */
  private async state(c: ContestRow): Promise<FinalState> {
    const def = c.definition as ContestDefinition;
    const entries = await this.d.store.contestEntries(c.id);
    const entrants = entries.map(entrantOf);
    const index = new Map(entries.map((e, i) => [e.botId, i]));
    const matches = await this.d.store.contestMatches(c.id);
    const played: PlayedMatch[] = [];
    for (const m of matches) {
      const seats = m.match.seats.map((s) => index.get(s.botId ?? '') ?? -1);
      if (m.match.status === 'finished' && m.match.result) played.push({ key: m.key, seats, players: m.match.result.players, error: m.match.result.error });
      // An aborted match is played again (advance); once it was CONTEST_REPLAYS times, it counts as played, as an
      // error nobody is blamed for.
      else if (m.match.status === 'aborted' && replaysOf(m.match.id) >= CONTEST_REPLAYS)
        played.push({
          key: m.key,
          seats,
          players: m.match.seats.map((s) => ({ slot: s.slot, name: s.name, bot: '', rank: 1, score: null, fault: null })),
          error: `aborted: ${m.match.abortReason ?? 'aborted'}`,
        });
    }
    return { def, entries, entrants, matches, plan: planFinal(def, entrants.length, played) };
  }

  /**
   * One step of a running final: creates the planned matches not created yet (queued, then enqueued) and marks
   * the contest done, with its results, once the plan says every match is played. Returns how many it created.
   */
  async advance(id: string): Promise<number> {
    const c = await this.get(id);
    if (c.status !== 'running') return 0;
    const s = await this.state(c);
    const have = new Map(s.matches.map((m) => [m.key, m.match]));
    let created = 0;
    for (const p of s.plan.matches) {
      const had = have.get(p.key);
      // Created already, unless it was aborted and may be played again (then under a new id, in its place).
      const again = had?.status === 'aborted' && replaysOf(had.id) < CONTEST_REPLAYS;
      if (had && !again) continue;
      const matchId = contestMatchId(c.id, p.index, p.key, again ? replaysOf(had.id) + 1 : 0);
      const job = newJob({ ...jobFor(s.def, s.entrants, p, matchId), transcripts: true });
      const row = {
        id: matchId,
        game: c.game,
        kind: 'contest' as const,
        rated: false,
        seed: p.seed,
        config: job.config,
        job,
        seats: p.seats.map((e) => s.entries[e]!.botId),
      };
      const r = await this.d.store.createContestMatch(c.id, p.key, p.index, row, again ? had.id : undefined);
      if (!r.created) continue;
      if (again)
        this.d.log.warn(
          { contest: id, match: matchId },
          `contest ${id}: match ${p.key} was aborted (${had.abortReason ?? 'no reason'}); it is played again as ${matchId}`,
        );
      created++;
      await this.d
        .enqueue(
          r.match.id,
          job.seats.map((seat) => seat.bot),
        )
        .catch((err: unknown) =>
          this.d.log.warn(
            { match: r.match.id },
            `contest ${id}: match ${p.key} could not be enqueued now (${(err as Error).message}); it will be when the queue is reachable`,
          ),
        );
    }
    if (created) this.d.log.info({ contest: id }, `contest ${id}: ${created} match${created === 1 ? '' : 'es'} of the final created`);
    const over = s.matches.every((m) => m.match.status === 'finished' || (m.match.status === 'aborted' && replaysOf(m.match.id) >= CONTEST_REPLAYS));
    if (s.plan.done && created === 0 && over) {
      const results = this.resultsOf(s);
      if (await this.d.store.finishContest(id, results)) this.d.log.info({ contest: id }, `contest ${id}: the final is over (${s.matches.length} matches)`);
    }
    return created;
  }

  /** The finished matches as the archive's lines, with their place in the plan. */
  private lines(s: FinalState): ContestMatchLine[] {
    const planned = new Map(s.plan.matches.map((p) => [p.key, p]));
    const index = new Map(s.entries.map((e, i) => [e.botId, i]));
    return s.matches.flatMap((m) => {
      const p = planned.get(m.key);
      if (m.match.status !== 'finished' || !m.match.result || !p) return [];
      const line: ContestMatchLine = {
        ...(m.match.result as ResultLine),
        index: p.index,
        key: m.key,
        round: p.round,
        config: p.config,
        seats: m.match.seats.map((x) => index.get(x.botId ?? '') ?? -1),
        matchId: m.match.id,
        replay: `replays/${m.match.id}.json`,
      };
      return [line];
    });
  }

  private resultsOf(s: FinalState): ContestResults {
    return contestResults(s.def, s.entrants, this.lines(s));
  }

  /** A contest with its entrants and its progress. */
  async detail(id: string) {
    const c = await this.get(id);
    return { contest: c, entries: await this.d.store.contestEntries(id), progress: await this.progress(c) };
  }

  /** How far the final is: matches created by status, and how many it will have. */
  async progress(c: ContestRow): Promise<Record<MatchStatus, number> & { planned: number; total: number | null }> {
    const counts = await this.d.store.contestMatchCounts(c.id);
    const planned = counts.queued + counts.running + counts.finished + counts.aborted;
    const def = c.definition as ContestDefinition;
    let total: number | null = null;
    if (def.format === 'round-robin' || def.format === 'double-round-robin') {
      const n = (await this.d.store.contestEntries(c.id)).length;
      total = n >= 2 ? ((n * (n - 1)) / 2) * (def.format === 'double-round-robin' ? 2 : 1) * def.gamesPerPairing * def.configs.length : 0;
    }
    return { ...counts, planned, total };
  }

  /** The final's matches, in the plan's order, each with the label of its configuration (the key's `c{index}`). */
  async matches(id: string): Promise<(ContestMatchRow & { config: string })[]> {
    const c = await this.get(id);
    const configs = (c.definition as ContestDefinition).configs;
    return (await this.d.store.contestMatches(id)).map((m) => ({ ...m, config: configs[Number(/:c(\d+):/.exec(m.key)?.[1])]?.label ?? '' }));
  }

  /** The standings: the published ones once done, else computed from the matches finished so far. */
  async results(id: string): Promise<{ contest: ContestRow; results: ContestResults | null }> {
    const c = await this.get(id);
    if (c.status === 'done') return { contest: c, results: c.results as ContestResults };
    if (c.status !== 'running') return { contest: c, results: null };
    // The standings so far change only when a match ends: kept until then, so viewers asking every few seconds
    // cost one count, not a read of the whole final and its results again.
    const counts = await this.d.store.contestMatchCounts(id);
    const mark = `${counts.finished}/${counts.aborted}/${counts.queued + counts.running}`;
    const kept = this.standings.get(id);
    if (kept?.mark === mark) return { contest: c, results: kept.results };
    const results = this.resultsOf(await this.state(c));
    this.standings.set(id, { mark, results });
    while (this.standings.size > ARCHIVES_KEPT * 4) this.standings.delete(this.standings.keys().next().value!);
    return { contest: c, results };
  }

  /** The standings so far of running finals, with the match counts they were made at (see `results`). */
  private readonly standings = new Map<string, { mark: string; results: ContestResults }>();

  /**
   * The archive of a finished contest (core's archive.ts): its definition and entrants, each finished match's
   * line (from its replay) and replay, and the results published when the final ended.
   */
  async archive(id: string): Promise<Buffer> {
    const c = await this.get(id);
    if (c.status !== 'done') throw conflict(`contest ${id} is ${c.status}: its archive is made once the final is over`);
    // A finished contest never changes: its archive is made once and kept (the last few), so downloads cost no
    // more than sending the bytes.
    let made = this.archives.get(id);
    if (!made) {
      made = this.makeArchive(c);
      this.archives.set(id, made);
      made.catch(() => this.archives.delete(id));
      while (this.archives.size > ARCHIVES_KEPT) this.archives.delete(this.archives.keys().next().value!);
    }
    return made;
  }

  private readonly archives = new Map<string, Promise<Buffer>>();

  private async makeArchive(c: ContestRow): Promise<Buffer> {
    const id = c.id;
    const s = await this.state(c);
    const planned = new Map(s.plan.matches.map((p) => [p.key, p]));
    const lines: ContestMatchLine[] = [];
    const replays = new Map<string, Replay>();
    for (const m of s.matches) {
      const p = planned.get(m.key);
      if (m.match.status !== 'finished' || !p) continue;
      const gz = await this.d.store.getReplay(m.match.id);
      if (!gz) throw conflict(`contest ${id}: match ${m.match.id}'s replay is missing from the store`);
      const replay = JSON.parse(gunzipSync(gz).toString('utf8')) as Replay;
      replays.set(m.match.id, replay);
      lines.push(contestLine(p, m.match.id, replay));
    }
    const built = buildArchive(s.def, s.entrants, lines, replays);
    // results.json is what was published at the end (verify recomputes it from the replays and compares).
    return writeArchive({ ...built, results: resultsJson(c.results as ContestResults) });
  }

  /** One look at every contest: freezes those whose window closed, finishes freezes a crash cut off, advances running finals. */
  async tick(): Promise<void> {
    const now = this.now();
    // Each contest apart: one that fails (its store rows, its plan) is logged and tried again next time, and
    // never keeps the others from going on.
    const each = async (c: ContestRow, what: string, f: () => Promise<unknown>) => {
      try {
        await f();
      } catch (err) {
        this.d.log.warn({ contest: c.id }, `contest ${c.id}: ${what} failed: ${(err as Error).message}`);
      }
    };
    for (const c of await this.d.store.listContests({ status: 'entry', limit: 1000 }))
      if (c.closesAt !== null && Date.parse(c.closesAt) <= now) await each(c, 'the freeze', () => this.freeze(c.id));
    for (const c of await this.d.store.listContests({ status: 'frozen', limit: 1000 }))
      await each(c, 'the freeze', async () => ((await this.d.store.contestEntries(c.id)).some((e) => e.frozen === null) ? this.freeze(c.id) : null));
    for (const c of await this.d.store.listContests({ status: 'running', limit: 1000 })) await each(c, 'the final', () => this.advance(c.id));
  }
}
