// What `botarena contest show` and `results` print, and the API's answers as the CLI reads them (contest-server.ts
// calls the server; this file only makes text).
import type { ContestResults, ContestStanding } from '../contests/results.js';
import { table } from './format.js';

type Json = Record<string, unknown>;

// The API's answers as this command reads them (src/api/contests.ts has their schemas; the CLI, an app, does not
// import the API's layer: it reads the JSON a server sends, which may be of another version).
/** How far a final is. */
export interface ContestProgress {
  planned: number;
  queued: number;
  running: number;
  finished: number;
  aborted: number;
  total: number | null;
}
export interface ContestSummary {
  id: string;
  name: string;
  game: string;
  status: string;
  format: string;
  opensAt: string | null;
  closesAt: string | null;
  frozenAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  entrants: number;
  progress: ContestProgress;
}
export interface ContestDetail extends ContestSummary {
  definition: Json;
  entries: {
    botId: string;
    name: string;
    builtin: boolean;
    enteredAt: string;
    frozen: { kind: string; spec: string; version?: number | null; sha256?: string | null; at: string } | null;
  }[];
  practice: string;
}
export interface ContestMatch {
  key: string;
  matchId: string;
  status: string;
  config: string;
  seats: string[];
  winner: number | null;
  draw: boolean;
}
export interface ResultsAnswer {
  contest: string;
  status: string;
  final: boolean;
  results: unknown;
}

