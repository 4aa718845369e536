import { useEffect, useRef, useState } from 'preact/hooks';
import type { TurnRecord } from '../../../src/core/engine.js';
import type { Replay, ReplayHeader, ReplayResult } from '../../../src/core/replay.js';
import { games } from '../../../src/games/index.js';
import type { PublicHeader } from '../../../src/live/events.js';
import type { PublicMatch } from '../../../src/api/index.js';
import { api, ApiError, listen } from '../api.js';
import { webGames } from '../games/index.js';
import { PersonPanel, personSeats, usePerson } from '../player/person.js';
import { Player } from '../player/player.js';
import { href } from '../router.js';
import { Timeline, timelineOf } from '../timeline.js';
import { Logs, StepSignal } from './logs.js';

/** A match: live and replayed in one player; the person's panel when this browser holds a seat; downloads and owners' logs. */
export function MatchPage(p: { id: string; start?: number }) {
  const [match, setMatch] = useState<PublicMatch | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [timeline, setTimeline] = useState<Timeline | null>(null);
  const [version, setVersion] = useState(0);
  const [live, setLive] = useState(false);
  const [waiting, setWaiting] = useState<string | null>(null);
  /** what the live stream said about itself: the match restarted, or steps were missed */
  const [notice, setNotice] = useState<string | null>(null);
  const seats = personSeats(p.id);
  const web = match ? (webGames[match.game] ?? null) : null;
  // The play stream is listened to while the match is queued or under way (known once the match is read).
  const person = usePerson(p.id, seats[0] ?? null, web, match?.status === 'queued' || match?.status === 'running');
  const follow = useAddressStep(p.id);
  // The step shown, for the owner's log beside the player: told through this, not page state, so playing a
  // match does not render the whole page at every step.
  const shownStep = useRef(new StepSignal()).current;

  useEffect(() => {
    let stop = () => {};
    let cancelled = false;
    let current: Timeline | null = null;
    const path = `/api/matches/${encodeURIComponent(p.id)}`;
    const failed = (err: unknown) => setError(err instanceof ApiError ? err.message : String(err));
    const refresh = () => api<PublicMatch>('GET', path).then((m) => (cancelled ? null : (setMatch(m), m)), failed);
    const loadReplay = () => api<Replay>('GET', `${path}/replay`).then((r) => !cancelled && setTimeline(timelineOf(r)), failed);
    // Steps can come by the thousand (a late viewer's catch-up): the page redraws once per animation frame.
    let queued = false;
    const redraw = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        setVersion((v) => v + 1);
      });
    };
    void refresh().then((m) => {
      if (!m || cancelled) return;
      // A finished match is its replay: one download, not thousands of events.
      if (m.status === 'finished') return void loadReplay();
      // `truncated`: the server kept too little of a long match for this late viewer to draw it from its events
      // (see LocalLiveEvents); the page says so and shows the replay once the match is over.
      let truncated = false;
      stop = listen(`${path}/events`, ['started', 'step', 'ended', 'stopped', 'truncated', 'restarted'], (type, data) => {
        const e = data as {
          header?: ReplayHeader | PublicHeader;
          record?: TurnRecord;
          frame?: unknown;
          delta?: unknown;
          result?: ReplayResult;
          reason?: string;
        };
        if (type === 'started') {
          const game = games[e.header!.game];
          if (!game) return setError(`this server plays a game this page does not know: ${e.header!.game}`);
          current = new Timeline(game, e.header!, e.frame);
          setLive(true);
          setTimeline(current);
        } else if (type === 'restarted') {
          // Another attempt plays the match from its start: what was shown is dropped, the next `started` begins anew.
          current = null;
          truncated = false;
          setWaiting(null);
          setTimeline(null);
          setNotice(`The match restarted: ${e.reason!}.`);
        } else if (type === 'truncated') {
          truncated = true;
          current = null;
          setLive(false);
          setTimeline(null);
          setWaiting(
            /missed/.test(e.reason ?? '')
              ? `This live view has a hole: ${e.reason!}. The replay is shown once the match ends.`
              : 'This match is too long to follow from where it is: its replay is shown once it ends.',
          );
        } else if (type === 'step' && current) current.push(e.record!, e.frame, e.delta);
        else if (type === 'ended') {
          stop();
          void refresh();
          // Without its start seen (a stream that joined too late, or a history cut short), or for a game with
          // hidden information whose spectators saw only the public frames, the whole replay is the match to show.
          if (!current || current.hidden || truncated) void loadReplay().then(() => setWaiting(null));
          else current.result = e.result!;
        } else if (type === 'stopped') {
          if (current) current.stopped = e.reason!;
          stop();
          void refresh();
        }
        redraw();
      });
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [p.id]);

  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!match) return <p class="muted">loading the match…</p>;
  const title = match.seats.map((s) => s.name).join(' vs ');
  return (
    <main>
      <h1>
        <a href={href('games', match.game)}>{games[match.game]?.title ?? match.game}</a>: {title}
      </h1>
      <p class="muted" data-testid="match-status">
        {match.kind} match · {match.rated ? 'rated' : 'unrated'} · seed {match.seed} · <span data-testid="status">{match.status}</span>
        {match.result
          ? ` · ${match.result.draw ? 'draw' : match.result.winner !== null ? `${match.seats[match.result.winner]?.name} won` : 'no winner'} after ${match.result.turns} turns`
          : ''}
        {match.abortReason ? ` · aborted: ${match.abortReason}` : ''}
      </p>
      {match.result?.reason ? (
        <p class="end-reason" data-testid="end-reason">
          Why it ended: {match.result.reason}
        </p>
      ) : null}
      {timeline?.stopped ? <p class="error">The match stopped: {timeline.stopped}</p> : null}
      {notice ? (
        <p class="muted" role="status" data-testid="stream-notice">
          {notice}
        </p>
      ) : null}
      <div class={seats[0] ? 'match-layout' : ''}>
        {timeline && web ? (
          <Player
            web={web}
            timeline={timeline}
            version={version}
            live={live}
            start={p.start ?? (live ? undefined : Number.MAX_SAFE_INTEGER)}
            highlight={person.ask ? person.highlight : undefined}
            onCell={person.ask ? person.onCell : undefined}
            seatView={person.seen}
            onStep={(i) => {
              shownStep.set(i);
              follow(live && !timeline.result && !timeline.stopped && i === timeline.steps ? null : i);
            }}
          />
        ) : (
          <p class="muted">
            {waiting
              ? waiting
              : match.status === 'queued'
                ? 'The match is about to start…'
                : match.status === 'aborted'
                  ? 'This match was aborted: it has no replay.'
                  : 'waiting for the match…'}
          </p>
        )}
        {seats[0] && web ? (
          <PersonPanel
            web={web}
            person={person}
            slot={seats[0].slot}
            showPrompt={timeline?.hidden}
            over={match.status === 'finished' || match.status === 'aborted' ? { result: match.result, reason: match.abortReason } : null}
          />
        ) : null}
      </div>
      {match.status === 'finished' ? (
        <p class="downloads">
          <a href={`/api/matches/${encodeURIComponent(match.id)}/replay`} download>
            download the replay (JSON)
          </a>{' '}
          ·{' '}
          <a href={`/api/matches/${encodeURIComponent(match.id)}/replay.html`} download data-testid="download-html">
            download a player (HTML, plays offline)
          </a>
        </p>
      ) : null}
      <Logs match={match} tokens={seats} step={shownStep} />
    </main>
  );
}

