import { useEffect, useState } from 'preact/hooks';
import type { ContestDetail, ContestMatchList, ContestResults as ResultsAnswer } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import { href } from '../router.js';
import { ProgressBar, STATUS_WORDS } from './contests.js';
import { AdminActions, EnterForm } from './contest-forms.js';

const message = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/**
 * The results as the API gives them (`results` of GET /api/contests/ID/results): the contest rules' ContestResults
 * (src/contests/results.ts), of which the page reads these parts. The web app does not import the contest rules.
 */
interface Standing {
  place: number;
  entrant: number;
  name: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  points: number;
  byes: number;
  score: number;
  interval: [number, number] | null;
  out: number | null;
  faults: Record<string, number>;
}
interface Results {
  matches: number;
  errors: number;
  format: string;
  interval?: { method: string; level: number; samples: number };
  standings: Standing[];
  matrix: { games: number; wins: number; draws: number; losses: number; points: number }[][];
  perConfig: { label: string; standings: Omit<Standing, 'interval' | 'out' | 'place'>[] }[];
  champion: number | null;
}

/** Points as people write them: 2, 2.5. */
const pts = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** A score with its interval: 0.625 ± 0.120. */
const scoreText = (s: Standing) => (s.interval ? `${s.score.toFixed(3)} ± ${((s.interval[1] - s.interval[0]) / 2).toFixed(3)}` : s.score.toFixed(3));

