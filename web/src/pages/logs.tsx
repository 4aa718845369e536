import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { PublicMatch, SeatLog } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import type { PersonSeat } from '../player/person.js';
import { href } from '../router.js';

/** The owner token this browser keeps for a bot (saved at registration), if any. */
export function ownerToken(botId: string | null): string {
  return (botId && localStorage.getItem(`botarena.owner.${botId}`)) || '';
}

/**
 * A seat's full message log, for its bot's owner (the owner token, or the admin's): every message sent and
 * received byte for byte, the bot's stderr and what the transport noted (timeouts, HTTP statuses other than 200),
 * each with its time since the match started.
 */
export function Logs(p: { match: PublicMatch; tokens: PersonSeat[]; step?: StepSignal }) {
  // The owner token of a seat's bot, if this browser registered it; else the viewer token of a test match started
  // here, which reads the seats that are no one's registered bot (a URL, a built-in bot, a person).
  const viewer = localStorage.getItem(`botarena.viewer.${p.match.id}`) ?? '';
  const firstOwned = p.match.seats.find((s) => ownerToken(s.botId));
  const [slot, setSlot] = useState(firstOwned?.slot ?? 0);
  const [token, setToken] = useState(ownerToken(firstOwned?.botId ?? null) || viewer);
  const [entries, setEntries] = useState<SeatLog | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = useShownStep(entries ? p.step : undefined);
  const [everyStep, setEveryStep] = useState(false);
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
      {entries ? (
        <>
          {shown !== null && entries.some((e) => e.step !== undefined) ? (
            <label class="inline">
              <input type="checkbox" checked={!everyStep} onChange={(e) => setEveryStep(!(e.target as HTMLInputElement).checked)} data-testid="log-this-step" />{' '}
              only the messages of the step shown ({shown === 0 ? 'the start: none yet' : `step ${shown}`})
            </label>
          ) : null}
          <LogTable entries={entries} testid="log" step={shown ?? undefined} only={!everyStep} matchId={p.match.id} />
        </>
      ) : null}
    </section>
  );
}

/**
 * The step a player shows, told to whoever listens (the owner's log) without rendering the page at each step.
 * Player step N shows the N-th recorded step (index N − 1); step 0 is the start.
 */
export class StepSignal {
  private value: number | null = null;
  private readonly listeners = new Set<(step: number) => void>();
  get(): number | null {
    return this.value;
  }
  set(step: number): void {
    if (step === this.value) return;
    this.value = step;
    for (const l of this.listeners) l(step);
  }
  listen(l: (step: number) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}

/** The step a signal says is shown, as state (null without a signal or before the player said). */
function useShownStep(signal: StepSignal | undefined): number | null {
  const [step, setStep] = useState<number | null>(signal?.get() ?? null);
  useEffect(() => {
    if (!signal) return;
    setStep(signal.get());
    return signal.listen(setStep);
  }, [signal]);
  return step;
}

/**
 * A seat's message log as a table: the step each line belongs to (a link to that moment of the match), the time
 * since the match started, which way, the bytes. Given the step a player shows, that step's lines are marked, or
 * are the only ones shown (`only`).
 */
export function LogTable(p: { entries: SeatLog; testid: string; caption?: ComponentChildren; step?: number; only?: boolean; matchId?: string }) {
  const stepped = p.entries.some((e) => e.step !== undefined);
  // Entry step k (a recorded step's index) is what the player shows as step k + 1.
  const at = (e: SeatLog[number]) => (e.step === undefined ? null : e.step + 1);
  const filtered = p.step !== undefined && p.only === true && stepped;
  const rows = filtered ? p.entries.filter((e) => at(e) === p.step) : p.entries;
  return (
    <table class="log" data-testid={p.testid}>
      {p.caption ? <caption>{p.caption}</caption> : null}
      <thead>
        <tr>
          {stepped ? <th>step</th> : null}
          <th>ms</th>
          <th>what</th>
          <th>bytes</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={stepped ? 4 : 3} class="muted">
              {filtered ? 'no message to or from this bot in this step' : 'no message in this log'}
            </td>
          </tr>
        ) : null}
        {rows.map((e) => (
          <tr class={`dir-${e.dir}${p.step !== undefined && at(e) === p.step ? ' now' : ''}`} data-step={at(e) ?? undefined}>
            {stepped ? <td>{at(e) === null ? '' : p.matchId ? <a href={`${href('matches', p.matchId)}?step=${at(e)}`}>{at(e)}</a> : at(e)}</td> : null}
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