/** A time for people, as the server gives it (ISO 8601, UTC), or a dash. */
export const when = (t: string | null | undefined) => (t ? t.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');

/** A bar of `width` characters for a fraction 0..1. */
function bar(fraction: number, width = 30): string {
  const full = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}]`;
}

/** The progress of a final in one line: how many of its matches are over, and the rest by state. */
export function progressLine(p: ContestProgress, status: string): string {
  if (status === 'entry' || status === 'frozen') return `final: not started (${status === 'entry' ? 'entries open' : 'frozen, waiting for start'})`;
  const over = p.finished + p.aborted;
  const total = p.total ?? p.planned;
  const rest = [p.running ? `${p.running} running` : '', p.queued ? `${p.queued} queued` : '', p.aborted ? `${p.aborted} aborted` : ''].filter(Boolean);
  const of = p.total === null ? `${total} planned so far` : `${total}`;
  return `final: ${over}/${of} matches over ${bar(total ? over / total : 0)} ${total ? Math.floor((100 * over) / total) : 0}%${rest.length ? ` (${rest.join(', ')})` : ''}${status === 'done' ? ', done' : ''}`;
}

/** What `show` prints: the contest, its definition, its entrants and the final's progress. */
export function showText(c: ContestDetail): string {
  const def = c.definition;
  const lines = [
    `${c.name} (${c.id}): ${c.game}, ${c.format}${def.rounds !== undefined ? ` (${String(def.rounds)} rounds)` : ''}, ${String(def.gamesPerPairing ?? '?')} game(s) per pairing and map`,
    `status: ${c.status}`,
    `entry window: ${when(c.opensAt)} to ${when(c.closesAt)}${c.frozenAt ? `; frozen ${when(c.frozenAt)}` : ''}${c.startedAt ? `; final started ${when(c.startedAt)}` : ''}${c.finishedAt ? `; done ${when(c.finishedAt)}` : ''}`,
  ];
  const configs = Array.isArray(def.configs) ? (def.configs as { label: string; config: Json }[]) : [];
  lines.push(
    `maps: ${
      configs
        .map(
          (m) =>
            `${m.label}${
              Object.keys(m.config ?? {}).length
                ? ` (${Object.entries(m.config)
                    .map(([k, v]) => `${k}=${typeof v === 'string' && v.length > 20 ? `${v.length} chars` : String(v)}`)
                    .join(' ')})`
                : ''
            }`,
        )
        .join(', ') || '-'
    }`,
  );
  const rules = (def.timeRules ?? {}) as Json;
  lines.push(
    `time rules: ${
      Object.keys(rules).length
        ? Object.entries(rules)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(' ')
        : "the game's"
    }; seed ${String(def.seed)}`,
  );
  lines.push('', `entrants: ${c.entries.length}`);
  if (c.entries.length) {
    const rows: string[][] = [['bot', 'id', 'entered', 'frozen version']];
    for (const e of c.entries) {
      const f = e.frozen;
      const version = !f
        ? c.status === 'entry'
          ? 'fixed at the freeze'
          : '-'
        : f.kind === 'upload'
          ? `upload v${f.version ?? '?'} sha256 ${(f.sha256 ?? '').slice(0, 12)}`
          : `${f.kind}: ${f.spec}`;
      rows.push([`${e.name}${e.builtin ? ' (built-in)' : ''}`, e.botId, when(e.enteredAt), version]);
    }
    lines.push(table(rows));
  }
  lines.push('', progressLine(c.progress, c.status));
  if (c.status === 'entry') lines.push(c.practice);
  return lines.join('\n');
}

/** A score with its interval: `0.625 ±0.120 [0.505, 0.745]`. */
export function scoreText(s: Pick<ContestStanding, 'score' | 'interval'>): string {
  if (!s.interval) return s.score.toFixed(3);
  const half = (s.interval[1] - s.interval[0]) / 2;
  return `${s.score.toFixed(3)} ±${half.toFixed(3)} [${s.interval[0].toFixed(3)}, ${s.interval[1].toFixed(3)}]`;
}

/** A number of points: 2, 2.5. */
const pts = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** What `results` prints: the standings, the pairwise matrix, each map's standings and the faults. */
export function resultsText(answer: ResultsAnswer): string {
  const r = answer.results as ContestResults | null;
  const head = `${answer.final ? 'final results' : `results so far (the contest is ${answer.status}; they change until the final is over)`}`;
  if (!r || !Array.isArray(r.standings)) return `${head}: none yet`;
  const names = new Map(r.standings.map((s) => [s.entrant, s.name]));
  const name = (i: number) => names.get(i) ?? `#${i}`;
  const out = [`${head}: ${r.matches} match(es) counted${r.errors ? `, ${r.errors} ended as an error (only their faults count)` : ''}`, ''];
  out.push(
    `standings (score: points per game, with its ${Math.round((r.interval?.level ?? 0.95) * 100)} % ${r.interval?.method ?? 'bootstrap'} interval over games):`,
  );
  const knockout = r.format === 'knockout';
  out.push(
    table([
      ['place', 'entrant', 'games', 'W', 'D', 'L', 'points', 'score', ...(knockout ? ['out in round'] : [])],
      ...r.standings.map((s) => [
        s.place,
        s.name,
        s.games,
        s.wins,
        s.draws,
        s.losses,
        pts(s.points) + (s.byes ? ` (${s.byes} bye${s.byes > 1 ? 's' : ''})` : ''),
        scoreText(s),
        ...(knockout ? [s.out === null ? (r.champion === s.entrant ? 'champion' : '-') : s.out] : []),
      ]),
    ]),
  );
  const order = r.standings.map((s) => s.entrant);
  if (r.matrix?.length) {
    out.push('', "pairwise (the row's points against the column / games):");
    const short = order.map((i) => name(i));
    out.push(
      table([
        ['', ...short],
        ...order.map((row, k) => [
          short[k]!,
          ...order.map((col) => (row === col ? '-' : r.matrix[row]?.[col]?.games ? `${pts(r.matrix[row][col].points)}/${r.matrix[row][col].games}` : '·')),
        ]),
      ]),
    );
  }
  for (const c of r.perConfig ?? []) {
    out.push('', `map ${c.label}:`);
    out.push(
      table([
        ['entrant', 'games', 'W', 'D', 'L', 'points', 'score'],
        ...[...c.standings]
          .sort((a, b) => b.points - a.points || a.games - b.games)
          .map((s) => [s.name, s.games, s.wins, s.draws, s.losses, pts(s.points), s.score.toFixed(3)]),
      ]),
    );
  }
  const faulty = r.standings.filter((s) => Object.keys(s.faults ?? {}).length);
  out.push('', faulty.length ? 'faults:' : 'faults: none');
  if (faulty.length)
    out.push(
      table([
        ['entrant', 'faults'],
        ...faulty.map((s) => [
          s.name,
          Object.entries(s.faults)
            .map(([k, n]) => `${k} ×${n}`)
            .join(', '),
        ]),
      ]),
    );
  return out.join('\n');
}