/** `#/contests/ID`: the contest's definition, entrants, the progress of its final, its results and matches, its archive. */
export function ContestPage(p: { id: string }) {
  const [contest, setContest] = useState<ContestDetail | null>(null);
  const [results, setResults] = useState<ResultsAnswer | null>(null);
  const [matches, setMatches] = useState<ContestMatchList>([]);
  const [error, setError] = useState<string | null>(null);
  const path = `/api/contests/${encodeURIComponent(p.id)}`;
  const load = async () => {
    try {
      const c = await api<ContestDetail>('GET', path);
      setContest(c);
      setError(null);
      if (c.status === 'running' || c.status === 'done') {
        const [r, m] = await Promise.all([api<ResultsAnswer>('GET', `${path}/results`), api<ContestMatchList>('GET', `${path}/matches`)]);
        setResults(r);
        setMatches(m);
      }
      return c;
    } catch (err) {
      setError(message(err));
      return null;
    }
  };
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Read again every few seconds while the final is played, so the progress and the standings follow it.
    // A read that fails once the contest was shown (the server restarting) is said under the page and tried again.
    let last: ContestDetail | null = null;
    const tick = async () => {
      const c = (await load()) ?? last;
      last = c;
      if (!stop && c && c.status !== 'done') timer = setTimeout(() => void tick(), c.status === 'running' ? 2000 : 10_000);
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [p.id]);
  if (error && !contest)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!contest) return <p class="muted">loading…</p>;
  const c = contest;
  const def = c.definition as {
    configs?: { label: string; config: Record<string, unknown> }[];
    gamesPerPairing?: number;
    rounds?: number;
    timeRules?: Record<string, number>;
    seed?: number;
  };
  const names = new Map(c.entries.map((e) => [e.botId, e.name]));
  const r = (results?.results ?? null) as Results | null;
  return (
    <main class="contest">
      <h1>{c.name}</h1>
      <p>
        <span class={`status status-${c.status}`} data-testid="contest-status">
          {STATUS_WORDS[c.status] ?? c.status}
        </span>{' '}
        · <a href={href('games', c.game)}>{c.game}</a> · {c.format}
        {def.rounds !== undefined ? `, ${def.rounds} rounds` : ''}
      </p>
      <h2>Definition</h2>
      <dl class="facts" data-testid="definition">
        <dt>entry window</dt>
        <dd>
          {when(c.opensAt)} to {when(c.closesAt)}
          {c.frozenAt ? ` · frozen ${when(c.frozenAt)}` : ''}
        </dd>
        <dt>maps</dt>
        <dd>
          {(def.configs ?? []).map((m, i) => (
            <span>
              {i ? ', ' : ''}
              <b>{m.label}</b>
              {Object.keys(m.config ?? {}).length ? (
                <span class="muted">
                  {' '}
                  (
                  {Object.entries(m.config)
                    .map(([k, v]) => `${k}=${typeof v === 'string' && v.length > 24 ? `${v.length} characters` : String(v)}`)
                    .join(', ')}
                  )
                </span>
              ) : null}
            </span>
          ))}
        </dd>
        <dt>games per pairing and map</dt>
        <dd>{def.gamesPerPairing ?? '?'}</dd>
        <dt>time rules</dt>
        <dd>
          {def.timeRules && Object.keys(def.timeRules).length
            ? Object.entries(def.timeRules)
                .map(([k, v]) => timeRuleText(k, v))
                .join(', ')
            : "the game's"}
        </dd>
        <dt>seed</dt>
        <dd>{def.seed ?? '?'}</dd>
      </dl>
      <h2>Entrants ({c.entries.length})</h2>
      {c.entries.length ? (
        <table data-testid="entrants">
          <thead>
            <tr>
              <th>bot</th>
              <th>entered</th>
              <th>version in the final</th>
            </tr>
          </thead>
          <tbody>
            {c.entries.map((e) => (
              <tr data-testid="entrant" data-bot={e.botId}>
                <td>
                  <a href={href('bots', e.botId)}>{e.name}</a>
                  {e.builtin ? <span class="muted"> (built-in)</span> : null}
                </td>
                <td>{when(e.enteredAt)}</td>
                <td class="version">
                  {!e.frozen
                    ? c.status === 'entry'
                      ? 'fixed at the freeze'
                      : '-'
                    : e.frozen.kind === 'upload'
                      ? `upload v${e.frozen.version ?? '?'}, sha256 ${(e.frozen.sha256 ?? '').slice(0, 16)}…`
                      : `${e.frozen.kind}: ${e.frozen.spec}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No entrant yet.</p>
      )}
      {c.status === 'entry' ? (
        <>
          <p class="muted">{c.practice}</p>
          <EnterForm contest={c} onEntered={() => void load()} />
        </>
      ) : null}
      <AdminActions contest={c} onDone={() => void load()} />
      <h2>The final</h2>
      <p>
        <ProgressBar progress={c.progress} status={c.status} />
      </p>
      {r && r.standings?.length ? (
        <>
          <h2>{results?.final ? 'Results' : 'Results so far'}</h2>
          <p class="muted">
            {r.matches} matches counted{r.errors ? `, ${r.errors} ended as an error (only their faults count)` : ''}. Score: points per game (a win 1, a draw
            ½), with its {Math.round((r.interval?.level ?? 0.95) * 100)} % {r.interval?.method ?? 'bootstrap'} interval over the games.
          </p>
          <table data-testid="standings">
            <thead>
              <tr>
                <th>#</th>
                <th>entrant</th>
                <th>games</th>
                <th>won / drawn / lost</th>
                <th>points</th>
                <th>score ± (95 %)</th>
                {r.format === 'knockout' ? <th>out in round</th> : null}
              </tr>
            </thead>
            <tbody>
              {r.standings.map((s) => (
                <tr data-testid="standing">
                  <td>{s.place}</td>
                  <td>{s.name}</td>
                  <td>{s.games}</td>
                  <td>
                    {s.wins} / {s.draws} / {s.losses}
                  </td>
                  <td>
                    {pts(s.points)}
                    {s.byes ? ` (${s.byes} bye${s.byes > 1 ? 's' : ''})` : ''}
                  </td>
                  <td data-testid="score" title={s.interval ? `[${s.interval[0].toFixed(3)}, ${s.interval[1].toFixed(3)}]` : undefined}>
                    {scoreText(s)}
                  </td>
                  {r.format === 'knockout' ? <td>{s.out ?? (r.champion === s.entrant ? 'champion' : '-')}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
          <Matrix results={r} />
          {(r.perConfig ?? []).map((m) => (
            <>
              <h3>Map {m.label}</h3>
              <table data-testid={`per-map-${m.label}`}>
                <thead>
                  <tr>
                    <th>entrant</th>
                    <th>games</th>
                    <th>won / drawn / lost</th>
                    <th>points</th>
                    <th>score</th>
                  </tr>
                </thead>
                <tbody>
                  {[...m.standings]
                    .sort((a, b) => b.points - a.points || a.games - b.games)
                    .map((s) => (
                      <tr>
                        <td>{s.name}</td>
                        <td>{s.games}</td>
                        <td>
                          {s.wins} / {s.draws} / {s.losses}
                        </td>
                        <td>{pts(s.points)}</td>
                        <td>{s.score.toFixed(3)}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </>
          ))}
          <h3>Faults</h3>
          {r.standings.some((s) => Object.keys(s.faults ?? {}).length) ? (
            <table data-testid="faults">
              <thead>
                <tr>
                  <th>entrant</th>
                  <th>faults</th>
                </tr>
              </thead>
              <tbody>
                {r.standings
                  .filter((s) => Object.keys(s.faults ?? {}).length)
                  .map((s) => (
                    <tr>
                      <td>{s.name}</td>
                      <td>
                        {Object.entries(s.faults)
                          .map(([k, n]) => `${k} ×${n}`)
                          .join(', ')}
                      </td>
                    </tr>
                  ))}
              </tbody>
            </table>
          ) : (
            <p class="muted" data-testid="faults">
              No entrant faulted.
            </p>
          )}
        </>
      ) : null}
      {matches.length ? (
        <>
          <h2>Matches of the final ({matches.length})</h2>
          <table data-testid="contest-matches">
            <thead>
              <tr>
                <th>match</th>
                <th>map</th>
                <th>seats</th>
                <th>result</th>
              </tr>
            </thead>
            <tbody>
              {matches.map((m) => (
                <tr data-testid="contest-match">
                  <td>
                    <a href={href('matches', m.matchId)}>{m.key}</a>
                  </td>
                  <td>{m.config}</td>
                  <td>{m.seats.map((b) => names.get(b) ?? b).join(' vs ')}</td>
                  <td>
                    {m.status !== 'finished'
                      ? m.status
                      : m.draw
                        ? 'draw'
                        : m.winner !== null
                          ? `${names.get(m.seats[m.winner] ?? '') ?? `seat ${m.winner}`} won`
                          : 'no winner'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {c.status === 'done' ? (
        <>
          <h2>Archive</h2>
          <p>
            <a href={`${path}/archive`} download={`${c.id}.tar.gz`} data-testid="archive">
              download the archive ({c.id}.tar.gz)
            </a>
            : the definition, the entrants and their frozen versions, every match, the results and every replay. Anyone checks it without trusting this server:{' '}
            <code>botarena contest verify {c.id}.tar.gz</code>.
          </p>
        </>
      ) : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </main>
  );
}

/** A time rule in words: `turnMs` 1000 → "each answer 1000 ms" (an unknown key as it is). */
function timeRuleText(key: string, value: number): string {
  const words: Record<string, string> = { initMs: 'first message', turnMs: 'each answer', firstMs: 'first answer', bankMs: 'time bank' };
  if (key === 'strikes') return `${value} strike${value === 1 ? '' : 's'} (timeouts forgiven)`;
  return words[key] ? `${words[key]} ${value} ms` : `${key} ${value}`;
}

/** A time as the server gives it (ISO 8601), in the browser's time zone. */
function when(t: string | null): string {
  return t ? new Date(t).toLocaleString() : '-';
}

/** The pairwise matrix: the row's points against the column, over their games, in the standings' order. */
function Matrix(p: { results: Results }) {
  const order = p.results.standings.map((s) => s.entrant);
  const name = new Map(p.results.standings.map((s) => [s.entrant, s.name]));
  return (
    <>
      <h3>Pairwise</h3>
      <p class="muted">Each cell: the row's points against the column, out of their games.</p>
      <table class="matrix" data-testid="matrix">
        <thead>
          <tr>
            <th />
            {order.map((i) => (
              <th>{name.get(i)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {order.map((row) => (
            <tr>
              <th>{name.get(row)}</th>
              {order.map((col) => {
                const cell = p.results.matrix?.[row]?.[col];
                return <td>{row === col ? '–' : cell?.games ? `${pts(cell.points)}/${cell.games}` : '·'}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
