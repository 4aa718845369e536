/**
 * Battleship's wire (the JSON dialect), as TypeBox values: every message the arena sends and every answer the
 * game reads. The message types (wire.ts, the SDK) are their static types, and `npm run generate` publishes
 * each value with an `$id` as `schemas/battleship/*.schema.json`. The 2015 form dialect (wire.ts,
 * `formDialect`) sends form fields and reads plain text, and has no schema.
 */
import { Type, type Static } from 'typebox';
import { Ref, schemaId, Typed } from '../../core/wire-schema.js';

const NUMBER = '(0|[1-9][0-9]*)';
const Side = Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: '1 to 100, as a string.' });
const Count = Type.String({ pattern: '^(10|[0-9])$', description: '0 to 10, as a string.' });
const GameId = Type.Integer({
  minimum: 0,
  maximum: 999999999999999,
  description: 'The match id when it is a number of up to 15 digits, else a stable number (0 to 4294967295) derived from it.',
});
const Opponent = Type.String({ description: "The other bot's display name (may be empty)." });

/** The definitions both messages list in `$defs`. */
const numbers = { side: Side, count: Count };
/** The 9 config keys sent with every message, numbers as JSON strings (as the original did). */
const Rules = Type.Object(
  {
    opponent: Opponent,
    width: Ref(numbers, 'side', { description: 'Grid width: x is 0 to width-1.' }),
    height: Ref(numbers, 'side', { description: 'Grid height: y is 0 to height-1.' }),
    ship1: Ref(numbers, 'count', { description: 'How many ships of length 1.' }),
    ship2: Ref(numbers, 'count', { description: 'How many ships of length 2.' }),
    ship3: Ref(numbers, 'count', { description: 'How many ships of length 3.' }),
    ship4: Ref(numbers, 'count', { description: 'How many ships of length 4.' }),
    ship5: Ref(numbers, 'count', { description: 'How many ships of length 5.' }),
    ship6: Ref(numbers, 'count', { description: 'How many ships of length 6.' }),
  },
  { description: "The opponent's name and the match's rules, numbers written as strings.", additionalProperties: false },
);
const initDefs = { gameId: GameId, rules: Rules, ...numbers };
export type BattleshipBoard = Static<typeof Rules>;

/** The init message: the answer must place the fleet. */
export const BattleshipInit = Type.Object(
  {
    'game-id': Ref(initDefs, 'gameId'),
    game: Type.Literal('battleship'),
    action: Type.Literal('init'),
    players: Type.Literal(2),
    'player-index': Type.Enum([0, 1], { description: 'Your seat: 0 (P1) shoots first.' }),
    board: Ref(initDefs, 'rules'),
  },
  {
    $id: schemaId('battleship', 'init'),
    title: 'Battleship: init message',
    description:
      'The hello of the JSON dialect, sent to each bot once, one seat after the other: the rules of the match, to which the bot answers with its fleet (see init-answer). As on botsarena, `game-id` is a number and every number inside `board` is sent as a string. (The 2015 form dialect, http+form://, sends form fields instead and is not covered by these schemas.)',
    additionalProperties: false,
    $defs: initDefs,
    examples: [
      {
        'game-id': 2971996522,
        game: 'battleship',
        action: 'init',
        players: 2,
        'player-index': 0,
        board: { opponent: 'random', width: '10', height: '10', ship1: '0', ship2: '1', ship3: '2', ship4: '1', ship5: '1', ship6: '0' },
      },
    ],
  },
);
export type BattleshipInit = Static<typeof BattleshipInit>;

const Strike = Type.Object(
  {
    target: Type.String({ pattern: `^${NUMBER},${NUMBER}$`, description: 'The cell shot at, "x,y".' }),
    result: Type.Enum(['', 'hit', 'hit and sunk'], {
      description:
        '"" for a miss (or a cell of a ship already sunk), else what the shot hit. The game\'s fourth result, "hit sunk and win", is never sent: the shot that sinks the last ship ends the match, and no message follows it.',
    }),
  },
  { description: 'One shot and what it did.', additionalProperties: false },
);
/** One shot and what it did, as a turn message lists it. */
export type BattleshipStrike = Static<typeof Strike>;

