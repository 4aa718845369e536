/** The smart-dog board on a canvas: grass, fences, trees, pens and territories, sheep, dogs and their barks (live: the land and barks only). */
import type { SmartDogState, Territory } from '../../../src/games/smartdog/state.js';
import { cellOfPoint, fitCanvas, gridLayout, seatColour, THEME } from './draw.js';
import type { Cell, Frame, MatchSetupInfo, Renderer } from './types.js';

/**
 * What a spectator gets while a match is live (the game's `spectator.frame`): the turn, who is out, where dogs
 * barked, and the land every player gets on turn 1 (absent in frames from a server before it was added).
 */
export interface SmartDogPublicFrame {
  turn: number;
  out: boolean[];
  barking: [number, number][];
  rows?: number;
  cols?: number;
  terrain?: string[];
  territories?: Territory[];
  turnsLimit?: number;
  dogBarkingR?: number;
}

/** The land as both kinds of frame have it. */
interface Land {
  rows: number;
  cols: number;
  terrain: string[];
  territories: (Territory | undefined)[];
}

/** One object a seat's dogs see (an `obj` line of its turn message). */
interface SeenObject {
  id?: number;
  type?: string;
  x: number;
  y: number;
  owner?: number;
  action?: string;
}

/**
 * What a person's seat was told last, read from its lines: who it is (the `start` line, else its slot) and the
 * dogs and sheep its dogs see (`obj` lines; a line that is not JSON is skipped).
 */
export function seatSees(seat: { slot: number; view: unknown }): { you: number; objects: SeenObject[] } {
  const lines = Array.isArray(seat.view) ? seat.view.filter((l): l is string => typeof l === 'string') : [];
  let you = seat.slot + 1;
  const objects: SeenObject[] = [];
  const arg = (line: string, word: string): unknown => {
    try {
      return JSON.parse(`{${line.slice(word.length)}}`);
    } catch {
      return null;
    }
  };
  for (const line of lines) {
    if (line.startsWith('start ')) {
      const a = arg(line, 'start') as { you?: unknown } | null;
      if (typeof a?.you === 'number') you = a.you;
    } else if (line.startsWith('obj ')) {
      const o = arg(line, 'obj') as SeenObject | null;
      if (o && Number.isInteger(o.x) && Number.isInteger(o.y) && (o.type === 'Dog' || o.type === 'Sheep')) objects.push(o);
    }
  }
  return { you, objects };
}

const LEGEND_ROW = 18;
const GRASS = '#1d2a1f';
const FENCE = '#8a7a5c';
const TREE = '#2f6b3a';

/** A player's colour (players are 1-based on the wire, seats 0-based). */
const ownerColour = (player: number) => seatColour(player - 1);

