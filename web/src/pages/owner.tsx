import { useState } from 'preact/hooks';
import type { BotDetail, BotPatchBody, CheckAnswer, MatchPage, PublicBot, SeatLog } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import { href } from '../router.js';
import { LogTable } from './logs.js';

/** Where this browser keeps the admin token once it was pasted (the owner tokens are `botarena.owner.ID`). */
const ADMIN_KEY = 'botarena.admin';

/** The admin token this browser keeps, if one was pasted. */
export function adminToken(): string {
  return localStorage.getItem(ADMIN_KEY) ?? '';
}

/** The token this browser acts on a bot with: its owner token if kept, else the admin's. */
export function tokenFor(botId: string): { token: string; as: 'owner' | 'admin' | null } {
  const owner = localStorage.getItem(`botarena.owner.${botId}`);
  if (owner) return { token: owner, as: 'owner' };
  const admin = adminToken();
  return admin ? { token: admin, as: 'admin' } : { token: '', as: null };
}

const message = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/**
 * The owner's part of a bot's page: with the bot's owner token (kept since registration, or pasted here) or the
 * admin token, pause it, re-activate it, change its endpoint or description, check it again, delete it, and read
 * the message logs of its recent matches. Each action says what happened, or the API's own sentence when refused.
 */
export function OwnerPanel(p: { bot: BotDetail; recent: MatchPage['items']; reload: () => Promise<BotDetail | null>; deleted: () => void }) {
  const [who, setWho] = useState(() => tokenFor(p.bot.id));
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const bot = p.bot;

  /** Runs an action: its result or the API's refusal is shown under the buttons. */
  const act = async (what: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await what());
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };

  /** Waits for a check the server runs in the background (re-activation, a new endpoint) to end. */
  const afterCheck = async (): Promise<BotDetail | null> => {
    let now = await p.reload();
    for (let i = 0; i < 90 && now?.status === 'checking'; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      now = await p.reload();
    }
    return now;
  };
  const checked = (b: BotDetail | null) =>
    !b ? 'the bot is gone' : b.status === 'active' ? 'it passed its check and is active again: it plays on the ladder' : statusLine(b);

  const patch = (body: BotPatchBody) => api<PublicBot>('PATCH', `/api/bots/${encodeURIComponent(bot.id)}`, { body, token: who.token });

  if (!who.as)
    return (
      <TokenForms
        bot={bot}
        onToken={(t) => {
          setWho(t);
          // The admin's view of the bot has its owner's contact.
          void p.reload();
        }}
      />
    );
  if (who.as === 'owner' && bot.builtin) return null;
  return (
    <section class="owner" data-testid="owner">
      <h2>Run this bot</h2>
      <p class="muted">
        {who.as === 'owner' ? 'As its owner: this browser keeps its owner token.' : 'As the admin: this browser keeps the admin token.'}{' '}
        <button
          type="button"
          class="link"
          onClick={() => {
            localStorage.removeItem(who.as === 'owner' ? `botarena.owner.${bot.id}` : ADMIN_KEY);
            setWho(tokenFor(bot.id));
            void p.reload();
          }}
        >
          forget the token
        </button>
      </p>
      {bot.owner !== undefined ? (
        <p>
          owner's contact: <b data-testid="owner-contact">{bot.owner || '(none given)'}</b>
        </p>
      ) : null}
      <div class="actions">
        {bot.status === 'paused' ? (
          <button
            type="button"
            disabled={busy}
            data-testid="activate"
            onClick={() =>
              act(async () => {
                await patch({ status: 'active' });
                setResult('re-activated: it is being checked before it plays again…');
                return checked(await afterCheck());
              })
            }
          >
            re-activate
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            data-testid="pause"
            onClick={() =>
              act(async () => {
                await patch({ status: 'paused' });
                await p.reload();
                return 'paused: it plays no ladder match until it is re-activated';
              })
            }
          >
            pause
          </button>
        )}
        <button
          type="button"
          disabled={busy || bot.builtin}
          data-testid="check"
          onClick={() =>
            act(async () => {
              setResult('checking it now…');
              const r = await api<CheckAnswer>('POST', `/api/bots/${encodeURIComponent(bot.id)}/check`, { token: who.token });
              await p.reload();
              if (!r.report) return `it could not be checked: ${statusLine(r.bot)}`;
              const failed = r.report.checks.filter((c) => c.status === 'fail');
              return failed.length
                ? `the check failed: ${failed.map((c) => `${c.name}: ${c.detail}`).join('; ')} (the fixes are under "Last check")`
                : `the check passed; the bot is ${r.bot.status}`;
            })
          }
        >
          check again
        </button>
        {confirming ? (
          <>
            <span>
              Delete {bot.name}? Its matches and ratings stay in the history; it plays no more.{' '}
              <button
                type="button"
                disabled={busy}
                data-testid="delete-yes"
                onClick={() =>
                  act(async () => {
                    await api('DELETE', `/api/bots/${encodeURIComponent(bot.id)}`, { token: who.token });
                    localStorage.removeItem(`botarena.owner.${bot.id}`);
                    p.deleted();
                    return 'deleted';
                  })
                }
              >
                yes, delete it
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                no
              </button>
            </span>
          </>
        ) : (
          <button type="button" disabled={busy} data-testid="delete" onClick={() => setConfirming(true)}>
            delete…
          </button>
        )}
      </div>
      {result ? (
        <p role="status" data-testid="owner-result">
          {result}
        </p>
      ) : null}
      {error ? (
        <p class="error" role="alert" data-testid="owner-error">
          {error}
        </p>
      ) : null}
      <EditForm
        bot={bot}
        busy={busy}
        save={(body) =>
          act(async () => {
            const b = await patch(body);
            if (body.endpoint !== undefined && b.status === 'checking') {
              setResult('saved: the new endpoint is being checked before it plays…');
              const now = await afterCheck();
              return now?.status === 'active' ? 'saved: the new endpoint passed its check and plays' : `saved; ${now ? statusLine(now) : 'the bot is gone'}`;
            }
            await p.reload();
            return 'saved';
          })
        }
      />
      <OwnerLogs bot={bot} recent={p.recent} token={who.token} />
    </section>
  );
}

