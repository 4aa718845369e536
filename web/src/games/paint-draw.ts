/** The paint board on a canvas: squares in their painters' colours, obstacles, avatars and the last turn's actions. */
import type { PaintAction, PaintState } from '../../../src/games/paint/rules.js';
import { cellOfPoint, fitCanvas, gridLayout, seatColour, THEME } from './draw.js';
import type { Cell, Frame, MatchSetupInfo, Renderer } from './types.js';

const LEGEND_ROW = 18;
// Obstacles are holes in the board: black, apart from every seat's (dimmed) colour.
const OBSTACLE_COLOUR = '#000000';

/** A seat colour dimmed over the board, so avatars (full colour) stand out on their own paint. */
function paintColour(slot: number): string {
  const hex = seatColour(slot);
  const dim = (i: number) => Math.round(parseInt(hex.slice(i, i + 2), 16) * 0.6 + 0x1b * 0.4);
  return `rgb(${dim(1)},${dim(3)},${dim(5)})`;
}

/** A colour as [r, g, b] from `#rrggbb` or `rgb(r,g,b)`. */
function rgbOf(colour: string): [number, number, number] {
  if (colour.startsWith('#')) return [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16)) as [number, number, number];
  return colour.slice(4, -1).split(',').map(Number) as [number, number, number];
}

/** A renderer's one-pixel-per-square image of the board, kept from draw to draw while the board's size stays. */
type Bitmap = { canvas: OffscreenCanvas; image: ImageData } | null;

/** The board as one pixel per square, in `bitmap` (made anew when the board's size changed). */
function squares(s: PaintState, kept: Bitmap): NonNullable<Bitmap> {
  let bitmap = kept;
  if (!bitmap || bitmap.canvas.width !== s.width || bitmap.canvas.height !== s.height) {
    bitmap = { canvas: new OffscreenCanvas(s.width, s.height), image: new ImageData(s.width, s.height) };
  }
  const px = bitmap.image.data;
  const palette = new Map<number, [number, number, number]>([
    [-1, rgbOf(THEME.board)],
    [-2, rgbOf(OBSTACLE_COLOUR)],
  ]);
  for (let k = 0; k < s.colors.length; k++) {
    const c = s.colors[k]!;
    let rgb = palette.get(c);
    if (!rgb) palette.set(c, (rgb = rgbOf(paintColour(c))));
    px[4 * k] = rgb[0];
    px[4 * k + 1] = rgb[1];
    px[4 * k + 2] = rgb[2];
    px[4 * k + 3] = 255;
  }
  bitmap.canvas.getContext('2d')!.putImageData(bitmap.image, 0, 0);
  return bitmap;
}

/** A renderer for paint states (paint hides nothing, so frames always carry the state). */
export function createPaintRenderer(): Renderer {
  let canvas: HTMLCanvasElement | null = null;
  let setup: MatchSetupInfo | null = null;
  let layout: { size: number; left: number; top: number; cols: number; rows: number } | null = null;
  let bitmap: Bitmap = null;

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

    const counts = new Array<number>(n).fill(0);
    for (const c of s.colors) if (c >= 0) counts[c]!++;
    if (typeof OffscreenCanvas === 'function') {
      // One pixel per square, scaled up unsmoothed: one image instead of up to 40 000 rectangles.
      ctx.imageSmoothingEnabled = false;
      bitmap = squares(s, bitmap);
      ctx.drawImage(bitmap.canvas, left, top, size * s.width, size * s.height);
      if (size >= 8) {
        // The gaps between squares, as one path of lines.
        ctx.strokeStyle = THEME.board;
        ctx.lineWidth = 1;
        ctx.beginPath();
        for (let j = 1; j < s.width; j++) {
          ctx.moveTo(left + j * size - 0.5, top);
          ctx.lineTo(left + j * size - 0.5, top + size * s.height);
        }
        for (let i = 1; i < s.height; i++) {
          ctx.moveTo(left, top + i * size - 0.5);
          ctx.lineTo(left + size * s.width, top + i * size - 0.5);
        }
        ctx.stroke();
      }
    } else {
      // No offscreen canvas: one path per colour, a few fills instead of one per square.
      const byColour = new Map<number, number[]>();
      s.colors.forEach((c, k) => {
        if (c === -1) return;
        let list = byColour.get(c);
        if (!list) byColour.set(c, (list = []));
        list.push(k);
      });
      for (const [c, list] of byColour) {
        ctx.fillStyle = c === -2 ? OBSTACLE_COLOUR : paintColour(c);
        ctx.beginPath();
        for (const k of list) ctx.rect(left + (k % s.width) * size, top + Math.floor(k / s.width) * size, size, size);
        ctx.fill();
      }
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
    // Avatars stay findable on big boards: never under 3.5 px, ringed in white over a black edge.
    const r = Math.max(3.5, size * 0.4);
    s.positions.forEach(([i, j], slot) => {
      ctx.beginPath();
      ctx.arc(cx(j), cy(i), r, 0, 2 * Math.PI);
      ctx.fillStyle = seatColour(slot);
      ctx.fill();
      ctx.lineWidth = Math.max(1.5, size * 0.1);
      ctx.strokeStyle = '#000';
      ctx.stroke();
      ctx.lineWidth = Math.max(1, size * 0.06);
      ctx.strokeStyle = THEME.text;
      ctx.stroke();
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
      bitmap = null;
    },
  };
}
