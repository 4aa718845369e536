import type { HumanPlay } from '../../core/game.js';
import type { TronMessage } from './wire.js';

const WORDS: Record<string, string> = { right: 'x+', left: 'x-', down: 'y+', up: 'y-', r: 'x+', l: 'x-', d: 'y+', u: 'y-' };

/** What an arrow key types on a line (ESC [ A, or ESC O A in a terminal's application mode): its direction. */
const ARROWS: Record<string, string> = { A: 'y-', B: 'y+', C: 'x+', D: 'x-' };
const ESC = '\x1b';

/** The terminal a board is drawn for when the person's is unknown: the classic 80×24. */
const SCREEN = { columns: 80, rows: 24 };

/** The lines a prompt takes besides the board: a blank line and the turn above it, the question below. */
const AROUND = 3;

/**
 * Terminal play: shows the whole grid walled by `#` when it fits the person's terminal, else the cells around your
 * head, as many as the terminal holds (at least 21×11), `#` beyond the grid (y grows downwards; the grid's size is
 * in the message off the original 100×100 grid, else the seat's config, else 100), and reads a direction: a word,
 * or an arrow key then Enter.
 */
export const human: HumanPlay<TronMessage> = {
  hello: (_view, name) => ({ name }),
  prompt(view, _phase, seat) {
    if (view.action !== 'play-turn') return '';
    const width = view.width ?? Number(seat?.config.width ?? 100);
    const height = view.height ?? Number(seat?.config.height ?? 100);
    const me = view['player-index'];
    const [hx, hy] = view.board[me]![0]!;
    const owner = new Map<string, string>();
    view.board.forEach((t, slot) =>
      t.forEach(([x, y], i) => owner.set(`${x},${y}`, i === 0 ? String.fromCharCode(65 + slot) : String.fromCharCode(97 + slot))),
    );
    const screen = seat?.screen ?? SCREEN;
    const whole = width + 2 <= screen.columns && height + 2 + AROUND <= screen.rows;
    const [dx, dy] = [Math.max(10, Math.floor((screen.columns - 1) / 2)), Math.max(5, Math.floor((screen.rows - AROUND - 1) / 2))];
    // (A window reaching past the grid shows one wall, not more.)
    const [x0, x1, y0, y1] = whole
      ? [-1, width, -1, height]
      : [Math.max(-1, hx - dx), Math.min(width, hx + dx), Math.max(-1, hy - dy), Math.min(height, hy + dy)];
    const rows: string[] = [];
    for (let y = y0; y <= y1; y++) {
      let row = '';
      for (let x = x0; x <= x1; x++) row += x < 0 || y < 0 || x >= width || y >= height ? '#' : (owner.get(`${x},${y}`) ?? '.');
      rows.push(row);
    }
    return `${rows.join('\n')}\nyou are ${String.fromCharCode(65 + me)} at ${hx},${hy}; your move (x+ right, x- left, y+ down, y- up; or right/left/down/up, or an arrow key; then Enter):`;
  },
  parse(line) {
    // Arrow keys pressed before Enter: the last one counts.
    const arrow = line.split(ESC).every((key, i) => (i === 0 ? key === '' : /^[[O][A-D]$/.test(key))) && line !== '' ? ARROWS[line.at(-1)!] : undefined;
    const d = arrow ?? WORDS[line.toLowerCase()] ?? line;
    // The line is quoted as JSON: the escape codes of other keys would otherwise move the cursor over the message.
    return ['x+', 'x-', 'y+', 'y-'].includes(d)
      ? { answer: { play: d } }
      : { error: `${JSON.stringify(line)} is not a direction: type x+, x-, y+, y- (or right, left, down, up, or an arrow key)` };
  },
};
