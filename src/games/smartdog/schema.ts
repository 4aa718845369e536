/**
 * Smart-dog's wire, as TypeBox values. Smart-dog speaks text lines, not JSON, so here a schema is the form of
 * a line: a server line is `COMMAND ARG`, where ARG is a JSON object or array without its outer `{}` or `[]`,
 * and a schema below describes ARG wrapped back (what a bot parses); a command a bot sends is a string whose
 * pattern the schema gives. The SDK's smart-dog types are their static types, and test/schemas.test.ts checks
 * them against the lines of real matches.
 *
 * None of these values has an `$id`, so `npm run generate` publishes no file in schemas/ for smart-dog: those
 * files are for the games whose every message is one JSON document. docs/games/smartdog.md describes every line.
 */
import { Type, type Static } from 'typebox';

/** A whole number from `minimum`, with what it is. */
const Int = (description: string, minimum = 0) => Type.Integer({ minimum, description });
/** A dog's or a sheep's direction. */
const Direction = Type.Enum(['up', 'down', 'left', 'right']);

/** `start ARG`, the first line of your first turn: who you are, the board, your territory and the options. */
export const SmartDogStart = Type.Object(
  {
    you: Type.Integer({ minimum: 1, maximum: 4, description: 'Your player number.' }),
    rows: Int('Board height.', 1),
    cols: Int('Board width.', 1),
    players: Type.Integer({ minimum: 1, maximum: 4, description: 'How many players.' }),
    x1: Int('Your territory: first column.'),
    x2: Int('Your territory: last column (included).'),
    y1: Int('Your territory: first row.'),
    y2: Int('Your territory: last row (included).'),
    waitForTurn: Type.Number({ description: 'Milliseconds a player has per turn.' }),
    dogVisibilityR: Type.Number({ description: 'How far a dog sees.' }),
    dogBarkingR: Type.Number({ description: 'How far a bark reaches.' }),
    sheepStandBy: Type.Number({ description: 'Sheep move every sheepStandBy + 1 turns.' }),
    sheepScaryTurns: Type.Number({ description: 'Turns a barked sheep stays scared.' }),
    turnsLimit: Type.Number({ description: 'Turns in the game.' }),
    dogScaryTurns: Type.Number({ description: 'Turns a barked dog stays scared.' }),
    maxSheepsCount: Int('M: the sheep in one tile.'),
    iniSheepsCount: Int('I: the sheep on pens in one tile at the start.'),
  },
  {
    title: 'Smart-dog: the start line',
    description: 'The argument of `start`, wrapped back in {}: sent once, first, on your first turn; `landscape` follows.',
    additionalProperties: false,
  },
);
export type SmartDogStart = Static<typeof SmartDogStart>;

/** `landscape ARG`: the board, one string per row from the top. */
export const SmartDogLandscape = Type.Array(Type.String({ pattern: '^[.#^1-4]*$' }), {
  title: 'Smart-dog: the landscape line',
  description:
    'The argument of `landscape`, wrapped back in []: one string per row, y = 0 (the top) first, one character per cell: `.` grass, `#` fence, `^` tree, `1`-`4` a pen of that player.',
  minItems: 1,
});
export type SmartDogLandscape = Static<typeof SmartDogLandscape>;

/** `state  ARG` (two spaces): opens a turn's view. */
export const SmartDogTurnState = Type.Object(
  { turn: Int('The turn, from 1.', 1) },
  {
    title: 'Smart-dog: the state line',
    description: 'The argument of `state` (after two spaces), wrapped back in {}: opens the view of a turn.',
    additionalProperties: false,
  },
);
export type SmartDogTurnState = Static<typeof SmartDogTurnState>;

const Dog = Type.Object(
  {
    id: Int('The dog id.', 1),
    type: Type.Literal('Dog'),
    x: Int('Column.'),
    y: Int('Row.'),
    owner: Type.Integer({ minimum: 1, maximum: 4, description: 'Its player number.' }),
    action: Type.Enum(['move', 'panic', 'indignant'], { description: 'move: free; panic: can neither move nor bark; indignant: cannot bark.' }),
    voice: Type.Optional(Type.Literal('barking', { description: 'Present when it barked last turn.' })),
  },
  { description: 'A dog within sight of one of yours (your own included).', additionalProperties: false },
);
const Sheep = Type.Object(
  {
    type: Type.Literal('Sheep'),
    x: Int('Column.'),
    y: Int('Row.'),
    action: Type.Enum(['panic', 'move', 'standBy'], { description: 'panic: scared; move: a move turn and not on a pen; standBy otherwise.' }),
    direction: Type.Enum(['up', 'down', 'left', 'right'], { description: 'Its heading, or its flight direction while scared.' }),
  },
  { description: 'A sheep within sight (sheep have no id).', additionalProperties: false },
);
const Bark = Type.Object(
  { voice: Type.Literal('barking'), x: Int('Column.'), y: Int('Row.') },
  { description: 'A dog you do not see that barked last turn: its place only.', additionalProperties: false },
);
/** `obj  ARG` (two spaces): one dog, sheep or unseen bark in a turn's view. */
export const SmartDogObject = Type.Union([Dog, Sheep, Bark], {
  title: 'Smart-dog: an obj line',
  description: 'The argument of `obj` (after two spaces), wrapped back in {}: one object your dogs see, or a bark you hear; `turn` ends the list.',
});
export type SmartDogObject = Static<typeof SmartDogObject>;

/** `finished ARG`: the last line of a game. */
export const SmartDogFinished = Type.Object(
  {
    youWin: Type.Boolean({ description: 'Whether you won.' }),
    winner: Type.Optional(Type.Integer({ minimum: 1, maximum: 4, description: "The winner's player number; absent when nobody won." })),
    error: Type.Optional(Type.String({ description: 'Why the game was stopped, when it was.' })),
  },
  {
    title: 'Smart-dog: the finished line',
    description: 'The argument of `finished`, wrapped back in {}: the last line of a game.',
    additionalProperties: false,
  },
);
export type SmartDogFinished = Static<typeof SmartDogFinished>;

/**
 * A smart-dog command line (the game speaks text lines over TCP, not JSON): move or bark with one of your
 * dogs, then `end` to finish your turn.
 */
export const SmartDogCommand = Type.Union(
  [
    Type.TemplateLiteral([Type.Literal('do '), Type.Number(), Type.Literal(' move '), Direction], { description: 'Move dog ID one cell.' }),
    Type.TemplateLiteral('do ${number} bark', { description: 'Dog ID barks.' }),
    Type.Literal('end', { description: 'Ends your turn.' }),
  ],
  { title: 'Smart-dog: a command line', description: 'One line a bot sends during its turn, without its newline.' },
);
export type SmartDogCommand = Static<typeof SmartDogCommand>;
