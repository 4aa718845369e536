// The contest page's forms: an owner enters a bot; the admin freezes the entries and starts the final.
import { useEffect, useState } from 'preact/hooks';
import type { BotList, ContestDetail } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import { adminToken } from './owner.js';

const message = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/**
 * "Enter this contest": a bot of the contest's game with its owner token (kept in this browser since its
 * registration, or pasted here), or with the admin token any bot of the game.
 */
export function EnterForm(p: { contest: ContestDetail; onEntered: () => void }) {
  const [bots, setBots] = useState<BotList>([]);
  const [bot, setBot] = useState('');
  const [token, setToken] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const admin = adminToken();
  useEffect(() => {
    void api<BotList>('GET', `/api/bots?game=${encodeURIComponent(p.contest.game)}`).then(setBots, () => setBots([]));
  }, [p.contest.game]);
  const entered = new Set(p.contest.entries.map((e) => e.botId));
  // The bots this browser holds an owner token of (or every bot, for the admin), not entered yet.
  const mine = bots.filter((b) => !entered.has(b.id) && (admin || localStorage.getItem(`botarena.owner.${b.id}`) || !b.builtin));
  const chosen = bot || mine.find((b) => localStorage.getItem(`botarena.owner.${b.id}`))?.id || mine[0]?.id || '';
  const kept = chosen ? localStorage.getItem(`botarena.owner.${chosen}`) : null;
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setDone(null);
    const t = token.trim() || kept || admin;
    if (!chosen) return setError(`no bot of ${p.contest.game} to enter: register one first`);
    if (!t) return setError("paste the bot's owner token (shown once when it was registered)");
    try {
      const c = await api<ContestDetail>('POST', `/api/contests/${encodeURIComponent(p.contest.id)}/entries`, { body: { bot: chosen }, token: t });
      if (token.trim()) localStorage.setItem(`botarena.owner.${chosen}`, token.trim());
      setToken('');
      setDone(`${c.entries.find((x) => x.botId === chosen)?.name ?? chosen} entered: ${c.entries.length} entrants`);
      p.onEntered();
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <form class="start" onSubmit={submit} data-testid="enter-form">
      <h2>Enter this contest</h2>
      <label>
        bot{' '}
        <select value={chosen} onChange={(e) => setBot((e.target as HTMLSelectElement).value)} data-testid="enter-bot">
          {mine.map((b) => (
            <option value={b.id}>
              {b.name}
              {b.builtin ? ' (built-in)' : ''}
              {localStorage.getItem(`botarena.owner.${b.id}`) ? ' · yours' : ''}
            </option>
          ))}
        </select>
      </label>
      {kept ? (
        <p class="muted">This browser keeps the bot's owner token.</p>
      ) : (
        <label>
          owner token{' '}
          <input
            type="password"
            autocomplete="off"
            value={token}
            onInput={(e) => setToken((e.target as HTMLInputElement).value)}
            aria-label="owner token"
            placeholder={admin ? 'empty: the admin token kept here' : 'shown once when the bot was registered'}
            data-testid="enter-token"
          />
        </label>
      )}
      <button type="submit" data-testid="enter">
        enter it
      </button>
      {done ? (
        <p role="status" data-testid="enter-result">
          {done}
        </p>
      ) : null}
      {error ? (
        <p class="error" role="alert" data-testid="enter-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** The admin's buttons: freeze the entries now, start the final. */
export function AdminActions(p: { contest: ContestDetail; onDone: () => void }) {
  const admin = adminToken();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!admin || (p.contest.status !== 'entry' && p.contest.status !== 'frozen')) return null;
  const act = async (what: 'freeze' | 'start') => {
    setBusy(true);
    setError(null);
    try {
      await api('POST', `/api/contests/${encodeURIComponent(p.contest.id)}/${what}`, { token: admin });
      p.onDone();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="owner" data-testid="contest-admin">
      <h2>Organiser</h2>
      {p.contest.status === 'entry' ? (
        <button type="button" disabled={busy} onClick={() => act('freeze')} data-testid="freeze">
          freeze now: close the entries and fix each entrant's version
        </button>
      ) : (
        <button type="button" disabled={busy} onClick={() => act('start')} data-testid="start">
          start the final
        </button>
      )}
      {error ? (
        <p class="error" role="alert" data-testid="admin-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
