import { describeValue } from '../../core/game.js';
import { apply, checkFleet, type BattleshipConfig, type BattleshipState, type Ship, type Strike } from './rules.js';
import { parseFleet, parseShot } from './wire.js';

/** Battleship's match config: the rules' numbers plus an optional chosen position (`fleets`, `strikes`). */
export type BattleshipSettings = BattleshipConfig & { fleets: string; strikes: string };

/** The rules' part of the config, kept in the state (the position keys are only read at setup). */
export function rulesOf(c: BattleshipSettings): BattleshipConfig {
  const { fleets: _fleets, strikes: _strikes, ...rules } = c;
  return rules;
}

const sideName = (side: number) => `P${side + 1}`;
const FLEET_FORM = '"x1,y1-x2,y2;…/x1,y1-x2,y2;…" (P1\'s ships, "/", P2\'s ships) or JSON [["x1,y1-x2,y2",…],[…]]';
const STRIKE_FORM = '"x,y;…/x,y;…" (P1\'s shots, "/", P2\'s shots, oldest first) or JSON [[…],[…]] of "x,y" or {"target":"x,y","result":"…"}';

/**
 * Splits a two-sided value: JSON `[[…],[…]]` when it starts with "[", else the text form "a;b;…/c;d;…"
 * (";" or white space between items). Throws an Error naming the key and the expected form.
 */
function sides(key: string, text: string, form: string): [unknown[], unknown[]] {
  if (text.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new Error(`${key} is not JSON (${(err as Error).message.slice(0, 80)}); expected ${form}`);
    }
    if (!Array.isArray(value) || value.length !== 2 || !value.every(Array.isArray))
      throw new Error(`${key} must hold exactly two lists, P1's then P2's; expected ${form}`);
    return value as [unknown[], unknown[]];
  }
  const parts = text.split('/');
  if (parts.length !== 2) throw new Error(`${key} must have exactly one "/" between P1's and P2's part, got ${parts.length - 1}; expected ${form}`);
  const items = (part: string) => part.split(/[;\s]+/).filter((x) => x !== '');
  return [items(parts[0]!), items(parts[1]!)];
}

/** Reads `fleets` and checks each side with the placement rules; throws an Error naming the side and ship. */
export function parseFleets(text: string, c: BattleshipConfig): [Ship[], Ship[]] {
  const lists = sides('fleets', text, FLEET_FORM);
  return lists.map((boats, side) => {
    const parsed = parseFleet(boats);
    if (!parsed.ok) throw new Error(`fleets, ${sideName(side)}: ${parsed.detail}`);
    const fleet = (parsed.action as { fleet: Ship[] }).fleet;
    const problem = checkFleet(c, fleet);
    if (problem) throw new Error(`fleets, ${sideName(side)}: ${problem}`);
    return fleet;
  }) as [Ship[], Ship[]];
}

/** One strike as given: its cell and, when given, its claimed result. */
interface GivenStrike {
  shot: [number, number];
  result?: unknown;
}

function readStrike(raw: unknown, side: number, i: number, c: BattleshipConfig): GivenStrike {
  const where = `strikes: ${sideName(side)}'s shot ${i + 1}`;
  let target = raw;
  let result: unknown = undefined;
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const extra = Object.keys(raw).filter((k) => k !== 'target' && k !== 'result');
    if (extra.length)
      throw new Error(
        `${where} has unknown key${extra.length > 1 ? 's' : ''} ${extra
          .slice(0, 5)
          .map((k) => (/^[\w-]{1,40}$/.test(k) ? k : describeValue(k, 40)))
          .join(', ')}${extra.length > 5 ? ' …' : ''}; expected {"target":"x,y","result":"…"}`,
      );
    ({ target, result } = raw as { target?: unknown; result?: unknown });
  }
  const parsed = parseShot(target);
  if (!parsed.ok) throw new Error(`${where}: ${parsed.detail}`);
  const [x, y] = (parsed.action as { shot: [number, number] }).shot;
  if (x >= c.width || y >= c.height) throw new Error(`${where} ${x},${y} is off the ${c.width}×${c.height} grid (x 0..${c.width - 1}, y 0..${c.height - 1})`);
  return { shot: [x, y], result };
}

const resultText = (r: unknown) => (r === '' ? 'a miss ("")' : describeValue(r, 60));

/**
 * Plays the strikes of `text` on `fleets` in turn order (P1's first shot, P2's first, P1's second…), with the
 * results recomputed and any given result checked against them. Throws an Error when the shots do not
 * alternate, a result disagrees, or the match would already be over.
 */
export function playStrikes(text: string, c: BattleshipConfig, fleets: [Ship[], Ship[]]): BattleshipState {
  const s: BattleshipState = { config: c, placed: 2, fleets, strikes: [[], []], toPlay: 0, shots: 0, winner: null, ending: null, forfeit: null };
  if (!text) return s;
  const given = sides('strikes', text, STRIKE_FORM).map((list, side) => list.map((raw, i) => readStrike(raw, side, i, c)));
  const [n1, n2] = [given[0]!.length, given[1]!.length];
  if (n1 !== n2 && n1 !== n2 + 1) {
    throw new Error(
      `strikes: P1 has ${n1} shot${n1 === 1 ? '' : 's'} and P2 ${n2}; P1 shoots first and they alternate, so P1 has as many shots as P2 or one more`,
    );
  }
  for (let turn = 0; turn < n1 + n2; turn++) {
    const side = turn % 2;
    const i = Math.floor(turn / 2);
    const { shot, result } = given[side]![i]!;
    apply(s, [{ slot: side, action: { shot } }]);
    const got: Strike['result'] = s.strikes[side]![i]!.result;
    const where = `strikes: ${sideName(side)}'s shot ${i + 1} at ${shot[0]},${shot[1]}`;
    if (result !== undefined && result !== got)
      throw new Error(`${where} is ${resultText(got)} on these fleets, but the given result is ${resultText(result)}`);
    if (s.winner !== null)
      throw new Error(`${where} sinks ${sideName(1 - side)}'s last ship, so the match would be over; a position must leave a shot to play`);
    if (s.ending)
      throw new Error(
        `strikes: the ${s.shots} shots reach the turn cap (maxTurns ${c.maxTurns}), so the match would be over; a position must leave a shot to play`,
      );
  }
  return s;
}

/** The state a chosen position starts in (null when `fleets` is empty); throws an Error when it is bad. */
export function readPosition(settings: BattleshipSettings): BattleshipState | null {
  const c = rulesOf(settings);
  const fleetsText = settings.fleets.trim();
  const strikesText = settings.strikes.trim();
  if (!fleetsText) {
    if (strikesText) throw new Error('strikes need fleets: the results depend on where the ships are (give --set fleets=… too)');
    return null;
  }
  const s = playStrikes(strikesText, c, parseFleets(fleetsText, c));
  s.placed = 0; // the new match's inits are still played; their fleets are not used (see `apply`)
  return s;
}

const shipText = ([x1, y1, x2, y2]: Ship) => `${x1},${y1}-${x2},${y2}`;

/** The config that starts a match in `s`: both fleets and both strike histories, in the text forms. */
export function writePosition(s: BattleshipState): Record<string, string> {
  if (!s.fleets[0] || !s.fleets[1]) return { fleets: '', strikes: '' };
  const fleets = s.fleets.map((f) => f!.map(shipText).join(';')).join('/');
  const strikes = s.shots ? s.strikes.map((k) => k.map((x) => x.target).join(';')).join('/') : '';
  return { fleets, strikes };
}
