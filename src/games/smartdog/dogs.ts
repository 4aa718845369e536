import { cellOf, directionToward, DIRECTIONS, dogScared, free, inTerritory, stepFrom, within, type Direction, type Dog, type SmartDogState } from './state.js';

/** What the server answers a client line with: nothing, a `warning <text>`, or an `error <text>`. */
export interface CommandAnswer {
  warning?: string;
  error?: string;
}

/** A bark by dog d: every sheep in range is scared away from it; enemy dogs in range are scared; allies reassured. */
export function bark(s: SmartDogState, d: Dog): void {
  const r = s.options.dogBarkingR;
  for (const sh of s.sheep) {
    if (!within(s, d.x, d.y, sh.x, sh.y, r)) continue;
    sh.fear = s.options.sheepScaryTurns;
    sh.fearDir = directionToward(s, d.x, d.y, sh.x, sh.y);
    sh.chain = [];
  }
  for (const o of s.dogs) {
    if (o === d || !within(s, d.x, d.y, o.x, o.y, r)) continue;
    if (o.owner === d.owner) {
      o.allyHit = true;
      continue;
    }
    const kind = inTerritory(s, o.owner, d.x, d.y) ? 'indignant' : 'panic';
    o.enemyHit = kind;
    // A dog that is scared already switches at once; a calm one acts normally until the turn ends.
    if (dogScared(o)) o.scare = kind;
  }
  d.barked = true;
}

/** Moves dog d one step if it can; the warning otherwise. Checks in the spec's order after the id. */
function move(s: SmartDogState, d: Dog, dir: Direction): string | undefined {
  if (d.moved) return `${d.id} Dog already moved this turn`;
  if (dogScared(d) && d.scare === 'panic') return `${d.id} Cannot move - scared :(`;
  const [x, y] = stepFrom(s, d.x, d.y, dir);
  if (!free(s, x, y)) return `${d.id} Cannot move to ${x}, ${y} - there is a non traversable landscape or another object`;
  const k = s.occ[cellOf(s, d.x, d.y)]!;
  s.occ[cellOf(s, d.x, d.y)] = 0;
  s.occ[cellOf(s, x, y)] = k;
  d.x = x;
  d.y = y;
  d.moved = true;
  return undefined;
}

/**
 * Applies one client line of `player` (1-based) at once: `do <id> move <dir>`, `do <id> bark`, `end`.
 * Returns the text of the warning or error to send (without the `warning `/`error ` word), if any.
 * Syntax comes first (direction, extra words), then the dog's checks in the spec's order. Blank lines,
 * a player that is out, and a finished game are ignored.
 */
export function applyCommand(s: SmartDogState, player: number, line: string): CommandAnswer {
  if (s.finished || s.out[player - 1]) return {};
  const text = line.replace(/\r?\n$/, '').replace(/\r$/, '');
  const words = text
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const cmd = words[0] ?? '';
  if (cmd === '') return {};
  if (cmd === 'end') {
    // A second `end` is ignored silently; so are words after it (the reference read only the command).
    s.ended[player - 1] = true;
    return {};
  }
  if (cmd !== 'do') {
    const rest = text.trim().slice(cmd.length).trim();
    return { error: `Unknown command: ${cmd}(${rest})` };
  }
  const id = words[1] ?? '';
  const action = words[2] ?? '';
  if (s.ended[player - 1]) return { warning: `${id} Turn already ended` };
  const dog = s.dogs.find((d) => d.owner === player && /^[0-9]+$/.test(id) && Number(id) === d.id);
  if (action === 'move') {
    const dir = words[3] ?? '';
    if (!(DIRECTIONS as readonly string[]).includes(dir))
      return { warning: `${id} Unexpected direction '${dir}', one of the following expected: ${DIRECTIONS.join(',')}` };
    if (words.length > 4) return { warning: `${id} Too many arguments` };
    if (!dog) return { warning: `${id} Unknown id` };
    const w = move(s, dog, dir as Direction);
    return w ? { warning: w } : {};
  }
  if (action === 'bark') {
    if (words.length > 3) return { warning: `${id} Too many arguments` };
    if (!dog) return { warning: `${id} Unknown id` };
    if (dog.barked) return { warning: `${id} Dog with already barked this turn` };
    if (dogScared(dog)) return { warning: `${id} Cannot bark because fighted by another dog` };
    bark(s, dog);
    return {};
  }
  return { warning: `Unknown command - ${action}, only the following are allowed: move,bark` };
}

/**
 * The end of a turn for every dog: an enemy bark sets the counter to `dogScaryTurns` (it wins over an
 * ally's), an ally's bark clears it, otherwise it counts down; then the per-turn flags are reset.
 */
export function dogBookkeeping(s: SmartDogState): void {
  for (const d of s.dogs) {
    if (d.enemyHit) {
      d.scare = d.enemyHit;
      d.scareTurns = s.options.dogScaryTurns;
    } else if (d.allyHit) d.scareTurns = 0;
    else if (d.scareTurns > 0) d.scareTurns--;
    if (d.scareTurns <= 0) {
      d.scareTurns = 0;
      d.scare = null;
    }
    d.barkedPrev = d.barked;
    d.moved = false;
    d.barked = false;
    d.enemyHit = null;
    d.allyHit = false;
  }
}
