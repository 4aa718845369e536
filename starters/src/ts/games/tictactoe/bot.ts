// A tic-tac-toe starter bot in TypeScript, with Botarena's SDK (`botarena/sdk`).
// It wins when it can, blocks the other bot's line when it must, else takes the centre, a corner, an edge.
// <%run-line%>
// Rules and every message: docs/games/tictactoe.md in the botarena package.
import { type InitAnswer, type TicTacToeAnswer, type TicTacToeMessage, type TicTacToeTurn } from 'botarena/sdk';

/** A cell key on the wire: "row-col", row first ("1-2" is row 1, column 2). */
export type Cell = TicTacToeAnswer['play'];

/** The eight lines of three: rows, columns, diagonals. */
const LINES: Cell[][] = [
  ['0-0', '0-1', '0-2'], ['1-0', '1-1', '1-2'], ['2-0', '2-1', '2-2'],
  ['0-0', '1-0', '2-0'], ['0-1', '1-1', '2-1'], ['0-2', '1-2', '2-2'],
  ['0-0', '1-1', '2-2'], ['0-2', '1-1', '2-0'],
];

/** Where to play when nothing is urgent: centre, corners, then edges. */
const PREFERENCE: Cell[] = ['1-1', '0-0', '0-2', '2-0', '2-2', '0-1', '1-0', '1-2', '2-1'];

/**
 * <%debug-doc%>
 */
function debug(text: string): void {
  process.stderr.write(`[tictactoe-bot] ${text}\n`);
}

/** The empty cell that completes a line of `mark` (two of them and one empty cell), if any. */
function completing(board: TicTacToeTurn['board'], mark: 'X' | 'O'): Cell | undefined {
  for (const line of LINES) {
    const marks = line.filter((c) => board[c] === mark).length;
    const empty = line.find((c) => board[c] === '');
    if (marks === 2 && empty !== undefined) return empty;
  }
  return undefined;
}

/** Chooses the move for one play-turn message: always the key of an empty cell. */
export function chooseMove(m: TicTacToeTurn): TicTacToeAnswer {
  const me = m.you;
  const other = me === 'X' ? 'O' : 'X';
  const empty = PREFERENCE.filter((c) => m.board[c] === '');
  // ==== your strategy goes here ====
  // `m.board` maps each "row-col" key to "", "X" or "O"; `m.you` is your mark. Return an EMPTY cell:
  // a taken one loses the game at once (illegal-move).
  const cell = completing(m.board, me) ?? completing(m.board, other) ?? empty[0];
  if (cell === undefined) throw new Error('no empty cell: the arena never asks on a full board');
  return { play: cell };
}

/** Answers one message: the init (the answer is not used; a name is the convention), or a turn. */
export function handle(m: TicTacToeMessage): InitAnswer | TicTacToeAnswer {
  if (m.action === 'init') {
    debug(`hello: I am slot ${m['player-index']} (${m['player-index'] === 0 ? 'X' : 'O'})`);
    return { name: 'ts-starter' };
  }
  return chooseMove(m);
}
