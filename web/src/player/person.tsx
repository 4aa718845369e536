import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { MatchResult, MoveAnswer, MoveBody } from '../../../src/api/index.js';
import type { AskPhase } from '../../../src/core/game.js';
import { api, ApiError, listen } from '../api.js';
import type { Cell, Choice, SeatInfo, WebGame } from '../games/types.js';

/** What the server asks of a person's seat (the `ask` event of the seat's play stream). */
export interface Ask {
  turn: number;
  phase: AskPhase;
  view: unknown;
  prompt: string;
  /** a stream turn (smart-dog): lines are sent one by one until the line `end` */
  stream?: boolean;
  slot: number;
  seat: Omit<SeatInfo, 'slot'>;
}

/** A person's seat in a match: the token the match's creation gave, kept in this browser. */
export interface PersonSeat {
  slot: number;
  token: string;
}

/** The person seats this browser holds for a match (saved when the test page started it). */
export function personSeats(matchId: string): PersonSeat[] {
  try {
    const raw = localStorage.getItem(`botarena.person.${matchId}`);
    return raw ? (JSON.parse(raw) as PersonSeat[]) : [];
  } catch {
    return [];
  }
}

/** Keeps the person seats of a new match in this browser. */
export function keepPersonSeats(matchId: string, seats: PersonSeat[]): void {
  localStorage.setItem(`botarena.person.${matchId}`, JSON.stringify(seats));
}

/** The end of a person's match, as its play stream's `ended` says it (the result when the match was played out). */
export interface PersonEnd {
  reason: string;
  result?: MatchResult;
}

/**
 * A person at the table: listens to the seat's asks, and sends a chosen or typed line. `playing`: the match is
 * queued or under way (a finished match's seat has no play stream to listen to: the server forgets it soon after
 * the end, and a page opened later would be answered 404).
 */
