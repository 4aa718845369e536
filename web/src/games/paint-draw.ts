/** The paint board on a canvas: squares in their painters' colours, obstacles, avatars and the last turn's actions. */
import type { PaintAction, PaintState } from '../../../src/games/paint/rules.js';
import { cellOfPoint, fitCanvas, gridLayout, seatColour, THEME } from './draw.js';
import type { Cell, Frame, MatchSetupInfo, Renderer } from './types.js';

const LEGEND_ROW = 18;
const OBSTACLE_COLOUR = '#5a6470';

/** A seat colour dimmed over the board, so avatars (full colour) stand out on their own paint. */
function paintColour(slot: number): string {
  const hex = seatColour(slot);
  const dim = (i: number) => Math.round(parseInt(hex.slice(i, i + 2), 16) * 0.6 + 0x1b * 0.4);
  return `rgb(${dim(1)},${dim(3)},${dim(5)})`;
}

/** A renderer for paint states (paint hides nothing, so frames always carry the state). */
export function createPaintRenderer(): Renderer {
  let canvas: HTMLCanvasElement | null = null;
  let setup: MatchSetupInfo | null = null;
  let layout: { size: number; left: number; top: number; cols: number; rows: number } | null = null;

  function draw(frame: Frame, highlight: readonly Cell[] = []): void {
    if (!canvas) return;
    const { ctx, width, height } = fitCanvas(canvas);
    ctx.fillStyle = THEME.background;
    ctx.fillRect(0, 0, width, height);
    const s = frame.state as PaintState | undefined;
    if (!s) return;
    const n = s.ids.length;
    const seats = setup?.seats ?? [];
    // Legend rows under the board: as many as fit in a fifth of the box (a crowd of players shows its first ones).
    const perRow = width >= 420 ? 3 : 2;
    const legendRows = height > 200 ? Math.min(Math.ceil(n / perRow), Math.floor(height / 5 / LEGEND_ROW)) : 0;
    const g = gridLayout(width, height - LEGEND_ROW * (legendRows + 1) - 4, s.width, s.height);
    layout = { ...g, cols: s.width, rows: s.height };
    const { size, left, top } = g;
    ctx.fillStyle = THEME.board;
    ctx.fillRect(left, top, size * s.width, size * s.height);

    // One path per colour: a few fills instead of one per square keeps a 200×200 board fast.
    const gap = size >= 8 ? 1 : 0;
    const counts = new Array<number>(n).fill(0);
    const byColour = new Map<number, number[]>();
    for (let k = 0; k < s.colors.length; k++) {
      const c = s.colors[k]!;
      if (c === -1) continue;
      if (c >= 0) counts[c]!++;
      let list = byColour.get(c);
      if (!list) byColour.set(c, (list = []));
      list.push(k);
    }
    for (const [c, list] of byColour) {
      ctx.fillStyle = c === -2 ? OBSTACLE_COLOUR : paintColour(c);
      ctx.beginPath();
      for (const k of list) ctx.rect(left + (k % s.width) * size, top + Math.floor(k / s.width) * size, size - gap, size - gap);
      ctx.fill();
    }
    if (size >= 8) {
      ctx.strokeStyle = THEME.grid;
      ctx.lineWidth = 1;
      ctx.strokeRect(left + 0.5, top + 0.5, size * s.width - 1, size * s.height - 1);
    }

    // The last turn: a shot is a line from the shooter along its direction, a walk a notch on the avatar's side.
    const last = new Map<number, PaintAction>();
    for (const m of frame.record?.phase === 'play' ? frame.record.moves : []) if (m.action) last.set(m.slot, m.action as PaintAction);
    const cx = (j: number) => left + (j + 0.5) * size;
    const cy = (i: number) => top + (i + 0.5) * size;
    ctx.lineCap = 'round';
    s.positions.forEach(([i, j], slot) => {
      const a = last.get(slot);
      if (a?.type !== 'shoot') return;
      const [di, dj] = a.direction;
      ctx.strokeStyle = seatColour(slot);
      ctx.lineWidth = Math.max(1, size * 0.15);
      ctx.beginPath();
      ctx.moveTo(cx(j), cy(i));
      ctx.lineTo(cx(j + dj * 1.8), cy(i + di * 1.8));
      ctx.stroke();
    });
    const r = Math.max(1.5, size * 0.36);
    s.positions.forEach(([i, j], slot) => {
      ctx.beginPath();
      ctx.arc(cx(j), cy(i), r, 0, 2 * Math.PI);
      ctx.fillStyle = seatColour(slot);
      ctx.fill();
      if (size >= 6) {
        ctx.lineWidth = Math.max(1, size * 0.07);
        ctx.strokeStyle = THEME.text;
        ctx.stroke();
      }
      const a = last.get(slot);
      if (a?.type === 'walk' && size >= 8) {
        // A notch on the side the avatar walked toward.
        const [di, dj] = a.direction;
        const len = Math.hypot(di, dj);
        ctx.beginPath();
        ctx.arc(cx(j) + (dj / len) * r * 0.55, cy(i) + (di / len) * r * 0.55, r * 0.28, 0, 2 * Math.PI);
        ctx.fillStyle = '#000';
        ctx.fill();
      }
    });

    ctx.strokeStyle = THEME.highlight;
    ctx.lineWidth = 2;
    for (const [x, y] of highlight) ctx.strokeRect(left + x * size + 1, top + y * size + 1, Math.max(1, size - 2), Math.max(1, size - 2));

    const ly = top + size * s.height + 6;
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = THEME.muted;
    const played = s.turns - s.turnsLeft;
    const failed = s.unresponsive.length ? ` · no turn played: ${s.unresponsive.length} unresponsive` : '';
    ctx.fillText(`turn ${played} of ${s.turns} · ${s.width}×${s.height}${failed}`, left, ly + LEGEND_ROW / 2, width - 2 * left);
    const colW = (width - 2 * left) / perRow;
    for (let slot = 0; slot < Math.min(n, legendRows * perRow); slot++) {
      const x = left + (slot % perRow) * colW;
      const y = ly + LEGEND_ROW * (1 + Math.floor(slot / perRow));
      ctx.fillStyle = seatColour(slot);
      ctx.fillRect(x, y + 4, 10, 10);
      ctx.fillStyle = THEME.text;
      ctx.fillText(`${seats[slot]?.name ?? s.ids[slot]}  ${counts[slot]}`, x + 14, y + LEGEND_ROW / 2 + 1, colW - 18);
    }
  }

  return {
    mount(c, info) {
      canvas = c;
      setup = info;
    },
    draw,
    // Cells are [column, row]: x across, y down, as the board is drawn (the wire writes squares [row, column]).
    cellAt: (x, y) => (layout ? cellOfPoint(layout, layout.cols, layout.rows, x, y) : null),
    unmount() {
      canvas = null;
      setup = null;
      layout = null;
    },
  };
}
