import { useEffect, useRef, useState } from 'preact/hooks';
import type { Cell, Renderer, WebGame } from '../games/types.js';
import { seatColour } from '../games/draw.js';
import type { Timeline } from '../timeline.js';
import { seatStatus, timingText, type SeatStatus } from './seat-status.js';

/** Speeds offered, as multiples of BASE_STEPS_PER_S. */
const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64];
const BASE_STEPS_PER_S = 4;

/** What the player shows: a timeline (which grows while the match is live) and the game's renderer. */
export interface PlayerProps {
  web: WebGame;
  timeline: Timeline;
  /** bumped by the page each time the timeline grows or ends, so the player redraws */
  version: number;
  live: boolean;
  /** cells a person may click now, and what a click does (human play) */
  highlight?: readonly Cell[];
  onCell?: (cell: Cell) => void;
  /** a person's seat: what it was last told, drawn over a public frame at the newest step (Frame.seat) */
  seatView?: { slot: number; view: unknown } | null;
  /** the step to open at (from the page's address); default: the start, or the end of a live match */
  start?: number;
  onStep?: (index: number) => void;
}

/**
 * The one player of every game, live and replayed: play/pause, step, scrub, speed and keyboard shortcuts
 * (space, ←/→, Home/End, [ and ]); the turn, each seat's status with its faults and answer times. A live match
 * is followed at its newest step until the person scrubs back.
 */
