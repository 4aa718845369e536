import { OPTION_KEYS } from './options.js';
import { isMoveTurn, onPen } from './sheep.js';
import { cellOf, dogScared, within, wrap, type SmartDogState } from './state.js';
import { winnerOf } from './rules.js';

/** A server line: the command, then the JSON argument without its outer braces/brackets. */
function line(cmd: string, arg: object, sep = ' '): string {
  return `${cmd}${sep}${JSON.stringify(arg).slice(1, -1)}`;
}

/** The `start` and `landscape` lines for `player` (1-based), with the keys in the wire's order. */
export function startLines(s: SmartDogState, player: number): string[] {
  const t = s.territories[player - 1]!;
  const start: Record<string, number> = { you: player, rows: s.rows, cols: s.cols, players: s.players, x1: t.x1, x2: t.x2, y1: t.y1, y2: t.y2 };
  for (const k of OPTION_KEYS) start[k] = s.options[k];
  start.maxSheepsCount = s.tileSheep;
  start.iniSheepsCount = s.tilePenned;
  return [line('start', start), line('landscape', s.terrain)];
}

/** The object line argument of the occupant of cell k (dog or sheep), in the wire's key order. */
function objectOf(s: SmartDogState, k: number): object {
  const o = s.occ[k]!;
  if (o > 0) {
    const d = s.dogs[o - 1]!;
    const action = dogScared(d) ? d.scare! : 'move';
    return d.barkedPrev
      ? { id: d.id, type: 'Dog', x: d.x, y: d.y, owner: d.owner, action, voice: 'barking' }
      : { id: d.id, type: 'Dog', x: d.x, y: d.y, owner: d.owner, action };
  }
  const i = -o - 1;
  const sh = s.sheep[i]!;
  const action = sh.fear > 0 ? 'panic' : isMoveTurn(s, s.turn) && !onPen(s, i) ? 'move' : 'standBy';
  return { type: 'Sheep', x: sh.x, y: sh.y, action, direction: sh.fear > 0 ? sh.fearDir : sh.heading };
}

/**
 * The lines `player` gets before the current turn: `state`, one `obj` per object its dogs see (scanned by
 * offset dx −R..R, then dy −R..R, per dog in creation order, each cell listed once), the dogs that barked
 * last turn and were not seen (position only), then `turn`. Whether a scanned cell is within R is judged
 * on the torus, by the cell's shortest wrapped distance to the dog: on a board narrower than 2R+1 an offset
 * longer than R may land on a cell that is near (the original lists it there, at its first meeting).
 */
export function viewOf(s: SmartDogState, player: number): string[] {
  const out = [line('state', { turn: s.turn }, '  ')];
  const R = s.options.dogVisibilityR;
  const seen = new Set<number>();
  const listedDogs = new Set<number>();
  for (const d of s.dogs) {
    if (d.owner !== player) continue;
    for (let dx = -R; dx <= R; dx++) {
      for (let dy = -R; dy <= R; dy++) {
        const x = wrap(d.x + dx, s.cols);
        const y = wrap(d.y + dy, s.rows);
        if (!within(s, d.x, d.y, x, y, R)) continue;
        const k = cellOf(s, x, y);
        if (seen.has(k)) continue;
        seen.add(k);
        if (s.occ[k] === 0) continue;
        if (s.occ[k]! > 0) listedDogs.add(s.occ[k]! - 1);
        out.push(line('obj', objectOf(s, k), '  '));
      }
    }
  }
  s.dogs.forEach((d, k) => {
    if (d.barkedPrev && !listedDogs.has(k)) out.push(line('obj', { voice: 'barking', x: d.x, y: d.y }, '  '));
  });
  out.push('turn');
  return out;
}

/** The `finished` line for `player`: `youWin`, `winner` when there is one, `error` on an abnormal stop. */
export function finishedLine(s: SmartDogState, player: number, error?: string): string {
  const winner = error === undefined ? winnerOf(s) : null;
  const arg: Record<string, unknown> = { youWin: winner === player };
  if (winner !== null) arg.winner = winner;
  if (error !== undefined) arg.error = error;
  return line('finished', arg);
}
