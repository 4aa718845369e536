import type { HumanPlay } from '../../core/game.js';
import type { LighthousesMessage, LighthousesTurn } from './wire.js';

const HELP = 'move DX DY (each -1..1, y up) · attack N · connect X Y · pass';

/** Terminal play: shows the energy around you and the lighthouses, and reads a command. */
export const human: HumanPlay<LighthousesMessage> = {
  hello: (_view, name) => ({ name }),
  prompt(view) {
    const s = view as LighthousesTurn;
    const rows = s.view
      .slice()
      .reverse()
      .map((r) => r.map((e) => (e < 0 ? '   ' : String(e).padStart(3))).join(''));
    const lights = s.lighthouses.map((l) => `${l.position.join(',')} owner ${l.owner ?? -1} energy ${l.energy}${l.have_key ? ' key' : ''}`);
    return `${rows.join('\n')}\nat ${s.position.join(',')}, energy ${s.energy}, score ${s.score}\n${lights.join('\n')}\n${HELP}:`;
  },
  parse(line) {
    const [word = '', ...rest] = line
      .trim()
      .toLowerCase()
      .split(/[\s,]+/);
    const nums = rest.map(Number);
    const ints = nums.every(Number.isInteger);
    if ('pass'.startsWith(word) && word) return { answer: { command: 'pass' } };
    if ('move'.startsWith(word) && word && nums.length === 2 && ints) return { answer: { command: 'move', x: nums[0], y: nums[1] } };
    if ('attack'.startsWith(word) && word && nums.length === 1 && ints) return { answer: { command: 'attack', energy: nums[0] } };
    if ('connect'.startsWith(word) && word && nums.length === 2 && ints) return { answer: { command: 'connect', destination: nums } };
    return { error: `"${line}" is not a command: ${HELP}` };
  },
};
