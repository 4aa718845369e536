import type { ConfigValues } from '../../core/config.js';
import { defineGame, type BuiltinBotFactory, type Decision, type StreamAction } from '../../core/game.js';
import { BOTS, type SmartDogBot } from './bots.js';
import { parseMapPart } from './map.js';
import { overriddenOptions } from './options.js';
import { MAPS } from './maps.js';
import { renderBoard } from './render.js';
import { applyCommand, endTurn, markOut, setup, winnerOf } from './rules.js';
import { writePosition } from './position.js';
import { DIRECTIONS, type DogScare, type SmartDogState } from './state.js';
import { finishedLine, startLines, viewOf } from './view.js';
import { lobby } from './lobby.js';

/** The config of a smart-dog match: the map part, hub options (JSON), the first dog id, a chosen position. */
export interface SmartDogConfig extends ConfigValues {
  map: string;
  options: string;
  firstDogId: number;
  fearHeading: boolean;
  leave: string;
  position: string;
}

/**
 * The rules' state, plus what the match does when a player leaves (and why it was stopped, if it was), and
 * the turn whose view greets the bots with `start` and `landscape` (1, or a chosen position's turn).
 */
type MatchState = SmartDogState & { abortOnLeave: boolean; greetTurn: number; abort?: string };

/** A dog's scare as a number, for the step fingerprints. */
const SCARE: Record<DogScare | 'none', number> = { none: 0, panic: 1, indignant: 2 };

/** The map part a config names: a shipped one by name, or a map part's own text (`--set map=FILE`). */
export function mapText(map: string): string {
  const shipped = Object.hasOwn(MAPS, map) ? MAPS[map] : undefined;
  if (shipped !== undefined) return shipped;
  if (!map.includes('\n'))
    throw new Error(`unknown map ${JSON.stringify(map)}: the shipped maps are ${Object.keys(MAPS).join(', ')}; or give the path of a map part file`);
  return map;
}

/** The hub options a config carries (a JSON object; empty for none). */
export function hubOptions(options: string): Record<string, unknown> {
  if (!options.trim()) return {};
  const v: unknown = JSON.parse(options);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('options must be a JSON object such as {"turnsLimit":50}');
  return v as Record<string, unknown>;
}

function stateOf(config: SmartDogConfig, players: number): MatchState {
  const position = config.position.trim() ? config.position : undefined;
  const s = setup({ map: mapText(config.map), players, hubOptions: hubOptions(config.options), firstDogId: config.firstDogId, position });
  return { ...s, keepHeading: !config.fearHeading, abortOnLeave: config.leave === 'abort', greetTurn: s.turn };
}

/** The lines a seat gets this turn; the match's first turn starts with `start` and `landscape`. */
function linesFor(s: MatchState, slot: number): string[] {
  const view = viewOf(s, slot + 1);
  return s.turn === s.greetTurn ? [...startLines(s, slot + 1), ...view] : view;
}

/** A built-in bot seat: made on its first turn from the `start` and `landscape` lines. */
function builtin(name: string): BuiltinBotFactory<string[]> {
  return {
    description: BOTS[name]!.description,
    create({ seed }) {
      let bot: SmartDogBot | null = null;
      return {
        act(lines) {
          if (!bot) {
            bot = BOTS[name]!.create(lines.slice(0, 2), seed);
            return bot(lines.slice(2));
          }
          return bot(lines);
        },
      };
    },
  };
}

