/**
 * Lighthouses' wire, as TypeBox values: every message the arena sends (the init, each turn's state, the
 * result after each command) and every answer the game reads. The message types (wire.ts, the SDK) are their
 * static types, and `npm run generate` publishes each value with an `$id` as `schemas/lighthouses/*.schema.json`.
 */
import { Type, type Static } from 'typebox';
import { Pair, Ref, schemaId } from '../../core/wire-schema.js';

const Point = Pair(Type.Integer({ minimum: 0 }), { description: 'A cell [x, y].' });
const defs = { point: Point };

/** The first message: who you are, where you start, the island and the lighthouses. */
export const LighthousesInit = Type.Object(
  {
    player_num: Type.Integer({ minimum: 0, maximum: 7, description: 'Your seat, 0 to player_count-1; lighthouse owners use the same numbers.' }),
    player_count: Type.Integer({ minimum: 2, maximum: 8, description: 'How many bots play.' }),
    position: Ref(defs, 'point', { description: 'Your starting cell.' }),
    map: Type.Array(Type.Array(Type.Enum([0, 1]), { minItems: 1 }), {
      description: 'The island, map[y][x]: 1 for island, 0 for water; row 0 is the bottom. Every row has the same length, and the border is water.',
      minItems: 3,
    }),
    lighthouses: Type.Array(Ref(defs, 'point'), {
      description: "Every lighthouse's cell, in scan order (y ascending, then x). Turn messages list the lighthouses in this same order.",
      minItems: 1,
    }),
  },
  {
    $id: schemaId('lighthouses', 'init'),
    title: 'Lighthouses: init message',
    description:
      'The first line every bot gets, all bots at once: who it is, where it starts, the whole island and where the lighthouses stand. Coordinates are [x, y] with y = 0 the bottom row. Answer with init-answer (your name).',
    additionalProperties: false,
    $defs: defs,
  },
);
export type LighthousesInit = Static<typeof LighthousesInit>;

/** One lighthouse as a player sees it each turn. */
const Lighthouse = Type.Object(
  {
    position: Ref(defs, 'point'),
    owner: Type.Union([Type.Integer({ minimum: -1, maximum: 7 }), Type.Null()], {
      description: "The owner's seat; -1 (or null with neutral=null) when neutral.",
    }),
    energy: Type.Integer({ minimum: 0, description: "The lighthouse's energy (0 when neutral)." }),
    connections: Type.Array(Ref(defs, 'point'), { description: 'The cells of the lighthouses this one is connected to.' }),
    have_key: Type.Boolean({ description: "Whether you hold this lighthouse's key." }),
  },
  { additionalProperties: false },
);
export type LighthouseView = Static<typeof Lighthouse>;

/** The state sent each turn. */
export const LighthousesTurn = Type.Object(
  {
    position: Ref(defs, 'point', { description: 'Where you stand.' }),
    score: Type.Integer({ minimum: 0, description: 'Your score so far.' }),
    energy: Type.Integer({ minimum: 0, description: 'The energy you carry.' }),
    view: Type.Array(Type.Array(Type.Integer({ minimum: -1, maximum: 100 }), { minItems: 7, maxItems: 7 }), {
      description:
        "The 7×7 cells around you, view[dy+3][dx+3] for dx and dy from -3 to 3: each island cell's energy (0 to 100), 0 for water or off the map, and -1 for the corners farther than 3 cells away.",
      minItems: 7,
      maxItems: 7,
    }),
    lighthouses: Type.Array(Lighthouse, { description: 'Every lighthouse, in the order of the init message.', minItems: 1 }),
  },
  {
    $id: schemaId('lighthouses', 'turn'),
    title: 'Lighthouses: turn message',
    description:
      "Sent to one bot at a time, in seat order each round, just before it gives its command: its own state, the energy of the cells near it, and every lighthouse. A neutral lighthouse's owner is -1, or null when the match is set with neutral=null (as the reference engine sends it). Answer with turn-answer; the arena then sends a result message.",
    additionalProperties: false,
    $defs: defs,
  },
);
export type LighthousesTurn = Static<typeof LighthousesTurn>;

