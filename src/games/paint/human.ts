import type { HumanPlay } from '../../core/game.js';
import { renderView } from './render.js';
import type { PaintMessage, PaintTurn } from './wire.js';

/** Direction words → [row step, column step]; rows grow downwards. */
const WORDS: Record<string, [number, number]> = {
  n: [-1, 0],
  up: [-1, 0],
  u: [-1, 0],
  s: [1, 0],
  down: [1, 0],
  d: [1, 0],
  e: [0, 1],
  right: [0, 1],
  r: [0, 1],
  w: [0, -1],
  left: [0, -1],
  l: [0, -1],
  ne: [-1, 1],
  nw: [-1, -1],
  se: [1, 1],
  sw: [1, -1],
};
const TYPES: Record<string, 'walk' | 'shoot'> = { walk: 'walk', w: 'walk', move: 'walk', m: 'walk', shoot: 'shoot', s: 'shoot', fire: 'shoot', f: 'shoot' };

/** Terminal play: shows the board and reads "walk e", "shoot sw", "s 1 -1"… */
export const human: HumanPlay<PaintMessage> = {
  hello: () => ({ ready: true }),
  prompt(view, phase) {
    if (phase === 'init' || !('turns_left' in view)) return '';
    return `${renderView(view)}\nyour action: walk|shoot (w|s) and a direction n s e w ne nw se sw (or up/down/left/right, or "row-step col-step"):`;
  },
  parse(line, view) {
    const words = line.toLowerCase().split(/\s+/).filter(Boolean);
    const type = TYPES[words[0] ?? ''];
    const rest = words.slice(1);
    let direction: [number, number] | undefined;
    if (rest.length === 1) direction = WORDS[rest[0]!];
    else if (rest.length === 2 && rest.every((x) => /^[+-]?[01]$/.test(x))) direction = [Number(rest[0]), Number(rest[1])];
    if (!type || !direction || (direction[0] === 0 && direction[1] === 0)) {
      return { error: `"${line}" is not an action: type walk or shoot, then a direction, e.g. "walk e", "shoot sw", "s -1 0"` };
    }
    return { answer: { turns_left: (view as PaintTurn).turns_left, type, direction } };
  },
};