/** The bot's status in words, with its reason. */
function statusLine(b: PublicBot): string {
  return `it is ${b.status}${b.statusReason ? `: ${b.statusReason}` : ''}`;
}

/** No token kept for this bot: paste its owner token, or the admin token (kept for every bot). */
function TokenForms(p: { bot: BotDetail; onToken: (t: { token: string; as: 'owner' | 'admin' }) => void }) {
  const [owner, setOwner] = useState('');
  const [admin, setAdmin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = encodeURIComponent(p.bot.id);
  const useOwner = async (e: Event) => {
    e.preventDefault();
    setError(null);
    const token = owner.trim();
    if (!token) return setError('paste the owner token shown when the bot was registered');
    try {
      // An edit that changes nothing: the server says whether the token is this bot's.
      await api('PATCH', `/api/bots/${id}`, { body: { description: p.bot.description }, token });
      localStorage.setItem(`botarena.owner.${p.bot.id}`, token);
      p.onToken({ token, as: 'owner' });
    } catch (err) {
      setError(message(err));
    }
  };
  const useAdmin = async (e: Event) => {
    e.preventDefault();
    setError(null);
    const token = admin.trim();
    if (!token) return setError('paste the admin token (BOTARENA_ADMIN_TOKEN of the server)');
    try {
      // The server shows the owner's contact to the admin only: that is how the token is known to be the admin's.
      const b = await api<BotDetail>('GET', `/api/bots/${id}`, { token });
      if (b.owner === undefined) return setError('that is not the admin token: the server did not take it as the admin (BOTARENA_ADMIN_TOKEN)');
      localStorage.setItem(ADMIN_KEY, token);
      p.onToken({ token, as: 'admin' });
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <section class="owner" data-testid="owner-login">
      <h2>Run this bot</h2>
      <p class="muted">Its owner (or the admin) pauses, edits, checks or deletes it here. This browser keeps the token you paste.</p>
      {p.bot.builtin ? null : (
        <TokenForm
          label="owner token"
          value={owner}
          onInput={setOwner}
          onSubmit={useOwner}
          placeholder="shown once when the bot was registered"
          testid="use-owner-token"
        />
      )}
      <TokenForm
        label="admin token"
        value={admin}
        onInput={setAdmin}
        onSubmit={useAdmin}
        placeholder="the server's BOTARENA_ADMIN_TOKEN"
        testid="use-admin-token"
      />
      {error ? (
        <p class="error" role="alert" data-testid="owner-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** Change the endpoint or the description: only what changed is sent. */
function EditForm(p: { bot: BotDetail; busy: boolean; save: (body: BotPatchBody) => void }) {
  // The API shows a command bot's program without its arguments and a built-in bot's name: those are not an
  // endpoint to send back, so the field starts empty for them.
  const shown = /^(https?|http\+form):\/\/|^connect:/.test(p.bot.endpoint) ? p.bot.endpoint : '';
  const [endpoint, setEndpoint] = useState(shown);
  const [description, setDescription] = useState(p.bot.description);
  const submit = (e: Event) => {
    e.preventDefault();
    const body: BotPatchBody = {};
    if (endpoint.trim() && endpoint.trim() !== shown) body.endpoint = endpoint.trim();
    if (description !== p.bot.description) body.description = description;
    p.save(body);
  };
  return (
    <form class="edit" onSubmit={submit}>
      <h3>Endpoint and description</h3>
      <label>
        endpoint{' '}
        <input
          value={endpoint}
          onInput={(e) => setEndpoint((e.target as HTMLInputElement).value)}
          aria-label="endpoint"
          placeholder={shown ? '' : `${p.bot.endpoint} (give a new one to change it)`}
        />
      </label>
      <label>
        description <textarea value={description} rows={2} onInput={(e) => setDescription((e.target as HTMLTextAreaElement).value)} aria-label="description" />
      </label>
      <button type="submit" disabled={p.busy} data-testid="save">
        save
      </button>
    </form>
  );
}

/** The message logs of the bot's recent finished matches: its seat's, read with the token. */
function OwnerLogs(p: { bot: BotDetail; recent: MatchPage['items']; token: string }) {
  const [open, setOpen] = useState<{ match: string; slot: number; entries: SeatLog } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const seats = p.recent.flatMap((m) =>
    m.status === 'finished' || m.status === 'aborted' ? m.seats.filter((s) => s.botId === p.bot.id).map((s) => ({ m, slot: s.slot })) : [],
  );
  const load = async (match: string, slot: number) => {
    setError(null);
    try {
      setOpen({ match, slot, entries: await api<SeatLog>('GET', `/api/matches/${encodeURIComponent(match)}/logs/${slot}`, { token: p.token }) });
    } catch (err) {
      setOpen(null);
      setError(message(err));
    }
  };
  return (
    <>
      <h3>Message logs of its recent matches</h3>
      {seats.length ? (
        <ul class="owner-logs">
          {seats.map(({ m, slot }) => (
            <li>
              <a href={href('matches', m.id)}>{m.seats.map((s) => s.name).join(' vs ')}</a>{' '}
              <span class="muted">({new Date(m.finishedAt ?? m.createdAt).toLocaleString()})</span>{' '}
              <button type="button" class="link" data-testid={`log-${m.id}-${slot}`} onClick={() => load(m.id, slot)}>
                log of seat {slot}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No finished match yet.</p>
      )}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {open ? (
        <LogTable
          entries={open.entries}
          matchId={open.match}
          testid="owner-log"
          caption={
            <>
              seat {open.slot} of <a href={href('matches', open.match)}>{open.match}</a>: {open.entries.length} lines
            </>
          }
        />
      ) : null}
    </>
  );
}

/** One token pasted and used (the owner's or the admin's): a password field and its button. */
function TokenForm(p: { label: string; value: string; onInput: (v: string) => void; onSubmit: (e: Event) => void; placeholder: string; testid: string }) {
  return (
    <form class="inline" onSubmit={p.onSubmit}>
      <label>
        {p.label}{' '}
        <input
          type="password"
          autocomplete="off"
          value={p.value}
          onInput={(e) => p.onInput((e.target as HTMLInputElement).value)}
          aria-label={p.label}
          placeholder={p.placeholder}
        />
      </label>
      <button type="submit" data-testid={p.testid}>
        use the {p.label}
      </button>
    </form>
  );
}