export function usePerson(matchId: string, seat: PersonSeat | null, web: WebGame | null, playing = true) {
  const [ask, setAsk] = useState<Ask | null>(null);
  const [ended, setEnded] = useState<PersonEnd | null>(null);
  /** what the seat was last told (kept after its answer: the board shows it until the next ask) */
  const [seen, setSeen] = useState<{ slot: number; view: unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The ask shown and the ask whose answer is on its way, as refs beside the state: `send` reads them when it is
  // called, not when it was made. A key listener made at an earlier render held a `sending` flag from a render
  // where it was true (the next ask had come in before the move's response), and dropped every key after it.
  // And "sending" is per ask: once the next ask is here, the previous answer was taken and a new one may go.
  const shown = useRef<Ask | null>(null);
  const answering = useRef<Ask | null>(null);
  const [sendingFor, setSendingFor] = useState<Ask | null>(null);
  const show = (a: Ask | null) => {
    shown.current = a;
    setAsk(a);
  };
  useEffect(() => {
    if (!seat || !playing) return;
    let stop = () => {};
    stop = listen(
      `/api/matches/${encodeURIComponent(matchId)}/seats/${seat.slot}/play?token=${encodeURIComponent(seat.token)}`,
      ['ask', 'told', 'accepted', 'ended'],
      (type, data) => {
        if (type === 'ask') {
          show(data as Ask);
          setSeen({ slot: (data as Ask).slot, view: (data as Ask).view });
          setError(null);
        } else if (type === 'accepted') {
          // In a stream turn the same ask stays open until the line that ends the turn.
          if (!(data as { more?: boolean }).more) show(null);
        } else if (type === 'told') {
          const view = (data as { view: unknown }).view;
          setNotice(typeof view === 'string' ? view : JSON.stringify(view));
        } else if (type === 'ended') {
          show(null);
          setSeen(null);
          setEnded(data as PersonEnd);
          // The last event: closed here, or the browser would reconnect to a seat the server forgets (404).
          stop();
        }
      },
    );
    return () => stop();
  }, [matchId, seat?.slot, seat?.token, playing]);
  const choices: Choice[] = useMemo(() => (ask && web ? web.play.choices(ask.view, ask.phase, { ...ask.seat, slot: ask.slot }) : []), [ask, web]);
  const send = useCallback(
    async (line: string) => {
      const answered = shown.current;
      // Nothing asked: nothing to answer. One answer at a time to an ask (a stream turn's lines go in order).
      if (!seat || !answered || answering.current === answered) return;
      answering.current = answered;
      setSendingFor(answered);
      try {
        await api<MoveAnswer>('POST', `/api/matches/${encodeURIComponent(matchId)}/seats/${seat.slot}/move`, {
          body: { line } satisfies MoveBody,
          token: seat.token,
        });
        // The next ask may have come in while this answer was on its way: only the one answered is closed.
        if (!answered.stream && shown.current === answered) show(null);
        setError(null);
      } catch (err) {
        setError(err instanceof ApiError ? err.message : String(err));
      } finally {
        if (answering.current === answered) {
          answering.current = null;
          setSendingFor(null);
        }
      }
    },
    [matchId, seat?.slot, seat?.token],
  );
  const sending = ask !== null && sendingFor === ask;
  const highlight: Cell[] = choices.flatMap((c) => (c.cell ? [c.cell] : []));
  const onCell = (cell: Cell) => {
    const c = choices.find((x) => x.cell && x.cell[0] === cell[0] && x.cell[1] === cell[1]);
    if (c) void send(c.line);
  };
  return { ask, choices, error, notice, send, highlight, onCell, sending, ended, seen };
}

/** The result in words for the person in `slot`: who won (you or the seat's name), and why it ended. */
export function personOutcome(result: MatchResult, slot: number): { headline: string; reason: string | null } {
  const name = (s: number) => result.players.find((pl) => pl.slot === s)?.name ?? `seat ${s}`;
  const mine = result.players.find((pl) => pl.slot === slot);
  const headline = result.draw
    ? mine?.rank === 1
      ? 'A draw: you share first place.'
      : `A draw between ${result.players
          .filter((pl) => pl.rank === 1)
          .map((pl) => pl.name)
          .join(' and ')}.`
    : result.winner === null
      ? 'Nobody won.'
      : result.winner === slot
        ? 'You won!'
        : `${name(result.winner)} won.`;
  const why = [result.reason ?? null, mine?.fault ? `your seat faulted on turn ${mine.fault.turn}: ${mine.fault.kind} (${mine.fault.detail})` : null].filter(
    (x): x is string => !!x,
  );
  return { headline: `${headline} After ${result.turns} turns.`, reason: why.length ? why.join('; ') : null };
}

/** Whether this screen is touched rather than clicked (a phone, a tablet): the panel then says "tap". */
function touchScreen(): boolean {
  return (typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches) || 'ontouchstart' in window;
}

/**
 * The person's panel: the question, the legal moves as buttons (and keys), a text box where the game takes typed
 * commands. `showPrompt` opens the seat's own view at once: in a game with hidden information the board shows
 * only what spectators see, so the person's fleet, energy or dogs are there.
 */
export function PersonPanel(p: {
  web: WebGame;
  person: ReturnType<typeof usePerson>;
  slot: number;
  showPrompt?: boolean;
  /** the match is over: its result (from the match, when the page did not see the play stream's end) or why it stopped */
  over?: { result?: MatchResult | null; reason?: string | null } | null;
}) {
  const { ask, choices, error, notice, send, sending, ended } = p.person;
  const result = ended?.result ?? p.over?.result ?? null;
  const stopped = !result ? (ended?.reason ?? p.over?.reason ?? null) : null;
  const outcome = result ? personOutcome(result, p.slot) : null;
  const [text, setText] = useState('');
  // A layout effect: the keys of the ask on screen are armed as it shows, so a key pressed as soon as the turn
  // appears is read with that turn's choices (an effect runs after the paint: the press found the last ask's keys,
  // or none).
  useLayoutEffect(() => {
    const keyed = choices.filter((c) => c.key);
    if (!keyed.length) return;
    const on = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      const c = keyed.find((x) => x.key === e.key);
      if (c) {
        e.preventDefault();
        void send(c.line);
      }
    };
    addEventListener('keydown', on);
    return () => removeEventListener('keydown', on);
  }, [choices, send]);
  const typed = ask ? p.web.play.text?.(ask.view, ask.phase) : null;
  return (
    <section class="person" data-testid="person" aria-live="polite">
      <h3>You play seat {p.slot}</h3>
      {outcome ? (
        <div data-testid="person-result">
          <p>
            <b>{outcome.headline}</b>
          </p>
          {outcome.reason ? <p>Why it ended: {outcome.reason}</p> : null}
        </div>
      ) : stopped ? (
        <p data-testid="person-result">The match is over: {stopped}</p>
      ) : !ask ? (
        <p class="muted" data-testid="waiting">
          Waiting for your turn…
        </p>
      ) : null}
      {ask ? (
        <>
          <p data-testid="your-turn">
            <b>Your move</b> ({ask.phase === 'init' ? 'hello' : `turn ${ask.turn}`}):{' '}
            {touchScreen()
              ? 'tap a highlighted cell or a button below.'
              : `click a highlighted cell${choices.some((c) => c.key) ? ', press an arrow key' : ''} or pick below.`}
          </p>
          <details open={p.showPrompt}>
            <summary>what your seat sees (the message it was sent)</summary>
            <pre class="prompt">{ask.prompt}</pre>
          </details>
          <div class="choices">
            {choices.map((c) => (
              <button type="button" disabled={sending} onClick={() => void send(c.line)} data-line={c.line}>
                {c.label}
              </button>
            ))}
          </div>
          {typed ? (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void send(text);
              }}
            >
              <input
                value={text}
                placeholder={typed.placeholder}
                aria-label="your command"
                onInput={(e) => setText((e.target as HTMLInputElement).value)}
                maxLength={2000}
              />
              <button type="submit" disabled={sending}>
                send
              </button>
            </form>
          ) : null}
        </>
      ) : null}
      {error ? (
        <p class="error" role="alert" data-testid="move-error">
          {error}
        </p>
      ) : null}
      {notice ? <p class="muted">the game answered: {notice}</p> : null}
    </section>
  );
}