/** A renderer for smart-dog frames (whole states, or spectators' public frames). */
export function createSmartDogRenderer(): Renderer {
  let canvas: HTMLCanvasElement | null = null;
  let setup: MatchSetupInfo | null = null;
  let layout: { size: number; left: number; top: number; cols: number; rows: number } | null = null;

  function legend(
    ctx: CanvasRenderingContext2D,
    left: number,
    ly: number,
    width: number,
    rows: number,
    caption: string,
    line: (k: number) => string,
    n: number,
  ): void {
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = THEME.muted;
    ctx.fillText(caption, left, ly + LEGEND_ROW / 2, width - 2 * left);
    const colW = (width - 2 * left) / 2;
    for (let k = 0; k < Math.min(n, rows * 2); k++) {
      const x = left + (k % 2) * colW;
      const y = ly + LEGEND_ROW * (1 + Math.floor(k / 2));
      ctx.fillStyle = seatColour(k);
      ctx.fillRect(x, y + 4, 10, 10);
      ctx.fillStyle = THEME.text;
      ctx.fillText(line(k), x + 14, y + LEGEND_ROW / 2 + 1, colW - 18);
    }
  }

  function drawBark(ctx: CanvasRenderingContext2D, x: number, y: number, size: number, radius: number): void {
    // Two arcs for the bark itself and a faint circle for its reach (dogBarkingR cells, when known).
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = Math.max(1, size * 0.08);
    for (const k of [0.65, 0.9]) {
      ctx.beginPath();
      ctx.arc(x, y, size * k, -Math.PI / 3, Math.PI / 3);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(x, y, size * k, (2 * Math.PI) / 3, (4 * Math.PI) / 3);
      ctx.stroke();
    }
    if (radius > 0) {
      ctx.globalAlpha = 0.25;
      ctx.beginPath();
      ctx.arc(x, y, radius * size, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
  }

  /** Lays the board out over the box less `below` pixels, and draws grass, territories, fences, trees and pens. */
  function drawLand(ctx: CanvasRenderingContext2D, width: number, height: number, below: number, s: Land): { size: number; left: number; top: number } {
    const g = gridLayout(width, height - below, s.cols, s.rows);
    layout = { ...g, cols: s.cols, rows: s.rows };
    const { size, left, top } = g;
    const sx = (x: number) => left + x * size;
    const sy = (y: number) => top + y * size;
    ctx.fillStyle = GRASS;
    ctx.fillRect(left, top, size * s.cols, size * s.rows);
    // Territories: a tint and a border in the owner's colour.
    s.territories.forEach((t, k) => {
      if (!t) return;
      ctx.globalAlpha = 0.08;
      ctx.fillStyle = ownerColour(k + 1);
      ctx.fillRect(sx(t.x1), sy(t.y1), (t.x2 - t.x1 + 1) * size, (t.y2 - t.y1 + 1) * size);
      ctx.globalAlpha = 0.6;
      ctx.strokeStyle = ownerColour(k + 1);
      ctx.lineWidth = 1;
      ctx.strokeRect(sx(t.x1) + 0.5, sy(t.y1) + 0.5, (t.x2 - t.x1 + 1) * size - 1, (t.y2 - t.y1 + 1) * size - 1);
      ctx.globalAlpha = 1;
    });
    // One path per kind of land (fences, trees, each player's pens): a few fills however big the board.
    const paths = new Map<string, Path2D>();
    const pathOf = (ch: string) => paths.get(ch) ?? paths.set(ch, new Path2D()).get(ch)!;
    for (let y = 0; y < s.rows; y++) {
      const row = s.terrain[y]!;
      for (let x = 0; x < s.cols; x++) {
        const ch = row[x]!;
        if (ch === '.') continue;
        const p = pathOf(ch);
        if (ch === '#') p.rect(sx(x) + size * 0.1, sy(y) + size * 0.1, size * 0.8, size * 0.8);
        else if (ch === '^') {
          p.moveTo(sx(x) + size / 2, sy(y) + size * 0.1);
          p.lineTo(sx(x) + size * 0.9, sy(y) + size * 0.9);
          p.lineTo(sx(x) + size * 0.1, sy(y) + size * 0.9);
          p.closePath();
        } else p.rect(sx(x), sy(y), size, size);
      }
    }
    for (const [ch, p] of paths) {
      // A pen: its owner's colour, dimmed so sheep on it still show.
      const pen = ch !== '#' && ch !== '^';
      ctx.globalAlpha = pen ? 0.35 : 1;
      ctx.fillStyle = ch === '#' ? FENCE : ch === '^' ? TREE : ownerColour(Number(ch));
      ctx.fill(p);
    }
    ctx.globalAlpha = 1;
    return g;
  }

  /** The barks of the step just played, their reach kept on the board. */
  function drawBarks(
    ctx: CanvasRenderingContext2D,
    g: { size: number; left: number; top: number },
    s: Land,
    barks: readonly (readonly [number, number])[],
    radius: number,
  ): void {
    const { size, left, top } = g;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, size * s.cols, size * s.rows);
    ctx.clip();
    for (const [x, y] of barks) drawBark(ctx, left + (x + 0.5) * size, top + (y + 0.5) * size, size, radius);
    ctx.restore();
  }

  function drawState(ctx: CanvasRenderingContext2D, width: number, height: number, s: SmartDogState, highlight: readonly Cell[]): void {
    const seats = setup?.seats ?? [];
    const legendRows = height > 200 ? Math.ceil(s.players / 2) : 0;
    const g = drawLand(ctx, width, height, LEGEND_ROW * (legendRows + 1) + 4, s);
    const { size, left, top } = g;
    const sx = (x: number) => left + x * size;
    const sy = (y: number) => top + y * size;
    const cx = (x: number) => sx(x) + size / 2;
    const cy = (y: number) => sy(y) + size / 2;
    for (const sh of s.sheep) {
      ctx.beginPath();
      ctx.arc(cx(sh.x), cy(sh.y), Math.max(2, size * 0.3), 0, 2 * Math.PI);
      ctx.fillStyle = '#f2f2f2';
      ctx.fill();
      if (sh.fear > 0) {
        ctx.strokeStyle = '#ff6b6b';
        ctx.lineWidth = Math.max(1, size * 0.1);
        ctx.stroke();
      }
    }
    for (const d of s.dogs) {
      const h = Math.max(3, size * 0.4);
      ctx.fillStyle = ownerColour(d.owner);
      ctx.fillRect(cx(d.x) - h, cy(d.y) - h, 2 * h, 2 * h);
      ctx.lineWidth = Math.max(1, size * 0.07);
      ctx.strokeStyle = '#000';
      ctx.strokeRect(cx(d.x) - h, cy(d.y) - h, 2 * h, 2 * h);
      if (d.scareTurns > 0) {
        // A scared dog: crossed out (panic cannot move or bark; indignant cannot bark).
        ctx.beginPath();
        ctx.moveTo(cx(d.x) - h, cy(d.y) - h);
        ctx.lineTo(cx(d.x) + h, cy(d.y) + h);
        if (d.scare === 'panic') {
          ctx.moveTo(cx(d.x) + h, cy(d.y) - h);
          ctx.lineTo(cx(d.x) - h, cy(d.y) + h);
        }
        ctx.stroke();
      }
      if (size >= 14) {
        ctx.fillStyle = '#000';
        ctx.font = `bold ${Math.round(size * 0.45)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(String(d.id), cx(d.x), cy(d.y) + 1, 2 * h);
      }
    }
    // The barks of the step just played: `barkedPrev` after the turn's bookkeeping.
    drawBarks(
      ctx,
      g,
      s,
      s.dogs.flatMap((d) => (d.barkedPrev ? [[d.x, d.y] as const] : [])),
      s.options.dogBarkingR,
    );
    ctx.strokeStyle = THEME.highlight;
    ctx.lineWidth = 2;
    for (const [x, y] of highlight) ctx.strokeRect(sx(x) + 1, sy(y) + 1, size - 2, size - 2);
    const head = s.finished ? `finished after turn ${s.turn}` : `turn ${s.turn} of ${s.options.turnsLimit}`;
    const score = (k: number) => `${seats[k]?.name ?? `player ${k + 1}`}  ${(Math.round(s.scores[k]! * 100) / 100).toString()}${s.out[k] ? ' (out)' : ''}`;
    legend(ctx, left, top + size * s.rows + 6, width, legendRows, `${head} · ${s.cols}×${s.rows}`, score, s.players);
  }

  /**
   * The public frame: the land, the barks and who is out, with a note that dogs and sheep are not shown (the
   * players' own views hold them). A frame without the land (an older server) is said in words.
   */
  function drawPublic(
    ctx: CanvasRenderingContext2D,
    width: number,
    height: number,
    f: SmartDogPublicFrame,
    seat?: Frame['seat'],
    highlight: readonly Cell[] = [],
  ): void {
    canvas?.removeAttribute('data-seat-sees');
    const seats = setup?.seats ?? [];
    const n = Math.max(f.out.length, seats.length);
    const line = (k: number) => `${seats[k]?.name ?? `player ${k + 1}`}${f.out[k] ? ' (out)' : ''}`;
    const legendRows = height > 200 ? Math.ceil(n / 2) : 0;
    if (f.terrain && f.territories && f.rows && f.cols) {
      const land: Land = { rows: f.rows, cols: f.cols, terrain: f.terrain, territories: f.territories };
      // One more row under the board for the note, in small type.
      const g = drawLand(ctx, width, height, LEGEND_ROW * (legendRows + 2) + 4, land);
      drawBarks(ctx, g, land, f.barking, f.dogBarkingR ?? 0);
      const sees = seat ? seatSees(seat) : null;
      if (sees) drawSeen(ctx, g, sees);
      // The cells a person may click now (their dogs' steps and barks).
      ctx.strokeStyle = THEME.highlight;
      ctx.lineWidth = 2;
      for (const [x, y] of highlight) ctx.strokeRect(g.left + x * g.size + 1, g.top + y * g.size + 1, g.size - 2, g.size - 2);
      const below = g.top + g.size * f.rows + 6;
      const head = `turn ${f.turn}${f.turnsLimit ? ` of ${f.turnsLimit}` : ''} · ${f.cols}×${f.rows}`;
      legend(ctx, g.left, below, width, legendRows, head, line, n);
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillStyle = THEME.muted;
      ctx.fillText(
        sees ? 'you see your dogs and what they see; the rest is hidden until the match ends' : 'dogs and sheep are hidden until the match ends',
        g.left,
        below + LEGEND_ROW * (legendRows + 1) + LEGEND_ROW / 2,
        width - 2 * g.left,
      );
      return;
    }
    layout = null;
    const left = 8;
    const boxH = Math.min(120, height / 3);
    const top = Math.max(8, (height - boxH - LEGEND_ROW * (Math.ceil(n / 2) + 1)) / 2);
    ctx.fillStyle = THEME.board;
    ctx.fillRect(left, top, width - 2 * left, boxH);
    ctx.fillStyle = THEME.muted;
    ctx.font = '13px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('the pasture is hidden while the match is live', width / 2, top + boxH / 2 - 10, width - 4 * left);
    const barks = f.barking.length ? `barks at ${f.barking.map(([x, y]) => `${x},${y}`).join(' · ')}` : 'no dog barked';
    ctx.fillText(barks, width / 2, top + boxH / 2 + 10, width - 4 * left);
    legend(ctx, left, top + boxH + 6, width, legendRows, `turn ${f.turn}`, line, n);
  }

  /**
   * A person's own view over the public frame: the sheep and dogs its dogs see, its own dogs outlined in white.
   * The canvas says what it drew in `data-seat-sees` (its own dogs by id and cell, then the others seen).
   */
  function drawSeen(ctx: CanvasRenderingContext2D, g: { size: number; left: number; top: number }, sees: ReturnType<typeof seatSees>): void {
    const { size, left, top } = g;
    const cx = (x: number) => left + (x + 0.5) * size;
    const cy = (y: number) => top + (y + 0.5) * size;
    const mine: string[] = [];
    const others: string[] = [];
    for (const o of sees.objects) {
      if (o.type === 'Sheep') {
        ctx.beginPath();
        ctx.arc(cx(o.x), cy(o.y), Math.max(2, size * 0.3), 0, 2 * Math.PI);
        ctx.fillStyle = '#f2f2f2';
        ctx.fill();
        others.push(`sheep at ${o.x},${o.y}`);
        continue;
      }
      const h = Math.max(3, size * 0.4);
      const own = o.owner === sees.you;
      ctx.fillStyle = ownerColour(o.owner ?? 0);
      ctx.fillRect(cx(o.x) - h, cy(o.y) - h, 2 * h, 2 * h);
      ctx.lineWidth = Math.max(1, size * (own ? 0.12 : 0.07));
      ctx.strokeStyle = own ? '#ffffff' : '#000';
      ctx.strokeRect(cx(o.x) - h, cy(o.y) - h, 2 * h, 2 * h);
      if (size >= 14 && o.id !== undefined) {
        ctx.fillStyle = '#000';
        ctx.font = `bold ${Math.round(size * 0.45)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(String(o.id), cx(o.x), cy(o.y) + 1, 2 * h);
      }
      (own ? mine : others).push(`dog ${o.id ?? '?'} at ${o.x},${o.y}${own ? '' : ` (player ${o.owner ?? '?'})`}`);
    }
    canvas?.setAttribute('data-seat-sees', [`your dogs: ${mine.join(', ') || 'none'}`, ...(others.length ? [`seen: ${others.join(', ')}`] : [])].join('; '));
  }

  return {
    mount(c, info) {
      canvas = c;
      setup = info;
    },
    draw(frame: Frame, highlight: readonly Cell[] = []) {
      if (!canvas) return;
      const { ctx, width, height } = fitCanvas(canvas);
      ctx.fillStyle = THEME.background;
      ctx.fillRect(0, 0, width, height);
      if (frame.state) drawState(ctx, width, height, frame.state as SmartDogState, highlight);
      else if (frame.publicFrame) drawPublic(ctx, width, height, frame.publicFrame as SmartDogPublicFrame, frame.seat, highlight);
    },
    // Cells are [x, y] with y down, as on the wire.
    cellAt: (x, y) => (layout ? cellOfPoint(layout, layout.cols, layout.rows, x, y) : null),
    unmount() {
      canvas = null;
      setup = null;
      layout = null;
    },
  };
}
