import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { PublicMatch, SeatLog } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import type { PersonSeat } from '../player/person.js';

/** The owner token this browser keeps for a bot (saved at registration), if any. */
export function ownerToken(botId: string | null): string {
  return (botId && localStorage.getItem(`botarena.owner.${botId}`)) || '';
}

/**
 * A seat's full message log, for its bot's owner (the owner token, or the admin's): every message sent and
 * received byte for byte, the bot's stderr and what the transport noted (timeouts, HTTP statuses other than 200),
 * each with its time since the match started.
 */
export function Logs(p: { match: PublicMatch; tokens: PersonSeat[] }) {
  // The owner token of a seat's bot, if this browser registered it; else the viewer token of a test match started
  // here, which reads the seats that are no one's registered bot (a URL, a built-in bot, a person).
  const viewer = localStorage.getItem(`botarena.viewer.${p.match.id}`) ?? '';
  const firstOwned = p.match.seats.find((s) => ownerToken(s.botId));
  const [slot, setSlot] = useState(firstOwned?.slot ?? 0);
  const [token, setToken] = useState(ownerToken(firstOwned?.botId ?? null) || viewer);
  const [entries, setEntries] = useState<SeatLog | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (p.match.status !== 'finished' && p.match.status !== 'aborted') return null;
  const load = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setEntries(await api<SeatLog>('GET', `/api/matches/${encodeURIComponent(p.match.id)}/logs/${slot}`, { token: token.trim() }));
    } catch (err) {
      setEntries(null);
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <section class="logs">
      <h2>Message log</h2>
      <form onSubmit={load} class="inline">
        <label>
          seat{' '}
          <select
            value={slot}
            onChange={(e) => {
              const s = Number((e.target as HTMLSelectElement).value);
              setSlot(s);
              setToken(ownerToken(p.match.seats[s]?.botId ?? null) || viewer || token);
            }}
          >
            {p.match.seats.map((s) => (
              <option value={s.slot}>
                {s.slot}: {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          token{' '}
          <input
            type="password"
            value={token}
            onInput={(e) => setToken((e.target as HTMLInputElement).value)}
            placeholder="the bot's owner token (kept for a test match you started)"
            autocomplete="off"
            aria-label="token"
          />
        </label>
        <button type="submit" data-testid="show-log">
          show the log
        </button>
      </form>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {entries ? <LogTable entries={entries} testid="log" /> : null}
    </section>
  );
}

/** A seat's message log as a table: the time since the match started, which way, the bytes. */
export function LogTable(p: { entries: SeatLog; testid: string; caption?: ComponentChildren }) {
  return (
    <table class="log" data-testid={p.testid}>
      {p.caption ? <caption>{p.caption}</caption> : null}
      <thead>
        <tr>
          <th>ms</th>
          <th>what</th>
          <th>bytes</th>
        </tr>
      </thead>
      <tbody>
        {p.entries.map((e) => (
          <tr class={`dir-${e.dir}`}>
            <td>{e.t.toFixed(1)}</td>
            <td>{e.dir === 'send' ? 'sent →' : e.dir === 'recv' ? '← received' : e.dir}</td>
            <td>
              <pre>{e.text}</pre>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
