/** Tic-tac-toe in the browser: a 3×3 board with X and O in the seats' colours, and clickable empty cells. */
import type { AskPhase } from '../../../src/core/game.js';
import { CELLS, lineOf, type TicTacToeState } from '../../../src/games/tictactoe/rules.js';
import type { TicTacToeMessage } from '../../../src/games/tictactoe/wire.js';
import { cellOfPoint, fitCanvas, gridLayout, seatColour, THEME } from './draw.js';
import type { Cell, Choice, Frame, MatchSetupInfo, Renderer, WebGame } from './types.js';

const MARKS = ['X', 'O'];
/** Cells are (x, y) = (column, row), so cell (c, r) is the wire's key "r-c". */
const cellOfKey = (key: string): Cell => [Number(key[2]), Number(key[0])];

function createRenderer(): Renderer {
  let canvas: HTMLCanvasElement | null = null;
  // The last layout drawn, so that a click maps to the cell the person saw.
  let layout = { size: 1, left: 0, top: 0 };

  return {
    mount(c: HTMLCanvasElement, _setup: MatchSetupInfo) {
      canvas = c;
    },
    draw(frame: Frame, highlight: readonly Cell[] = []) {
      if (!canvas) return;
      const { ctx, width, height } = fitCanvas(canvas);
      const board = (frame.state as TicTacToeState | undefined)?.board ?? Array<string>(9).fill('');
      layout = gridLayout(width, height, 3, 3, 12);
      const { size, left, top } = layout;
      ctx.fillStyle = THEME.background;
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = THEME.board;
      ctx.fillRect(left, top, size * 3, size * 3);
      ctx.strokeStyle = THEME.grid;
      ctx.lineWidth = Math.max(2, size / 30);
      ctx.beginPath();
      for (let i = 1; i < 3; i++) {
        ctx.moveTo(left + i * size, top);
        ctx.lineTo(left + i * size, top + 3 * size);
        ctx.moveTo(left, top + i * size);
        ctx.lineTo(left + 3 * size, top + i * size);
      }
      ctx.stroke();

      // The last step's move (a play turn's action is the cell key) gets an outline.
      for (const m of frame.record?.phase === 'play' ? frame.record.moves : []) {
        if (typeof m.action !== 'string' || !CELLS.includes(m.action as never)) continue;
        const [x, y] = cellOfKey(m.action);
        ctx.strokeStyle = seatColour(m.slot);
        ctx.lineWidth = Math.max(2, size / 25);
        ctx.strokeRect(left + x * size + size * 0.06, top + y * size + size * 0.06, size * 0.88, size * 0.88);
      }

      ctx.lineCap = 'round';
      ctx.lineWidth = Math.max(3, size / 10);
      board.forEach((mark, i) => {
        const slot = MARKS.indexOf(mark);
        if (slot < 0) return;
        const cx = left + (i % 3) * size + size / 2;
        const cy = top + Math.floor(i / 3) * size + size / 2;
        const r = size * 0.3;
        ctx.strokeStyle = seatColour(slot);
        ctx.beginPath();
        if (slot === 0) {
          ctx.moveTo(cx - r, cy - r);
          ctx.lineTo(cx + r, cy + r);
          ctx.moveTo(cx + r, cy - r);
          ctx.lineTo(cx - r, cy + r);
        } else {
          ctx.arc(cx, cy, r, 0, 2 * Math.PI);
        }
        ctx.stroke();
      });

      // A won board: a line through the three cells (eight lines to test, so it is cheap every draw).
      for (const [slot, mark] of MARKS.entries()) {
        const line = lineOf(board, mark);
        if (!line) continue;
        const centre = (i: number) => [left + (i % 3) * size + size / 2, top + Math.floor(i / 3) * size + size / 2] as const;
        const [ax, ay] = centre(line[0]!);
        const [bx, by] = centre(line[2]!);
        ctx.strokeStyle = THEME.highlight;
        ctx.globalAlpha = 0.85;
        ctx.lineWidth = Math.max(4, size / 14);
        ctx.beginPath();
        ctx.moveTo(ax, ay);
        ctx.lineTo(bx, by);
        ctx.stroke();
        ctx.globalAlpha = 1;
        ctx.strokeStyle = seatColour(slot);
        ctx.lineWidth = Math.max(2, size / 30);
        ctx.stroke();
      }

      // Pickable cells: a dot in the middle, so an empty board shows where to click.
      ctx.fillStyle = THEME.highlight;
      ctx.globalAlpha = 0.5;
      for (const [x, y] of highlight) {
        ctx.beginPath();
        ctx.arc(left + x * size + size / 2, top + y * size + size / 2, Math.max(3, size / 14), 0, 2 * Math.PI);
        ctx.fill();
      }
      ctx.globalAlpha = 1;
    },
    cellAt(x: number, y: number) {
      return cellOfPoint(layout, 3, 3, x, y);
    },
    unmount() {
      canvas = null;
    },
  };
}

/** The empty cells of a play-turn message, as "row-col" lines (what the terminal reads). */
function choices(view: unknown, phase: AskPhase): Choice[] {
  const v = view as TicTacToeMessage;
  // The hello is answered by the server (human.hello), so only a play turn asks the person.
  if (phase !== 'play' || v?.action !== 'play-turn') return [];
  return CELLS.filter((key) => v.board[key] === '').map((key) => ({ label: `row ${key[0]}, column ${key[2]}`, line: key, cell: cellOfKey(key) }));
}

/** Tic-tac-toe's renderer and human play for the browser. */
export const tictactoe: WebGame = { id: 'tictactoe', createRenderer, play: { choices } };
