/** Tron in the browser: every trail in its seat's colour (the dead dimmed), heads marked, and arrow-key moves. */
import type { AskPhase } from '../../../src/core/game.js';
import type { Direction, TronState } from '../../../src/games/tron/rules.js';
import type { TronMessage } from '../../../src/games/tron/wire.js';
import { cellOfPoint, fitCanvas, gridLayout, seatColour, THEME } from './draw.js';
import type { Cell, Choice, Frame, MatchSetupInfo, Renderer, SeatInfo, SeatOut, WebGame } from './types.js';

/** The four moves as a person sees them; y grows downwards, so y- is up. */
const MOVES: readonly { dir: Direction; word: string; key: string; dx: number; dy: number }[] = [
  { dir: 'y-', word: 'up', key: 'ArrowUp', dx: 0, dy: -1 },
  { dir: 'x-', word: 'left', key: 'ArrowLeft', dx: -1, dy: 0 },
  { dir: 'y+', word: 'down', key: 'ArrowDown', dx: 0, dy: 1 },
  { dir: 'x+', word: 'right', key: 'ArrowRight', dx: 1, dy: 0 },
];

/** A cell bitmap, its canvas and packed colours; kept between draws, remade only when the grid's size changes. */
interface Pixels {
  canvas: OffscreenCanvas | HTMLCanvasElement;
  ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;
  image: ImageData;
  /** the image's pixels as 32-bit words (one per cell) */
  words: Uint32Array;
  /** the board's colour as a word */
  board: number;
  /** a seat's trail colour as a word, over the board (dimmed for the dead) */
  colour(slot: number, dead: boolean): number;
}

const rgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/** Packs a colour as the bitmap's words hold it, whatever the machine's byte order. */
function word(bytes: [number, number, number], scratch: Uint8ClampedArray, view: Uint32Array): number {
  scratch.set([...bytes, 255]);
  return view[0]!;
}

function makePixels(cols: number, rows: number): Pixels {
  const canvas =
    typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(cols, rows) : Object.assign(document.createElement('canvas'), { width: cols, height: rows });
  const ctx = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) throw new Error('this browser gives no 2D canvas');
  const image = ctx.createImageData(cols, rows);
  const scratch = new Uint8ClampedArray(4);
  const view = new Uint32Array(scratch.buffer);
  const board = rgb(THEME.board);
  // Trail colours blended over the board once (alpha 0.8 living, 0.35 dead), 2 per seat, made as asked.
  const colours = new Map<number, number>();
  const colour = (slot: number, dead: boolean) => {
    const k = slot * 2 + (dead ? 1 : 0);
    let c = colours.get(k);
    if (c === undefined) {
      const a = dead ? 0.35 : 0.8;
      const seat = rgb(seatColour(slot));
      colours.set(k, (c = word(seat.map((v, i) => Math.round(v * a + board[i]! * (1 - a))) as [number, number, number], scratch, view)));
    }
    return c;
  };
  return { canvas, ctx, image, words: new Uint32Array(image.data.buffer), board: word(board, scratch, view), colour };
}

/**
 * Paints every trail into the bitmap. The dead keep their trail in the state; it is painted first and dimmed
 * (it left the board, and a living trail may have crossed it since).
 */
function paintTrails(bmp: Pixels, s: TronState): void {
  bmp.words.fill(bmp.board);
  for (let pass = 0; pass < 2; pass++) {
    const dead = pass === 0;
    for (let slot = 0; slot < s.trails.length; slot++) {
      if (!!s.death[slot] !== dead) continue;
      const trail = s.trails[slot]!;
      const colour = bmp.colour(slot, dead);
      for (let i = 0; i < trail.length; i++) {
        const cell = trail[i]!;
        bmp.words[cell[1] * s.width + cell[0]] = colour;
      }
    }
  }
  bmp.ctx.putImageData(bmp.image, 0, 0);
}

