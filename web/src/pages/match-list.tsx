import type { PublicMatch } from '../../../src/api/index.js';
import { href } from '../router.js';

/** A table of matches: when, game, (with `kinds`: its kind and whether rated), who, how it ended. */
export function MatchList(p: { items: PublicMatch[]; kinds?: boolean }) {
  if (!p.items.length) return <p class="muted">No matches yet.</p>;
  return (
    <table class="matches" data-testid="match-list">
      <thead>
        <tr>
          <th>when</th>
          <th>game</th>
          {p.kinds ? <th>kind</th> : null}
          <th>seats</th>
          <th>result</th>
        </tr>
      </thead>
      <tbody>
        {p.items.map((m) => (
          <tr data-testid="match-row" data-id={m.id}>
            <td>{new Date(m.finishedAt ?? m.startedAt ?? m.createdAt).toLocaleString()}</td>
            <td>{m.game}</td>
            {p.kinds ? (
              <td>
                {m.kind}
                {m.rated ? ', rated' : ''}
              </td>
            ) : null}
            <td>
              <a href={href('matches', m.id)}>{m.seats.map((s) => s.name).join(' vs ')}</a>
            </td>
            <td>
              {m.status !== 'finished' ? m.status : m.result?.draw ? 'draw' : m.result?.winner != null ? `${m.seats[m.result.winner]?.name} won` : 'no winner'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