const turnDefs = { ...numbers, strike: Strike };
/** The shot message: note the capital B, and no `players` nor `you`. */
export const BattleshipTurn = Type.Object(
  {
    game: Type.Literal('Battleship', { description: 'Capital B, as botsarena sent it.' }),
    'game-id': Type.Integer({ minimum: 0, maximum: 999999999999999, description: 'The same number as in the init message.' }),
    action: Type.Literal('play-turn'),
    'player-index': Type.Enum([0, 1], { description: 'Your seat.' }),
    board: Type.Object(
      {
        opponent: Opponent,
        width: Ref(turnDefs, 'side'),
        height: Ref(turnDefs, 'side'),
        ship1: Ref(turnDefs, 'count'),
        ship2: Ref(turnDefs, 'count'),
        ship3: Ref(turnDefs, 'count'),
        ship4: Ref(turnDefs, 'count'),
        ship5: Ref(turnDefs, 'count'),
        ship6: Ref(turnDefs, 'count'),
        your_strikes: Type.Array(Ref(turnDefs, 'strike'), { description: 'Your shots so far, oldest first.' }),
        his_strikes: Type.Array(Ref(turnDefs, 'strike'), { description: "The opponent's shots so far, oldest first." }),
      },
      { additionalProperties: false },
    ),
  },
  {
    $id: schemaId('battleship', 'turn'),
    title: 'Battleship: turn message',
    description:
      "Sent to the bot whose shot it is (JSON dialect). As on botsarena, `game` is spelt with a capital B here, unlike in the init message, and there is no `players` field. `board` repeats the rules of the init message and adds both sides' shots so far, oldest first: `your_strikes` are yours, `his_strikes` the opponent's. Answer with turn-answer.",
    additionalProperties: false,
    $defs: turnDefs,
  },
);
export type BattleshipTurn = Static<typeof BattleshipTurn>;

/** A message to a Battleship bot. */
export type BattleshipMessage = BattleshipInit | BattleshipTurn;

/** Battleship's init answer: the fleet, each ship from one end to the other as "x1,y1-x2,y2" (typed: TypeBox reads no pattern). */
export const BattleshipInitAnswer = Type.Object(
  {
    name: Type.Optional(Type.Unknown({ description: 'Conventional; not read.' })),
    boats: Type.Array(Typed<`${number},${number}-${number},${number}`>(Type.String({ pattern: `^${NUMBER},${NUMBER}-${NUMBER},${NUMBER}$` }))),
  },
  {
    $id: schemaId('battleship', 'init-answer'),
    title: 'Battleship: answer to the init message',
    description:
      'The bot\'s fleet (JSON dialect): `boats` lists each ship as "x1,y1-x2,y2", its two end cells inclusive, written as plain non-negative integers (no signs, spaces or leading zeros). `name` is conventional but not read; other fields are ignored. The game then checks what this schema cannot: every ship lies on one row or one column inside the grid, no two ships overlap, and the fleet has exactly the number of ships of each length that the init message asks for. A fleet that fails any check loses the match at once.',
    examples: [{ name: 'random', boats: ['3,4-7,4', '2,4-2,7', '8,1-8,3', '5,0-5,2', '5,5-6,5'] }],
  },
);
export type BattleshipInitAnswer = Static<typeof BattleshipInitAnswer>;

/** A Battleship shot: "x,y" (typed: TypeBox reads no pattern). */
export const BattleshipAnswer = Type.Object(
  { play: Typed<`${number},${number}`>(Type.String({ pattern: `^${NUMBER},${NUMBER}$` })) },
  {
    $id: schemaId('battleship', 'turn-answer'),
    title: 'Battleship: answer to a turn message',
    description:
      'The cell to shoot at (JSON dialect), as the string "x,y" of plain non-negative integers ("04,4", "-1,2" and " 1,2" are refused). Other fields are ignored. The cell must also lie on the grid (x below width, y below height), which this schema cannot check; any bad answer loses the match. Shooting the same cell again is allowed.',
    examples: [{ play: '0,4' }],
  },
);
export type BattleshipAnswer = Static<typeof BattleshipAnswer>;
