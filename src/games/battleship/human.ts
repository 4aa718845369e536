import type { HumanPlay } from '../../core/game.js';
import { rngCreate } from '../../core/rng.js';
import { randomFleet } from './bots.js';
import type { BattleshipConfig } from './rules.js';
import type { BattleshipMessage } from './wire.js';

let fleets = 0;

/** Terminal play: an empty line places the fleet at random (or type the ships); shots are "x,y". */
export const human: HumanPlay<BattleshipMessage> = {
  prompt(view, phase) {
    if (phase === 'init') return `grid ${view.board.width}×${view.board.height}; ships: x1,y1-x2,y2 separated by spaces (empty line: random placement):`;
    if (view.action !== 'play-turn') return '';
    const shots = view.board.your_strikes.map((s) => `${s.target}${s.result ? ` ${s.result}` : ' miss'}`).slice(-8);
    return `your last shots: ${shots.join('; ') || 'none'}\nyour shot (x,y):`;
  },
  parse(line, view, phase) {
    if (phase === 'init') {
      if (!line) {
        const b = view.board;
        const c = Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'opponent').map(([k, v]) => [k, Number(v)])) as BattleshipConfig;
        return { answer: { name: 'human', boats: randomFleet(c, rngCreate(++fleets)) } };
      }
      return { answer: { name: 'human', boats: line.split(/\s+/) } };
    }
    const m = /^(\d+)\s*[, ]\s*(\d+)$/.exec(line);
    return m ? { answer: { play: `${Number(m[1])},${Number(m[2])}` } } : { error: `"${line}" is not a shot: type x,y (e.g. 3,4)` };
  },
};
