// Checking a contest's archive without trusting the server that wrote it: every replay re-played (each must
// reproduce), every match line's result equal to its replay's, the set of matches equal to the plan of the
// definition (none missing, added or twice), and the results recomputed from the replays equal to the published
// results.json. `botarena contest verify ARCHIVE` prints what this returns.
import { ReplayMismatchError } from '../core/errors.js';
import type { AnyGame } from '../core/definition.js';
import { resultLine, verifyReplay, type Replay } from '../core/replay.js';
import { getGame } from '../games/index.js';
import { replayPath, type ContestArchive } from './archive.js';
import { planFinal } from './plan.js';
import { contestResults, type ContestMatchLine } from './results.js';

/** What verify found: what it checked (sentences), and every difference (each naming the match or file and the field). */
export interface VerifyReport {
  ok: boolean;
  checked: string[];
  differences: string[];
}

/** A value in a message: JSON, cut at 80 characters. */
function shown(v: unknown): string {
  const text = v === undefined ? '(none)' : JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Every path (`a.b[2].c`) where two JSON values differ, at most `max`. */
export function jsonDifferences(a: unknown, b: unknown, path = '', max = 50, out: string[] = []): string[] {
  if (out.length >= max) return out;
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.push(`${path || '(top)'}: ${a.length} items published, ${b.length} recomputed`);
      return out;
    }
    a.forEach((v, i) => jsonDifferences(v, b[i], `${path}[${i}]`, max, out));
    return out;
  }
  if (isObj(a) && isObj(b) && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) jsonDifferences(a[k], b[k], path ? `${path}.${k}` : k, max, out);
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${path || '(top)'}: published ${shown(a)}, recomputed ${shown(b)}`);
  return out;
}

/** The fields of a match line that its replay decides (durationMs is timing: never compared). */
const RESULT_FIELDS = ['game', 'seed', 'turns', 'winner', 'draw', 'reason', 'error', 'players'] as const;

/** The fields of a line's seat that its replay decides. */
const PLAYER_FIELDS = ['slot', 'name', 'bot', 'rank', 'score', 'fault', 'note', 'strikes'] as const;

/**
 * Verifies an archive read by readArchive. Each difference names the match (index and key) or the file, and the
 * field; at most `maxDifferences` are listed, then how many more there were.
 */
export function verifyArchive(archive: ContestArchive, opts: { maxDifferences?: number } = {}): VerifyReport {
  const { definition: def, entrants } = archive.contest;
  const differences: string[] = [];
  const checked: string[] = [];
  const max = opts.maxDifferences ?? 500;
  let more = 0;
  const differ = (text: string) => (differences.length < max ? differences.push(text) : more++);
  const game: AnyGame = getGame(def.game);
  const name = (l: Pick<ContestMatchLine, 'index' | 'key'>) => `match ${l.index} (${l.key})`;

  // 1. Every replay re-played, and each line's result compared with its replay's.
  const replayed = new Map<number, Replay>();
  const used = new Set<string>();
  let reproduced = 0;
  let equal = 0;
  for (const l of archive.matches) {
    if (l.replay !== replayPath(l.matchId)) differ(`${name(l)}: "replay" is ${shown(l.replay)}, expected ${shown(replayPath(l.matchId))}`);
    const r = archive.replays.get(l.replay);
    if (!r) {
      differ(`${name(l)}: its replay ${l.replay} is missing from the archive`);
      continue;
    }
    used.add(l.replay);
    let ok = true;
    if (r.game !== def.game) {
      differ(`${name(l)}: its replay is a ${shown(r.game)} match; the contest plays ${def.game}`);
      continue;
    }
    try {
      verifyReplay(game, r);
      reproduced++;
    } catch (err) {
      if (!(err instanceof ReplayMismatchError)) throw err;
      differ(`${name(l)}: its replay ${l.replay} does not reproduce: ${err.message}`);
      continue;
    }
    replayed.set(l.index, r);
    const fromReplay = resultLine(r) as unknown as Record<string, unknown>;
    const line = l as unknown as Record<string, unknown>;
    for (const field of RESULT_FIELDS) {
      const [was, now] = [line[field] ?? null, fromReplay[field] ?? null];
      if (field === 'players') {
        // Only what the replay decides: timing a line may carry beside it (answer or CPU times) is not compared.
        const pick = (ps: unknown) => (ps as Record<string, unknown>[]).map((p) => Object.fromEntries(PLAYER_FIELDS.map((k) => [k, p[k] ?? null] as const)));
        const diffs = jsonDifferences(pick(was), pick(now), 'players', 10);
        for (const d of diffs) differ(`${name(l)}: ${d.replace('published', 'in matches.jsonl').replace('recomputed', 'in its replay')}`);
        if (diffs.length) ok = false;
      } else if (JSON.stringify(was) !== JSON.stringify(now)) {
        differ(`${name(l)}: "${field}" is ${shown(was)} in matches.jsonl, ${shown(now)} in its replay`);
        ok = false;
      }
    }
    // The replay is of this match: the entrants by seat, the configuration.
    r.seats.forEach((s, slot) => {
      const e = entrants[l.seats[slot]!];
      if (e && s.name !== e.name) {
        differ(`${name(l)}: seat ${slot} of its replay is ${shown(s.name)}, the line seats entrant ${l.seats[slot]} (${shown(e.name)})`);
        ok = false;
      }
      // Played by the version frozen for it (an upload's code by its sha256, a URL, a command, a built-in).
      if (e && e.bot && s.bot !== e.bot) {
        differ(`${name(l)}: seat ${slot} of its replay played ${shown(s.bot)}; entrant ${shown(e.name)} was frozen as ${shown(e.bot)}`);
        ok = false;
      }
    });
    if (r.matchId !== l.matchId) {
      differ(`${name(l)}: its replay is of match ${shown(r.matchId)}, the line says ${shown(l.matchId)}`);
      ok = false;
    }
    // Played by the contest's time rules: its deadlines as the definition sets them (the game's own where it does
    // not), and a first-answer allowance, a time bank and strikes exactly when the definition has them.
    const recorded = r.timeouts as unknown as Record<string, unknown>;
    const rules = def.timeRules as Record<string, unknown>;
    for (const k of ['initMs', 'turnMs', 'firstMs', 'bankMs', 'strikes']) {
      const fair = k !== 'initMs' && k !== 'turnMs';
      if (!fair && rules[k] === undefined) continue;
      if ((recorded[k] ?? null) !== (rules[k] ?? null)) {
        differ(`${name(l)}: its replay was played with ${k} ${shown(recorded[k] ?? null)}; the contest's time rules say ${shown(rules[k] ?? null)}`);
        ok = false;
      }
    }
    const config = def.configs.find((c) => c.label === l.config);
    for (const [k, v] of Object.entries(config?.config ?? {})) {
      if (JSON.stringify(r.config[k]) !== JSON.stringify(v)) {
        differ(`${name(l)}: its replay was played with ${k}=${shown(r.config[k])}; configuration ${l.config} sets ${shown(v)}`);
        ok = false;
      }
    }
    if (ok) equal++;
  }
  for (const path of archive.replays.keys()) if (!used.has(path)) differ(`${path}: a replay no match line names (added)`);
  checked.push(`${reproduced} of ${archive.matches.length} replays re-played and reproduce exactly`);
  checked.push(`${equal} of ${archive.matches.length} match lines have their replay's result, seats, configuration and time rules`);

  // 2. The set of matches equals the plan's (the plan of Swiss and knockout rounds follows the replays' results).
  const lines = archive.matches.map((l) => {
    const r = replayed.get(l.index);
    return r ? ({ ...l, ...resultLine(r) } as ContestMatchLine) : l;
  });
  const plan = planFinal(def, entrants.length, lines);
  const planned = new Map(plan.matches.map((m) => [m.key, m]));
  const lastRound = plan.matches.reduce((r, m) => Math.max(r, m.round), 0);
  const seenKeys = new Map<string, number>();
  const seenIndex = new Set<number>();
  let inPlan = 0;
  for (const l of archive.matches) {
    if (seenIndex.has(l.index)) differ(`${name(l)}: index ${l.index} is in matches.jsonl twice`);
    seenIndex.add(l.index);
    if (seenKeys.has(l.key)) {
      differ(`${name(l)}: the match ${l.key} is in matches.jsonl twice (also as match ${seenKeys.get(l.key)})`);
      continue;
    }
    seenKeys.set(l.key, l.index);
    const m = planned.get(l.key);
    if (!m) {
      // A Swiss or knockout round is planned from the one before: past a missing match, the plan stops.
      const beyond = !plan.done && l.round > lastRound;
      differ(
        beyond
          ? `${name(l)}: in round ${l.round}, which the plan reaches only when every match of round ${lastRound} is in the archive (see the missing ones)`
          : `${name(l)}: no such match in the plan of this ${def.format} final (added)`,
      );
      continue;
    }
    let same = true;
    for (const [field, want, got] of [
      ['index', m.index, l.index],
      ['round', m.round, l.round],
      ['config', m.config, l.config],
      ['seats', m.seats, l.seats],
      ['seed', m.seed, l.seed],
    ] as const) {
      if (JSON.stringify(want) !== JSON.stringify(got)) {
        differ(`${name(l)}: "${field}" is ${shown(got)}, the plan says ${shown(want)}`);
        same = false;
      }
    }
    if (same) inPlan++;
  }
  // The results are recomputed from the planned matches only, each once (what was added or repeated is named above).
  const counted = lines.filter((l) => planned.has(l.key) && seenKeys.get(l.key) === l.index);
  const missing = plan.matches.filter((m) => !seenKeys.has(m.key));
  for (const m of missing) differ(`match ${m.index} (${m.key}): in the plan, missing from the archive`);
  checked.push(
    `${inPlan} of ${plan.matches.length} matches of the plan (${def.format}, ${entrants.length} entrants, ${def.configs.length} configuration${def.configs.length === 1 ? '' : 's'}) are in the archive as planned${plan.done || missing.length ? '' : '; the final is not finished'}`,
  );
  if (!plan.done && !missing.length) differ(`the final is not finished: the plan has more matches to come after these`);

  // 3. The results recomputed from the replays equal the published ones.
  let published: unknown;
  try {
    published = JSON.parse(archive.results);
  } catch {
    differ(`results.json is not valid JSON`);
  }
  if (published !== undefined) {
    const recomputed = JSON.parse(JSON.stringify(contestResults(def, entrants, counted))) as unknown;
    const diffs = jsonDifferences(published, recomputed);
    for (const d of diffs) differ(`results.json ${d}`);
    if (!diffs.length) checked.push(`results.json equals the results recomputed from the replays (standings, intervals, matrix, per configuration, faults)`);
  }
  if (more) differences.push(`… and ${more} more differences`);
  return { ok: differences.length === 0, checked, differences };
}
