import type { PublicMatch } from '../../../src/api/index.js';
import { href } from '../router.js';

/** A table of matches: when, who, how it ended. */
export function MatchList(p: { items: PublicMatch[] }) {
  if (!p.items.length) return <p class="muted">No matches yet.</p>;
  return (
    <table class="matches">
      <thead>
        <tr>
          <th>when</th>
          <th>game</th>
          <th>seats</th>
          <th>result</th>
        </tr>
      </thead>
      <tbody>
        {p.items.map((m) => (
          <tr>
            <td>{new Date(m.finishedAt ?? m.createdAt).toLocaleString()}</td>
            <td>{m.game}</td>
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