export function Player(p: PlayerProps) {
  const { timeline } = p;
  const canvas = useRef<HTMLCanvasElement>(null);
  const renderer = useRef<Renderer | null>(null);
  const [index, setIndex] = useState(() => Math.min(p.start ?? (p.live ? timeline.steps : 0), timeline.steps));
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(2);
  const [follow, setFollow] = useState(p.live && p.start === undefined);
  const steps = timeline.steps;
  // The person's own view belongs to the match as it is now: drawn at the newest step only (not on earlier ones).
  const frameAt = (i: number) => {
    const f = timeline.frame(i);
    return p.seatView && f.publicFrame !== undefined && f.index === f.steps ? { ...f, seat: p.seatView } : f;
  };

  // Mount the renderer once per timeline.
  useEffect(() => {
    const r = p.web.createRenderer();
    r.mount(canvas.current!, { game: timeline.game.id, seats: timeline.header.seats, config: 'config' in timeline.header ? timeline.header.config : {} });
    renderer.current = r;
    return () => {
      r.unmount();
      renderer.current = null;
    };
  }, [timeline, p.web]);

  // A live match: stay on its newest step while following.
  useEffect(() => {
    if (follow) setIndex(steps);
  }, [steps, follow]);

  // Draw the current frame.
  useEffect(() => {
    const r = renderer.current;
    if (!r) return;
    const t0 = performance.now();
    r.draw(frameAt(index), p.highlight);
    // How long the frame took to draw is for developers (the canvas's data-draw-ms), not shown to spectators.
    canvas.current?.setAttribute('data-draw-ms', (performance.now() - t0).toFixed(1));
    p.onStep?.(index);
  }, [index, p.version, p.highlight, p.seatView, timeline]);

  // Redraw when the canvas's box changes size (a phone turned, a window resized).
  useEffect(() => {
    const el = canvas.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => renderer.current?.draw(frameAt(indexRef.current), p.highlight));
    ro.observe(el);
    return () => ro.disconnect();
  }, [timeline, p.highlight, p.seatView]);
  const indexRef = useRef(index);
  indexRef.current = index;

  // Playing: advance on animation frames at the chosen speed.
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let carry = 0;
    let id = requestAnimationFrame(function tick(now) {
      carry += ((now - last) / 1000) * BASE_STEPS_PER_S * SPEEDS[speed]!;
      last = now;
      const whole = Math.floor(carry);
      carry -= whole;
      if (whole > 0) {
        const next = Math.min(indexRef.current + whole, timeline.steps);
        setIndex(next);
        if (next >= timeline.steps && !p.live) {
          setPlaying(false);
          return;
        }
      }
      id = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(id);
  }, [playing, speed, timeline, p.live]);

  const go = (i: number) => {
    const to = Math.max(0, Math.min(i, timeline.steps));
    setIndex(to);
    setFollow(p.live && to === timeline.steps);
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
    if (e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
    const k = e.key;
    // While a person is asked for a move, the arrows are theirs (Tron, paint, lighthouses moves), not the player's.
    if (p.onCell && k.startsWith('Arrow')) return;
    if (k === ' ' || k === 'k') setPlaying((x) => !x);
    else if (k === 'ArrowRight' || k === 'l') go(indexRef.current + (e.shiftKey ? 10 : 1));
    else if (k === 'ArrowLeft' || k === 'j') go(indexRef.current - (e.shiftKey ? 10 : 1));
    else if (k === 'Home') go(0);
    else if (k === 'End') go(timeline.steps);
    else if (k === '[') setSpeed((s) => Math.max(0, s - 1));
    else if (k === ']') setSpeed((s) => Math.min(SPEEDS.length - 1, s + 1));
    else return;
    e.preventDefault();
  };

  // The step shown (its record only: the frame itself is built once, by the drawing effect).
  const shown = index > 0 ? timeline.records[index - 1] : undefined;
  const status = seatStatus(timeline, index, p.web);
  const onClick = (e: MouseEvent) => {
    const r = renderer.current;
    if (!r?.cellAt || !p.onCell) return;
    const box = (e.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const cell = r.cellAt(e.clientX - box.left, e.clientY - box.top);
    if (cell) p.onCell(cell);
  };

  return (
    <section
      class="player"
      onKeyDown={onKey}
      tabIndex={0}
      aria-label="match player (space plays or pauses, arrows step, Home and End jump, [ and ] change speed)"
    >
      <canvas
        ref={canvas}
        class={`board board-${timeline.game.id}`}
        onClick={onClick}
        data-testid="board"
        role="img"
        aria-label={`${timeline.game.title}, step ${index} of ${steps}`}
      />
      <div class="controls">
        <button type="button" onClick={() => go(0)} aria-label="first step" title="first step (Home)">
          <Icon d="M4 3h2v14H4zM17 3v14L7 10z" />
        </button>
        <button type="button" onClick={() => go(index - 1)} aria-label="step back" title="step back (←)">
          <Icon d="M15 3v14L5 10z" />
        </button>
        <button type="button" onClick={() => setPlaying(!playing)} aria-label={playing ? 'pause' : 'play'} title="play / pause (space)" data-testid="play">
          <Icon d={playing ? 'M5 3h4v14H5zM11 3h4v14h-4z' : 'M5 3v14l11-7z'} />
        </button>
        <button type="button" onClick={() => go(index + 1)} aria-label="step forward" title="step forward (→)">
          <Icon d="M5 3v14l10-7z" />
        </button>
        <button type="button" onClick={() => go(timeline.steps)} aria-label="last step" title="last step (End)">
          <Icon d="M14 3h2v14h-2zM3 3v14l10-7z" />
        </button>
        <input
          type="range"
          min={0}
          max={steps}
          value={index}
          aria-label="step"
          data-testid="scrub"
          onInput={(e) => go(Number((e.target as HTMLInputElement).value))}
        />
        <select aria-label="speed" value={speed} onChange={(e) => setSpeed(Number((e.target as HTMLSelectElement).value))}>
          {SPEEDS.map((s, i) => (
            <option value={i}>{s}×</option>
          ))}
        </select>
      </div>
      <p class="where" data-testid="where">
        step <b data-testid="step">{index}</b> of <span data-testid="steps">{steps}</span>
        {shown ? ` · ${shown.phase === 'init' ? 'hello' : `turn ${shown.turn}`}` : ' · start'}
        {p.live && !timeline.result && !timeline.stopped ? <span class="badge live"> live</span> : null}
      </p>
      {timeline.mismatch ? (
        <p class="error" role="alert">
          This replay does not re-play in the browser: {timeline.mismatch}
        </p>
      ) : null}
      <table class="seats" data-testid="seats">
        <thead>
          <tr>
            <th>seat</th>
            <th>bot</th>
            <th>status</th>
            <th title="what it answered in this step">move</th>
            <th title="this step's answer time (the wall time the arena waited), and the median so far; a bot program's CPU time on it; an HTTP bot's connecting and first byte">
              answer ms
            </th>
            <th title="its score after this step">score</th>
          </tr>
        </thead>
        <tbody>
          {timeline.header.seats.map((s, slot) => {
            const st = status[slot]!;
            return (
              <tr>
                <td>
                  <span class="swatch" style={{ background: seatColour(slot) }} /> {timeline.game.presentation.seatLabel?.(slot) ?? slot}
                </td>
                <td>{s.name}</td>
                <td class={st.fault ? 'fault' : st.out ? 'out' : ''} data-testid={`seat-${slot}`}>
                  {stateText(st)}
                  {st.strikes ? (
                    <span class="note" title="timeouts forgiven by the match's strikes: each played as the game's pass">
                      {` (${st.strikes} of ${timeline.header.timeouts?.strikes ?? st.strikes} strikes used)`}
                    </span>
                  ) : null}
                  {st.note ? (
                    <span class="note" title="the rules ignore it: it cost nothing">{` (ignored by the rules: ${st.note.kind} on turn ${st.note.turn})`}</span>
                  ) : null}
                </td>
                <td data-testid={`move-${slot}`} class={st.move?.fault && !st.move.strike ? 'fault' : ''}>
                  {moveText(st, p.web.commands === true)}
                </td>
                <td data-testid={`ms-${slot}`}>
                  {st.lastMs === null ? '–' : st.lastMs.toFixed(1)}
                  {st.medianMs === null ? '' : ` (median ${st.medianMs.toFixed(1)})`}
                  {timingText(st)}
                </td>
                <td data-testid={`score-${slot}`}>{st.score === null ? '–' : String(st.score)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/**
 * A seat's state in words at the step shown: playing, out (when and why, as the rules say), stopped, or its
 * place at the end; and its fault with the rule's text. A cause that only repeats the fault (Tron's bot killed
 * by its timeout) is said once.
 */
export function stateText(st: SeatStatus): string {
  const fault = st.fault ? `faulted: ${st.fault.kind} on turn ${st.fault.turn}: ${st.fault.detail}` : null;
  const repeats = st.fault && st.out && st.out.cause === `${st.fault.kind}: ${st.fault.detail}`;
  const out = st.out ? `out on ${st.out.at}${repeats ? '' : `: ${st.out.cause}`}` : null;
  const parts = st.text === 'out' ? [out] : st.text === 'playing' && fault ? [] : [st.text, out];
  return [...parts, fault].filter((x): x is string => !!x).join(' · ');
}

/**
 * What a seat answered in the step shown: its move; for a game of commands, whether it was carried out; a failed
 * answer with the rule's words. `–` for a seat not asked in this step.
 */
export function moveText(st: SeatStatus, commands: boolean): string {
  const m = st.move;
  if (!m) return '–';
  if (m.fault && m.strike) return `${m.fault.kind}, forgiven (a strike): played as a pass`;
  if (m.fault) return `${m.action ? `${m.action} · ` : ''}failed: ${m.fault.kind}: ${m.fault.detail}`;
  return `${m.action ?? 'nothing'}${commands ? ' · done' : ''}`;
}

/** A control's picture: one SVG path on a 20×20 box, in the text's colour (no icon font to download). */
function Icon(p: { d: string }) {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
      <path d={p.d} fill="currentColor" />
    </svg>
  );
}
