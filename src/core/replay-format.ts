// The replay format as one TypeBox schema: the types of a replay are derived from it, and `assertReplayShape`
// (replay-shape.ts) checks a parsed file against it. Only that check loads it at run time (replay.ts
// re-exports its types), so the CLI starts without typebox. Each part's `description` is what it must be, in the
// words of the error message that names it; `{slots}` and `{perSeat}` are filled in with the replay's seats.
import { Type, type Static } from 'typebox';
import { FAULT_KINDS } from './moves.js';
import { MAX_DEADLINE_MS, MAX_SEED, MAX_STRIKES, REPLAY_FORMAT } from './replay-limits.js';

const text = () => Type.String({ description: 'a string' });
const count = () => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'an integer ≥ 0' });
const finite = () => Type.Number({ description: 'a number' });
/** A seat's number: any integer here; that it names one of the replay's seats is checked beside the schema. */
const slot = () => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'an integer {slots}' });

/** A failed answer as recorded: what kind of failure, and a sentence for people. */
export const FaultSchema = Type.Object(
  { kind: Type.Enum(FAULT_KINDS, { description: `one of ${FAULT_KINDS.map((k) => `"${k}"`).join(', ')}` }), detail: text() },
  { description: 'a fault {"kind","detail"}' },
);

/**
 * One recorded move: an action or a fault (a stream seat may have both), and how long the answer took (ms, the
 * wall time the arena waited), with where that time went when the transport knew: `cpuMs` (a bot program's CPU
 * time), `connectMs` and `firstByteMs` (an HTTP bot's connecting and first byte). Timing data only: a replay's
 * check never compares them.
 */
export const RecordedMoveSchema = Type.Object(
  {
    slot: slot(),
    action: Type.Optional(Type.Unknown()),
    fault: Type.Optional(FaultSchema),
    ms: Type.Optional(finite()),
    /** the fault (a timeout) was forgiven by the match's strikes: the rules played the game's pass instead */
    strike: Type.Optional(Type.Literal(true, { description: 'true (or no "strike")' })),
    cpuMs: Type.Optional(finite()),
    connectMs: Type.Optional(finite()),
    firstByteMs: Type.Optional(finite()),
  },
  { description: 'a move {"slot","action"} or {"slot","fault"}' },
);
/** One recorded move: an action or a fault, and how long the answer took (ms, absent for replays rebuilt in memory). */
export type RecordedMove = Static<typeof RecordedMoveSchema>;

/** One recorded step of a match: the decision it answered, the moves, and the fingerprint of the state after it. */
export const TurnRecordSchema = Type.Object(
  {
    turn: count(),
    phase: Type.Enum(['init', 'play'], { description: '"init" or "play"' }),
    moves: Type.Array(RecordedMoveSchema, { description: 'an array' }),
    hash: text(),
  },
  { description: 'a step {"turn","phase","moves","hash"}' },
);
/** One recorded step of a match: the decision it answered, the moves, and the fingerprint of the state after it. */
export type TurnRecord = Static<typeof TurnRecordSchema>;

/** A seat as recorded: display name and the bot spec that played it. */
export const ReplaySeatSchema = Type.Object(
  { slot: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'an integer, its place in the list' }), name: text(), bot: text() },
  { description: 'a seat {"slot","name","bot"}' },
);
/** A seat as recorded: display name and the bot spec that played it. */
export type ReplaySeat = Static<typeof ReplaySeatSchema>;

/** One raw message to or from a bot, with its time since the match started. */
export const TranscriptEntrySchema = Type.Object(
  {
    /** 'send' arena→bot, 'recv' bot→arena, 'stderr' the bot's stderr, 'note' what the transport saw (exit, timeout…) */
    dir: Type.Enum(['send', 'recv', 'stderr', 'note'], { description: '"send", "recv", "stderr", "note"' }),
    /** ms since the match started */
    t: finite(),
    text: text(),
    /**
     * the step being played when it was written: the index of the recorded step (in `turns`) it belongs to, so a
     * player shows a step's messages beside it; absent in replays written before it was recorded
     */
    step: Type.Optional(count()),
  },
  { description: 'a message {"dir","t","text"} (and "step")' },
);
/** One raw message to or from a bot, with its time since the match started. */
export type TranscriptEntry = Static<typeof TranscriptEntrySchema>;

/**
 * A match's deadlines as it ran: `turnSet` when the match chose `turnMs` itself, which then overrides a
 * step's own deadline (smart-dog's waitForTurn); absent in replays written before it was recorded. The time
 * rules, each absent when the match had none (as every match before them): `firstMs`, the deadline of each
 * seat's first answer in play (hellos have `initMs`); `bankMs`, each seat's time bank, which answers later
 * than their deadline draw from; `strikes`, how many timeouts of each seat are forgiven (played as the
 * game's pass) before the next is a fault.
 */