function createRenderer(): Renderer {
  let canvas: HTMLCanvasElement | null = null;
  let setup: MatchSetupInfo | null = null;
  let layout = { size: 1, left: 0, top: 0 };
  let cols = 0;
  let rows = 0;
  // The trails' bitmap, kept between draws (remade when the grid's size changes).
  let px: Pixels | null = null;

  return {
    mount(c: HTMLCanvasElement, info: MatchSetupInfo) {
      canvas = c;
      setup = info;
    },
    draw(frame: Frame, highlight: readonly Cell[] = []) {
      if (!canvas) return;
      const { ctx, width, height } = fitCanvas(canvas);
      const s = frame.state as TronState | undefined;
      cols = s?.width ?? Number(setup?.config.width ?? 100);
      rows = s?.height ?? Number(setup?.config.height ?? 100);
      layout = gridLayout(width, height, cols, rows, 8);
      const { size, left, top } = layout;
      ctx.fillStyle = THEME.background;
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = THEME.board;
      ctx.fillRect(left, top, cols * size, rows * size);
      if (s) {
        // The trails go into a bitmap of one pixel per cell, drawn scaled in one call: a 100×100 board has
        // ~10 000 trail cells, too many for a canvas call each (or one path) in a frame.
        px = px && px.image.width === cols && px.image.height === rows ? px : makePixels(cols, rows);
        paintTrails(px, s);
        ctx.imageSmoothingEnabled = false;
        ctx.drawImage(px.canvas, left, top, cols * size, rows * size);
      }
      // Grid lines over the trails, only where a cell is big enough for them to help rather than turn the board grey.
      if (size >= 10) {
        ctx.strokeStyle = THEME.grid;
        ctx.lineWidth = 1;
        ctx.beginPath();
        for (let x = 1; x < cols; x++) {
          ctx.moveTo(left + x * size, top);
          ctx.lineTo(left + x * size, top + rows * size);
        }
        for (let y = 1; y < rows; y++) {
          ctx.moveTo(left, top + y * size);
          ctx.lineTo(left + cols * size, top + y * size);
        }
        ctx.stroke();
      }
      if (!s) return;

      // Heads (the last step's moves): the living as a bright cell ringed in white, the dead crossed out.
      // A small cell's head grows to ~10 px across, so it shows on a 100×100 board; a big one fits its cell.
      const pad = size < 12 ? 3 : 0;
      s.trails.forEach((trail, slot) => {
        const head = trail[trail.length - 1];
        if (!head) return;
        const x = left + head[0] * size;
        const y = top + head[1] * size;
        if (s.death[slot]) {
          ctx.strokeStyle = seatColour(slot);
          ctx.lineWidth = Math.max(1.5, size * 0.2);
          ctx.beginPath();
          ctx.moveTo(x - pad, y - pad);
          ctx.lineTo(x + size + pad, y + size + pad);
          ctx.moveTo(x + size + pad, y - pad);
          ctx.lineTo(x - pad, y + size + pad);
          ctx.stroke();
          return;
        }
        ctx.fillStyle = seatColour(slot);
        ctx.fillRect(x - pad, y - pad, size + 2 * pad, size + 2 * pad);
        ctx.strokeStyle = THEME.highlight;
        ctx.lineWidth = Math.max(1, Math.min(3, size * 0.18));
        ctx.strokeRect(x - pad, y - pad, size + 2 * pad, size + 2 * pad);
        if (size >= 14) {
          ctx.fillStyle = THEME.background;
          ctx.font = `700 ${Math.round(size * 0.7)}px system-ui, sans-serif`;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText(String.fromCharCode(65 + slot), x + size / 2, y + size / 2 + 1);
          ctx.textAlign = 'start';
        }
      });

      // Pickable cells: a white outline around each free neighbour of the person's head.
      ctx.strokeStyle = THEME.highlight;
      const line = Math.max(1, Math.min(3, size * 0.12));
      ctx.lineWidth = line;
      for (const [x, y] of highlight) ctx.strokeRect(left + x * size + line / 2, top + y * size + line / 2, size - line, size - line);
    },
    cellAt(x: number, y: number) {
      return cellOfPoint(layout, cols, rows, x, y);
    },
    unmount() {
      canvas = null;
      px = null;
    },
  };
}

/**
 * The four directions of a lap message. All four are legal answers, so all are offered (a person may not be
 * left without a move when every way is blocked); one that crashes at once (off the grid, or into a trail on
 * the board) says so in its label and has no cell, so a click on the board never picks it, only its key.
 * A head-on with another bot moving into the same cell cannot be known before the lap and is not marked.
 */
function choices(view: unknown, phase: AskPhase, seat: SeatInfo): Choice[] {
  const v = view as TronMessage;
  // The hello is answered by the server (human.hello), so only a lap asks the person.
  if (phase !== 'play' || v?.action !== 'play-turn') return [];
  const head = v.board[v['player-index']]?.[0];
  if (!head) return [];
  // The size is in the message off the original grid; on it, the config's (100 when that is missing too).
  const width = v.width ?? Number(seat.config.width ?? 100);
  const height = v.height ?? Number(seat.config.height ?? 100);
  const taken = (x: number, y: number) => v.board.some((trail) => trail.some(([tx, ty]) => tx === x && ty === y));
  return MOVES.map(({ dir, word, key, dx, dy }) => {
    const x = head[0] + dx;
    const y = head[1] + dy;
    const crash = x < 0 || y < 0 || x >= width || y >= height || taken(x, y);
    return crash ? { label: `${word} (crash)`, line: dir, key } : { label: word, line: dir, cell: [x, y] as Cell, key };
  });
}

/** Tron's renderer and human play for the browser. */
/** A dead bot's lap and cause, as the rules recorded them in the state. */
function out(frame: Frame, slot: number): SeatOut | null {
  const death = (frame.state as TronState | undefined)?.death?.[slot];
  return death ? { at: `lap ${death.lap}`, cause: death.cause } : null;
}

export const tron: WebGame = { id: 'tron', createRenderer, play: { choices }, out, scoreEachStep: true };
