/** Shared drawing helpers for the renderers: the seat colours, and a canvas sized to its box. */

/**
 * One colour per seat, distinct on a dark and a light background and for the common colour blindnesses
 * (Okabe–Ito, then four more); index by slot, modulo the length.
 */
export const SEAT_COLOURS = [
  '#E69F00',
  '#56B4E9',
  '#009E73',
  '#F0E442',
  '#0072B2',
  '#D55E00',
  '#CC79A7',
  '#9E9E9E',
  '#8C564B',
  '#17BECF',
  '#BCBD22',
  '#7F7FFF',
];

/** The seat's colour. */
export function seatColour(slot: number): string {
  return SEAT_COLOURS[((slot % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length]!;
}

/** The page's colours, for renderers (the app has a dark theme). */
export const THEME = { background: '#12161c', board: '#1b2129', grid: '#2e3742', text: '#e8edf2', muted: '#8a97a6', highlight: '#ffffff' };

/**
 * Fits the canvas's drawing buffer to its CSS box × devicePixelRatio and returns its context, scaled so that
 * drawing is in CSS pixels, with the box's width and height.
 */
export function fitCanvas(canvas: HTMLCanvasElement): { ctx: CanvasRenderingContext2D; width: number; height: number } {
  const dpr = typeof devicePixelRatio === 'number' && devicePixelRatio > 0 ? devicePixelRatio : 1;
  const width = Math.max(1, canvas.clientWidth || canvas.width);
  const height = Math.max(1, canvas.clientHeight || canvas.height);
  const w = Math.round(width * dpr);
  const h = Math.round(height * dpr);
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gives no 2D canvas');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, width, height };
}

/**
 * A square grid of `cols`×`rows` cells centred in a box: the cell size and the top-left corner, so that
 * cell (x, y) is at (left + x·size, top + y·size).
 */
export function gridLayout(width: number, height: number, cols: number, rows: number, margin = 8): { size: number; left: number; top: number } {
  const size = Math.max(1, Math.min((width - 2 * margin) / cols, (height - 2 * margin) / rows));
  return { size, left: (width - size * cols) / 2, top: (height - size * rows) / 2 };
}

/** The cell of a point in a grid laid out by `gridLayout`, or null outside it. */
export function cellOfPoint(
  g: { size: number; left: number; top: number },
  cols: number,
  rows: number,
  px: number,
  py: number,
): readonly [number, number] | null {
  const x = Math.floor((px - g.left) / g.size);
  const y = Math.floor((py - g.top) / g.size);
  return x >= 0 && y >= 0 && x < cols && y < rows ? [x, y] : null;
}
