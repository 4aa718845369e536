import type { HumanPlay } from '../../core/game.js';
import type { TronMessage } from './wire.js';

const WORDS: Record<string, string> = { right: 'x+', left: 'x-', down: 'y+', up: 'y-', r: 'x+', l: 'x-', d: 'y+', u: 'y-' };

/**
 * Terminal play: shows the cells around your head (y grows downwards), `#` beyond the grid on every side
 * (the grid's size is in the message off the original 100×100 grid; else the seat's config, else 100), and
 * reads a direction.
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
    view.board.forEach((t, slot) => t.forEach(([x, y], i) => owner.set(`${x},${y}`, i === 0 ? String.fromCharCode(65 + slot) : String.fromCharCode(97 + slot))));
    const rows: string[] = [];
    for (let y = hy - 5; y <= hy + 5; y++) {
      let row = '';
      for (let x = hx - 10; x <= hx + 10; x++) row += x < 0 || y < 0 || x >= width || y >= height ? '#' : (owner.get(`${x},${y}`) ?? '.');
      rows.push(row);
    }
    return `${rows.join('\n')}\nyou are ${String.fromCharCode(65 + me)} at ${hx},${hy}; your move (x+ right, x- left, y+ down, y- up; or right/left/down/up):`;
  },
  parse(line) {
    const d = WORDS[line.toLowerCase()] ?? line;
    return ['x+', 'x-', 'y+', 'y-'].includes(d) ? { answer: { play: d } } : { error: `"${line}" is not a direction: type x+, x-, y+, y- (or right, left, down, up)` };
  },
};
