import { useEffect, useState } from 'preact/hooks';
import type { BotDetail, BotVersionList, HeadToHead, MatchPage, RatingHistory, RatingHistoryRow } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import { href } from '../router.js';
import { MatchList } from './match-list.js';
import { adminToken, OwnerPanel } from './owner.js';

/** A bot: its status, doctor report, ratings over time, record against each opponent, recent matches. */
export function BotPage(p: { id: string }) {
  const [bot, setBot] = useState<BotDetail | null>(null);
  const [history, setHistory] = useState<RatingHistory>({ elo: [], openskill: [] });
  const [h2h, setH2h] = useState<HeadToHead>([]);
  const [recent, setRecent] = useState<MatchPage['items']>([]);
  const [versions, setVersions] = useState<BotVersionList>([]);
  const [error, setError] = useState<string | null>(null);
  const [deleted, setDeleted] = useState(false);
  // With the admin token kept in this browser, the bot comes with its owner's contact.
  const reload = () =>
    api<BotDetail>('GET', `/api/bots/${encodeURIComponent(p.id)}`, { token: adminToken() || undefined }).then(
      (b) => (setBot(b), b),
      (err: unknown) => (setError(err instanceof ApiError ? err.message : String(err)), null),
    );
  useEffect(() => {
    const id = encodeURIComponent(p.id);
    setDeleted(false);
    void api<BotVersionList>('GET', `/api/bots/${id}/versions`).then(setVersions, () => {});
    void reload();
    void api<RatingHistory>('GET', `/api/bots/${id}/ratings`).then(setHistory, () => {});
    void api<HeadToHead>('GET', `/api/bots/${id}/head-to-head`).then(setH2h, () => {});
    void api<MatchPage>('GET', `/api/matches?bot=${id}&limit=15`).then(
      (r) => setRecent(r.items),
      () => {},
    );
  }, [p.id]);
  if (deleted && bot)
    return (
      <p role="status" data-testid="bot-deleted">
        {bot.name} was deleted: it plays no more; its matches and ratings stay in the history. Back to the <a href={href('games', bot.game)}>{bot.game} page</a>
        .
      </p>
    );
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!bot) return <p class="muted">loading…</p>;
  const doctor = bot.doctor;
  return (
    <main>
      <h1>
        {bot.name} <span class="muted">({bot.game})</span>
      </h1>
      <p>{bot.description}</p>
      <p>
        status <b data-testid="bot-status">{bot.status}</b>
        {bot.statusReason ? `: ${bot.statusReason}` : ''} · <a href={href('games', bot.game)}>{bot.game} leaderboard</a> ·{' '}
        <a href={`${href('test')}?game=${bot.game}&bot=${bot.id}`}>test it</a>
      </p>
      <OwnerPanel bot={bot} recent={recent} reload={reload} deleted={() => setDeleted(true)} key={bot.id} />
      {versions.length ? (
        <>
          <h2>Versions of its code</h2>
          <table data-testid="versions">
            <thead>
              <tr>
                <th>version</th>
                <th>uploaded</th>
                <th>language</th>
                <th>size</th>
                <th>state</th>
              </tr>
            </thead>
            <tbody>
              {versions.map((v) => (
                <tr>
                  <td>
                    v{String(v.version)} <code class="muted">{v.sha256.slice(0, 12)}</code>
                  </td>
                  <td>{v.createdAt.slice(0, 16).replace('T', ' ')}</td>
                  <td>{v.language}</td>
                  <td>{String(Math.ceil(v.size / 1024))} KiB</td>
                  <td>
                    {v.state}
                    {v.version === bot.version ? ' (plays)' : ''}
                    {v.state === 'refused' && v.report ? <span class="muted">: {reportLine(v.report)}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <h2>Rating over time</h2>
      <RatingChart rows={history.elo} label="ELO" />
      {(bot.ratings ?? []).map((r) => (
        <p class="muted">
          {r.system}: {r.system === 'elo' ? Math.round(r.rating) : r.rating.toFixed(2)} after {String(r.games ?? 0)} games
        </p>
      ))}
      <h2>Against each opponent</h2>
      {h2h.length ? (
        <table>
          <thead>
            <tr>
              <th>opponent</th>
              <th>won</th>
              <th>drawn</th>
              <th>lost</th>
            </tr>
          </thead>
          <tbody>
            {h2h.map((r) => (
              <tr>
                <td>
                  <a href={href('bots', r.opponentId)}>{r.opponentName}</a>
                </td>
                <td>{r.wins}</td>
                <td>{r.draws}</td>
                <td>{r.losses}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No rated duels yet.</p>
      )}
      <h2>Last check</h2>
      {doctor ? (
        <>
          <p>
            {doctor.ok ? 'passed' : 'failed'}
            {doctor.latency
              ? ` · answers in ${doctor.latency.p50Ms.toFixed(1)} ms (p50), ${doctor.latency.p99Ms.toFixed(1)} ms (p99) of a ${doctor.latency.deadlineMs} ms deadline`
              : ''}
            {doctor.latency?.cpu ? `; CPU time ${doctor.latency.cpu.p50Ms.toFixed(1)} ms (p50), ${doctor.latency.cpu.p99Ms.toFixed(1)} ms (p99)` : ''}
            {doctor.latency?.http
              ? `; first byte ${doctor.latency.http.firstByteP50Ms.toFixed(1)} ms (p50), ${doctor.latency.http.firstByteP99Ms.toFixed(1)} ms (p99)`
              : ''}
          </p>
          <ul class="checks" data-testid="doctor">
            {doctor.checks.map((c) => (
              <li class={`check-${c.status}`}>
                <b>{c.status}</b> {c.name}: {c.detail}
                {c.fix ? <div class="muted">fix: {c.fix}</div> : null}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p class="muted">{bot.builtin ? 'Built-in bots are not checked.' : 'Not checked yet.'}</p>
      )}
      <h2>Recent matches</h2>
      <MatchList items={recent} />
    </main>
  );
}

/** A rating history as an SVG line (no chart library: one polyline and its axis labels). */
export function RatingChart(p: { rows: RatingHistoryRow[]; label: string }) {
  if (!p.rows.length) return <p class="muted">No rated matches yet.</p>;
  const values = [p.rows[0]!.before, ...p.rows.map((r) => r.after)];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const [w, h] = [600, 160];
  const points = values
    .map((v, i) => `${((i / Math.max(1, values.length - 1)) * (w - 50) + 45).toFixed(1)},${(h - 15 - ((v - lo) / span) * (h - 30)).toFixed(1)}`)
    .join(' ');
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${w} ${h}`}
      role="img"
      aria-label={`${p.label} from ${Math.round(values[0]!)} to ${Math.round(values[values.length - 1]!)} over ${p.rows.length} matches`}
      data-testid="rating-chart"
    >
      <text x="2" y="14">
        {Math.round(hi)}
      </text>
      <text x="2" y={h - 4}>
        {Math.round(lo)}
      </text>
      <polyline points={points} fill="none" stroke="#56B4E9" stroke-width="2" />
    </svg>
  );
}

/** A refused version's check report in one line: its first failed check's words. */
function reportLine(report: unknown): string {
  const reason = (report as { reason?: unknown } | null)?.reason;
  if (typeof reason === 'string') return reason.slice(0, 300);
  const checks = (report as { checks?: { ok?: boolean; name?: string; detail?: string }[] } | null)?.checks;
  const failed = Array.isArray(checks) ? checks.find((c) => c && c.ok === false) : undefined;
  if (failed) return `${failed.name ?? 'a check'} failed${failed.detail ? `: ${failed.detail}` : ''}`.slice(0, 300);
  return typeof report === 'string' ? report.slice(0, 300) : 'its check failed';
}