/**
 * The address follows the step shown (`#/matches/ID?step=N`), so a link shares the moment; a live match followed
 * at its newest step has no step in its address (opening it follows the match). The address is replaced, not
 * pushed (the back button leaves the match, not each step), at most every 200 ms while scrubbing or playing
 * (browsers refuse floods of address changes), and the last step always lands.
 */
function useAddressStep(id: string): (step: number | null) => void {
  const pending = useRef<{ step: number | null; timer: ReturnType<typeof setTimeout> | null; from: string }>({ step: null, timer: null, from: '' });
  useEffect(
    () => () => {
      if (pending.current.timer) clearTimeout(pending.current.timer);
    },
    [],
  );
  return (step) => {
    pending.current.step = step;
    if (pending.current.timer) return;
    pending.current.from = location.hash;
    pending.current.timer = setTimeout(() => {
      pending.current.timer = null;
      // The address changed meanwhile by a navigation (a link to another step, the person typing one): it wins.
      if (location.hash !== pending.current.from) return;
      const s = pending.current.step;
      const to = `${href('matches', id)}${s === null ? '' : `?step=${s}`}`;
      // Only while this match's page is shown (a step drawn just as the person left must not bring it back).
      const base = href('matches', id);
      if ((location.hash === base || location.hash.startsWith(`${base}?`)) && location.hash !== to) history.replaceState(history.state, '', to);
    }, 200);
  };
}