/** Actimind's smart-dog: herd sheep into your pens with dogs that move and bark on a torus; text lines. */
export const smartdog = defineGame<SmartDogConfig, MatchState, StreamAction, string[]>({
  id: 'smartdog',
  title: 'Smart-dog (Actimind sheep herding)',
  summary: 'dogs move and bark to herd sheep into your pens on a torus; text lines, commands applied as they arrive',
  players: { min: 1, max: 4 },
  config: {
    map: { type: 'string', default: 'meadow', file: true, description: `a shipped map part (${Object.keys(MAPS).join(', ')})` },
    options: { type: 'string', default: '', description: 'hub options as JSON, e.g. {"turnsLimit":50,"waitForTurn":1000}; the map\'s own line wins' },
    firstDogId: { type: 'int', default: 1, min: 1, max: 1_000_000_000, description: 'the first dog id (a server keeps ids unique across games)' },
    fearHeading: {
      type: 'bool',
      default: true,
      description:
        'a sheep that catches fear from another sheep faces its flight at once, as in the reference server (false: it kept its heading, as botarena did before; replays written then play by false)',
    },
    leave: {
      type: 'string',
      default: 'out',
      choices: ['out', 'abort'],
      description:
        'a player that times out or disconnects: is out (scores −10) and the others play on, or (abort) ends the game with no winner, as the reference did',
    },
    position: {
      type: 'string',
      default: '',
      file: true,
      description: 'a chosen starting position on the map: JSON (or a FILE) {"turn":N,"dogs":[{"id","owner","x","y"}…],"sheep":[{"x","y"}…],"out":[players]}',
    },
  },
  // waitForTurn (the reference's 300 s unless a hub or the map says otherwise) is each turn's deadline.
  timeouts: { initMs: 10_000, turnMs: 300_000, exitMs: 1000 },
  bots: Object.fromEntries(Object.keys(BOTS).map((name) => [name, builtin(name)])),
  rules: {
    validateConfig(config, players) {
      try {
        parseMapPart(mapText(config.map));
        stateOf(config, players);
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    },
    configWarnings: (config) => overriddenOptions(hubOptions(config.options), parseMapPart(mapText(config.map)).options),
    // Each seat's turn is a few lines about what its dogs see of the torus, up to the turn limit: cells × seats × turns.
    work(config, players) {
      const s = stateOf(config, players);
      return s.rows * s.cols * players * (s.options.turnsLimit - s.turn + 1);
    },
    setup: ({ config, players }) => stateOf(config, players),
    next(s): Decision | null {
      if (s.finished) return null;
      const seats = s.out.flatMap((out, slot) => (out ? [] : [slot]));
      return { phase: 'play', seats, turn: s.turn, stream: true, deadlineMs: s.options.waitForTurn };
    },
    stream: {
      line(s, slot, text) {
        const r = applyCommand(s, slot + 1, text);
        const replies = r.warning !== undefined ? [`warning ${r.warning}`] : r.error !== undefined ? [`error ${r.error}`] : [];
        return { replies, done: s.ended[slot]! || s.out[slot]! || s.finished };
      },
      ends: (text) => text.trim().split(/\s+/)[0] === 'end',
    },
    parseAnswer: (answer) =>
      Array.isArray(answer)
        ? { ok: true, action: { lines: answer.map((l, i): [number, string] => [i, String(l)]) } }
        : { ok: false, kind: 'bad-answer', detail: 'expected the lines of a turn' },
    // A forgiven timeout (a strike) keeps the lines sent before the deadline (the engine plays them); with none,
    // the player's dogs stand still this turn. The player is not out.
    pass: () => ({ lines: [] }),
    apply(s, moves) {
      // The step's lines in the order they were applied live; then whoever timed out or vanished is out.
      const lines = moves.flatMap((m) => (m.action ? m.action.lines.map(([order, text]) => ({ order, slot: m.slot, text })) : []));
      lines.sort((a, b) => a.order - b.order);
      for (const { slot, text } of lines) applyCommand(s, slot + 1, text);
      const left = moves.filter((m) => m.fault);
      for (const m of left) markOut(s, m.slot + 1);
      if (left.length && s.abortOnLeave) {
        // The reference's behaviour: the game stops for everyone, with no winner, and says why.
        s.abort = `player ${left[0]!.slot + 1} ${left[0]!.fault!.kind === 'timeout' ? 'timed out' : 'disconnected'}`;
        s.finished = true;
        return s;
      }
      endTurn(s);
      return s;
    },
    outcome(s) {
      const winner = s.abort ? null : winnerOf(s);
      const scores = s.scores.slice();
      // The winner rule breaks ties by the lowest player id, so ranks do too; with no winner, nobody wins.
      const ranks = scores.map((sc, i) => (winner === null ? 1 : 1 + scores.filter((o, j) => o > sc || (o === sc && j < i)).length));
      const shown = scores.map((sc, i) => `${i + 1}: ${Math.round(sc * 100) / 100}${s.out[i] ? ' (out)' : ''}`).join(', ');
      const head = s.abort ? `stopped: ${s.abort}; nobody wins` : winner === null ? 'nobody wins' : `player ${winner} wins`;
      const reason = `${head} after turn ${s.turn} (scores ${shown})`;
      return winner === null ? { ranks, scores, reason, winner: null } : { ranks, scores, reason };
    },
  },
  wire: {
    defaultDialect: 'text',
    dialects: {
      text: {
        contentType: 'text/plain',
        encode: (s, slot) => linesFor(s, slot).join('\n'),
        decode: (body) => ({ ok: true, action: { lines: body.split('\n').map((l, i): [number, string] => [i, l]) } }),
      },
    },
    view: (s, slot) => linesFor(s, slot),
    lobby,
    farewell: (s, slot) => finishedLine(s, slot + 1, s.abort),
  },
  presentation: {
    seatLabel: (slot) => String(slot + 1),
    // Each player sees only what its dogs see; every player learns the turn and where dogs barked that no
    // dog of theirs saw, and on turn 1 the board's size, the landscape (pens by owner) and the options; the
    // territories follow from the size and the fixed tile layout. Spectators get that much (the land on every
    // step, so a viewer joining late can draw it), and how many lines each seat sent: never a dog or a sheep.
    spectator: {
      action: (turn) => ({ lines: turn.lines.length }),
      frame: (s) => ({
        turn: s.turn,
        out: s.out,
        barking: s.dogs.flatMap((d) => (d.barkedPrev ? [[d.x, d.y]] : [])),
        rows: s.rows,
        cols: s.cols,
        terrain: s.terrain,
        territories: s.territories,
        turnsLimit: s.options.turnsLimit,
        dogBarkingR: s.options.dogBarkingR,
      }),
    },
    render: renderBoard,
  },
  replay: {
    // The greeting turn is how the match began, not where the game stands: a fork must hash like its original.
    // keepHeading is the config's fearHeading, which the replay records: left out so that whole-state
    // fingerprints stay those of the replays written before the key existed.
    digest: (s) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'greetTurn' && k !== 'keepHeading')),
    // What a turn can change, for the chained step fingerprints: everything but the terrain, the territories
    // and the options (fixed at setup) and the occupancy board (an index of where the dogs and sheep stand).
    changes(s) {
      const out: unknown[] = [s.turn, s.finished ? 1 : 0, s.ended.map(Number), s.out.map(Number), s.scores.map((x) => Math.round(x * 1e6)), s.abort ?? 0];
      for (const d of s.dogs)
        out.push(d.id, d.owner, d.x, d.y, +d.moved, +d.barked, +d.barkedPrev, SCARE[d.scare ?? 'none'], d.scareTurns, SCARE[d.enemyHit ?? 'none'], +d.allyHit);
      for (const sh of s.sheep) out.push(sh.x, sh.y, DIRECTIONS.indexOf(sh.heading), sh.fear, DIRECTIONS.indexOf(sh.fearDir), sh.chain);
      return out;
    },
    configDefaults: { fearHeading: false },
  },
  tooling: {
    position: { write: (s) => ({ position: writePosition(s) }) },
  },
});
