/** Connect Four in the browser: a 6×7 board of discs in the seats' colours; a click anywhere in a column drops there. */
import type { AskPhase } from '../../../src/core/game.js';
import { COLS, landingRow, lineThrough, ROWS, type ConnectFourState } from '../../../src/games/connect4/rules.js';
import type { ConnectFourMessage } from '../../../src/games/connect4/wire.js';
import { cellOfPoint, fitCanvas, gridLayout, seatColour, THEME } from './draw.js';
import type { Cell, Choice, Frame, MatchSetupInfo, Renderer, WebGame } from './types.js';

const MARKS = ['X', 'O'];
const EMPTY: readonly (readonly string[])[] = Array.from({ length: ROWS }, () => Array<string>(COLS).fill(''));

/**
 * Cells are (x, y) = (column, row) with row 0 at the bottom, as the wire's `board[row][col]`; the screen
 * draws row 0 lowest, so a cell's screen row is ROWS − 1 − row.
 */
function createRenderer(): Renderer {
  let canvas: HTMLCanvasElement | null = null;
  let layout = { size: 1, left: 0, top: 0 };
  // The board last drawn: a click in a column picks the cell its disc would land on.
  let shown: readonly (readonly string[])[] = EMPTY;

  return {
    mount(c: HTMLCanvasElement, _setup: MatchSetupInfo) {
      canvas = c;
    },
    draw(frame: Frame, highlight: readonly Cell[] = []) {
      if (!canvas) return;
      const { ctx, width, height } = fitCanvas(canvas);
      const board = (frame.state as ConnectFourState | undefined)?.board ?? EMPTY;
      shown = board;
      layout = gridLayout(width, height, COLS, ROWS, 12);
      const { size, left, top } = layout;
      const centre = (col: number, row: number) => [left + col * size + size / 2, top + (ROWS - 1 - row) * size + size / 2] as const;
      ctx.fillStyle = THEME.background;
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = THEME.board;
      ctx.fillRect(left, top, size * COLS, size * ROWS);

      // The last disc played, for the outline below (a play step's action is its column).
      const last = frame.record?.phase === 'play' ? frame.record.moves.find((m) => typeof m.action === 'number') : undefined;
      let lastRow = -1;
      if (last) for (let r = ROWS - 1; r >= 0 && lastRow < 0; r--) if (board[r]![last.action as number]) lastRow = r;

      const radius = size * 0.4;
      for (let row = 0; row < ROWS; row++) {
        for (let col = 0; col < COLS; col++) {
          const slot = MARKS.indexOf(board[row]![col]!);
          const [cx, cy] = centre(col, row);
          ctx.beginPath();
          ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
          ctx.fillStyle = slot < 0 ? THEME.background : seatColour(slot);
          ctx.fill();
        }
      }
      if (last && lastRow >= 0) {
        const [cx, cy] = centre(last.action as number, lastRow);
        ctx.strokeStyle = THEME.highlight;
        ctx.lineWidth = Math.max(2, size / 16);
        ctx.beginPath();
        ctx.arc(cx, cy, radius * 0.55, 0, 2 * Math.PI);
        ctx.stroke();
      }

      // A won board: the line through the last disc (only a move can complete one, so checking it is enough).
      const line = last && lastRow >= 0 ? lineThrough(board, lastRow, last.action as number) : null;
      if (line) {
        const [a, b] = [line.cells[0]!, line.cells[line.cells.length - 1]!];
        const [ax, ay] = centre(a[1], a[0]);
        const [bx, by] = centre(b[1], b[0]);
        ctx.lineCap = 'round';
        ctx.strokeStyle = THEME.highlight;
        ctx.globalAlpha = 0.8;
        ctx.lineWidth = Math.max(4, size / 8);
        ctx.beginPath();
        ctx.moveTo(ax, ay);
        ctx.lineTo(bx, by);
        ctx.stroke();
        ctx.globalAlpha = 1;
      }

      // Pickable cells: a ring where the disc would land.
      ctx.strokeStyle = THEME.highlight;
      ctx.lineWidth = Math.max(2, size / 20);
      ctx.setLineDash([size / 10, size / 14]);
      for (const [col, row] of highlight) {
        const [cx, cy] = centre(col, row);
        ctx.beginPath();
        ctx.arc(cx, cy, radius * 0.85, 0, 2 * Math.PI);
        ctx.stroke();
      }
      ctx.setLineDash([]);
    },
    cellAt(x: number, y: number) {
      const cell = cellOfPoint(layout, COLS, ROWS, x, y);
      if (!cell) return null;
      // Anywhere in a column means that column: its landing cell (the top cell of a full one).
      const row = landingRow(shown, cell[0]);
      return [cell[0], row < 0 ? ROWS - 1 : row];
    },
    unmount() {
      canvas = null;
    },
  };
}

/** The non-full columns of a play-turn message, each with the cell its disc lands on. */
function choices(view: unknown, phase: AskPhase): Choice[] {
  const v = view as ConnectFourMessage;
  // The hello is answered by the server (human.hello), so only a play turn asks the person.
  if (phase !== 'play' || v?.action !== 'play-turn') return [];
  const out: Choice[] = [];
  for (let col = 0; col < COLS; col++) {
    const row = landingRow(v.board, col);
    if (row >= 0) out.push({ label: `column ${col}`, line: String(col), cell: [col, row], key: String(col) });
  }
  return out;
}

/** Connect Four's renderer and human play for the browser. */
export const connect4: WebGame = { id: 'connect4', createRenderer, play: { choices } };