export const MatchTimeoutsSchema = Type.Object(
  {
    initMs: Type.Integer({ minimum: 1, maximum: MAX_DEADLINE_MS, description: `an integer 1..${MAX_DEADLINE_MS}` }),
    turnMs: Type.Integer({ minimum: 1, maximum: MAX_DEADLINE_MS, description: `an integer 1..${MAX_DEADLINE_MS}` }),
    turnSet: Type.Optional(Type.Boolean({ description: 'true or false' })),
    firstMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DEADLINE_MS, description: `an integer 1..${MAX_DEADLINE_MS}` })),
    bankMs: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_DEADLINE_MS, description: `an integer 0..${MAX_DEADLINE_MS}` })),
    strikes: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_STRIKES, description: `an integer 0..${MAX_STRIKES}` })),
  },
  { description: 'a JSON object' },
);
/** A match's deadlines as it ran (see `MatchTimeoutsSchema`). */
export type MatchTimeouts = Static<typeof MatchTimeoutsSchema>;

/** A seat's fault (or note) in the result block: the step it happened at, and the fault. */
const resultFault = () =>
  Type.Union(
    [Type.Null(), Type.Object({ turn: count(), kind: FaultSchema.properties.kind, detail: text() }, { description: 'a fault {"turn","kind","detail"}' })],
    {
      description: 'null or a fault {"turn","kind","detail"}',
    },
  );

/** The result block of a replay: the outcome plus each slot's latest fault (and note). */
export const ReplayResultSchema = Type.Object(
  {
    ranks: Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'an integer ≥ 1' }), { description: 'an array {perSeat}' }),
    scores: Type.Union([Type.Null(), Type.Array(finite())], { description: 'null or an array {perSeat}' }),
    reason: text(),
    /** what went wrong when the match ended as an error (paint's failed hello) */
    error: Type.Optional(text()),
    winner: Type.Union([Type.Null(), slot()], { description: 'null or {slots}' }),
    draw: Type.Boolean({ description: 'true or false' }),
    faults: Type.Array(resultFault(), { description: 'an array {perSeat}' }),
    /**
     * each slot's latest fault that the rules ignore (a botsarena hello's), when a slot has one; absent
     * otherwise, and in replays written before notes were kept apart (whose `faults` then hold them)
     */
    notes: Type.Optional(Type.Array(resultFault(), { description: 'an array {perSeat}' })),
  },
  { description: 'a JSON object' },
);
/** The result block of a replay: the outcome plus each slot's latest fault (and note). */
export type ReplayResult = Static<typeof ReplayResultSchema>;

/** What is known of a match before its first step: enough, with the steps, to rebuild every frame. */
const headerProperties = {
  format: Type.Literal(REPLAY_FORMAT, { description: `"${REPLAY_FORMAT}"` }),
  engineVersion: text(),
  game: text(),
  config: Type.Record(Type.String(), Type.Union([Type.String(), finite(), Type.Boolean()], { description: 'a string, a number or true/false' }), {
    description: 'a JSON object',
  }),
  seed: Type.Integer({ minimum: 0, maximum: MAX_SEED, description: `an integer 0..${MAX_SEED}` }),
  matchId: text(),
  seats: Type.Array(ReplaySeatSchema, { minItems: 1, description: 'an array of at least one seat' }),
  timeouts: MatchTimeoutsSchema,
  /** where this match started from, when it was forked from another replay at a turn */
  forkedFrom: Type.Optional(
    Type.Object(
      { matchId: text(), seed: Type.Integer({ minimum: 0, maximum: MAX_SEED, description: `an integer 0..${MAX_SEED}` }), turn: count(), fingerprint: text() },
      { description: 'a JSON object' },
    ),
  ),
  /** `chain`: each step's hash is chained on the one before (see `MatchSetup.hashes`); absent: whole states */
  hashes: Type.Optional(Type.Literal('chain', { description: '"chain" (or no "hashes" at all: whole-state fingerprints)' })),
};
export const ReplayHeaderSchema = Type.Object(headerProperties, { description: 'a JSON object' });
/** What is known of a match before its first step: enough, with the steps, to rebuild every frame. */
export type ReplayHeader = Static<typeof ReplayHeaderSchema>;

/** A complete, exact record of a match; frames are rebuilt by re-running the rules. Fields it does not name are allowed. */
export const ReplaySchema = Type.Object(
  {
    ...headerProperties,
    turns: Type.Array(TurnRecordSchema, { description: 'an array' }),
    result: ReplayResultSchema,
    durationMs: Type.Optional(finite()),
    /** per slot, the raw messages, when logging was on */
    transcripts: Type.Optional(
      Type.Array(Type.Array(TranscriptEntrySchema, { description: "an array of the seat's messages" }), { description: 'an array {perSeat}' }),
    ),
    /**
     * why the match ended before the rules ended it (it was stopped): the steps are those played, and the
     * result is nobody's (every seat first, no winner, no draw); rules and ratings have nothing to judge
     */
    stopped: Type.Optional(text()),
  },
  { description: 'a JSON object' },
);
/** A complete, exact record of a match; frames are rebuilt by re-running the rules. */
export type Replay = Static<typeof ReplaySchema>;