/** The result sent after each command: it expects no answer. */
export const LighthousesResult = Type.Union(
  [
    Type.Object({ success: Type.Literal(true) }, { additionalProperties: false }),
    Type.Object({ success: Type.Literal(false), message: Type.String({ description: 'Why the command failed.' }) }, { additionalProperties: false }),
  ],
  {
    $id: schemaId('lighthouses', 'result'),
    title: 'Lighthouses: result of a command',
    description:
      'The line the arena sends right after each turn answer, expecting no answer: {"success":true} when the command was carried out, or {"success":false,"message":...} saying why not, with the reference engine\'s wording ("Invalid JSON", "Timeout", or what was wrong with the command). A failed command counts as a pass; the match goes on.',
    examples: [{ success: true }, { success: false, message: 'Target pos is not in island' }],
  },
);
export type LighthousesResult = Static<typeof LighthousesResult>;

/** A message to a lighthouses bot (the result after each command excepted). */
export type LighthousesMessage = LighthousesInit | LighthousesTurn;

/** Lighthouses' init answer: the bot's name. */
export const LighthousesInitAnswer = Type.Object(
  { name: Type.String() },
  {
    $id: schemaId('lighthouses', 'init-answer'),
    title: 'Lighthouses: answer to the init message',
    description:
      'The bot\'s greeting: an object with its name as a string. Other fields are ignored. A missing or bad greeting is not fatal: the bot keeps its default name ("Player N") and plays on.',
    examples: [{ name: 'random' }],
  },
);
export type LighthousesInitAnswer = Static<typeof LighthousesInitAnswer>;

const commands = {
  pass: Type.Object({ command: Type.Literal('pass') }, { description: 'Do nothing this turn.' }),
  move: Type.Object(
    { command: Type.Literal('move'), x: Type.Integer({ minimum: -1, maximum: 1 }), y: Type.Integer({ minimum: -1, maximum: 1 }) },
    { description: 'Step by (x, y): each -1, 0 or 1.' },
  ),
  attack: Type.Object(
    { command: Type.Literal('attack'), energy: Type.Integer({ minimum: 0 }) },
    { description: "Put energy into the lighthouse you stand on: it recharges your own, or drains another's and takes it once it is drained." },
  ),
  connect: Type.Object(
    { command: Type.Literal('connect'), destination: Pair(Type.Integer()) },
    { description: 'Connect the lighthouse you stand on to the one at `destination` [x, y].' },
  ),
};

/** A lighthouses command: stay, step to a neighbouring island cell, put energy into the lighthouse you stand on, or link it to another you own and hold the key of. */
export const LighthousesAnswer = Type.Union([Ref(commands, 'pass'), Ref(commands, 'move'), Ref(commands, 'attack'), Ref(commands, 'connect')], {
  $id: schemaId('lighthouses', 'turn-answer'),
  title: 'Lighthouses: answer to a turn message (a command)',
  description:
    'One command, chosen by its `command` field: "pass"; "move" by x and y, each -1, 0 or 1 (a step to one of the 8 neighbouring cells, or staying put); "attack" with a whole non-negative amount of energy (more than you carry spends what you carry); or "connect" your lighthouse to another, `destination` being its cell [x, y]. Other fields are ignored. This schema describes well-formed commands; the game reads leniently: it takes any object with a `command` field and judges the rest afterwards, so an unknown command or a bad field is never fatal. It gets a {"success":false} result naming what was wrong, and the turn counts as a pass. Whether a well-formed command succeeds also depends on the position (the target cell must be island; attack and connect need you standing on a lighthouse; connect needs both lighthouses yours, the destination\'s key, and a line that crosses no lighthouse or connection), which no schema can check.',
  $defs: commands,
  examples: [{ command: 'pass' }, { command: 'move', x: -1, y: 0 }, { command: 'attack', energy: 30 }, { command: 'connect', destination: [11, 2] }],
});
export type LighthousesAnswer = Static<typeof LighthousesAnswer>;
