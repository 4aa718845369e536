import { Type, type Static } from 'typebox';
import { BotStatus, ratingRowFields } from './bots.js';
import { NotJson, Nullable } from './common.js';

// Requests: exactly the schemas the routes validated with before they moved here (the OpenAPI document is unchanged).

/** `:id` of the match routes. */
export const MatchParams = Type.Object({ id: Type.String({ maxLength: 128 }) });
export type MatchParams = Static<typeof MatchParams>;

/** `:id/logs/:slot`. */
export const LogParams = Type.Object({ id: Type.String({ maxLength: 128 }), slot: Type.Integer({ minimum: 0, maximum: 63 }) });
export type LogParams = Static<typeof LogParams>;

/** A match's kind: played by the ladder, asked for by someone (a challenge), a test match, or a match of a contest's final (never rated). */
export const MatchKind = Type.Enum(['ladder', 'challenge', 'test', 'contest']);
export type MatchKind = Static<typeof MatchKind>;

/** Where a match is. */
export const MatchStatus = Type.Enum(['queued', 'running', 'finished', 'aborted']);
export type MatchStatus = Static<typeof MatchStatus>;

/** `POST /api/matches`. */
export const NewMatchBody = Type.Object(
  {
    game: Type.String({ maxLength: 64 }),
    seats: Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
      minItems: 1,
      maxItems: 12,
      description:
        'bot ids or names of this game (built-in bots by name), by seat; in test matches also "person" (a person playing from a page) or a bot\'s http(s):// URL (not registered: played once, never rated)',
    }),
    rated: Type.Optional(Type.Boolean({ description: 'whether the result changes ratings (default false)' })),
    test: Type.Optional(Type.Boolean({ description: 'a test match: never rated, its message logs kept for the owners' })),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xffffffff })),
    config: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 4096 }), Type.Number(), Type.Boolean()]), { maxProperties: 16 }),
    ),
  },
  { additionalProperties: false },
);
export type NewMatchBody = Static<typeof NewMatchBody>;

/** `GET /api/matches?…`. */
export const MatchListQuery = Type.Object(
  {
    game: Type.Optional(Type.String({ maxLength: 64 })),
    bot: Type.Optional(Type.String({ maxLength: 64 })),
    // Unions of literals, as before the move (the OpenAPI document's request side is unchanged); answers use the enums.
    status: Type.Optional(Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('finished'), Type.Literal('aborted')])),
    kind: Type.Optional(Type.Union([Type.Literal('ladder'), Type.Literal('challenge'), Type.Literal('test'), Type.Literal('contest')])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type MatchListQuery = Static<typeof MatchListQuery>;

/** `:game` of `GET /api/leaderboards/:game`. */
export const LeaderboardParams = Type.Object({ game: Type.String({ maxLength: 64 }) });
export type LeaderboardParams = Static<typeof LeaderboardParams>;

/** `GET /api/leaderboards/:game?system=&limit=`. */
export const LeaderboardQuery = Type.Object(
  {
    system: Type.Optional(Type.Union([Type.Literal('elo'), Type.Literal('openskill')])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);
export type LeaderboardQuery = Static<typeof LeaderboardQuery>;

// Answers. Their enums are `enum` lists, their nullables `type` lists: the serialiser reads both with plain tests (a union of literals or with null is an `anyOf`, which it checks branch by branch with a validator).

/** A fault: what went wrong for a seat, and on which turn. */
export const Fault = Type.Object({ kind: Type.String(), detail: Type.String(), turn: Type.Integer() });
export type Fault = Static<typeof Fault>;

/** One seat of a match: who sat there and, once it has finished, how it ended for them. */
export const MatchSeat = Type.Object({
  slot: Type.Integer(),
  botId: Nullable(Type.String({ description: 'null for a seat no registered bot holds (a person, a URL)' })),
  name: Type.String(),
  rank: Nullable(Type.Integer()),
  score: Nullable(Type.Number()),
  fault: Nullable(Fault),
});
export type MatchSeat = Static<typeof MatchSeat>;

/** A finished match's result line (core/replay.ts ResultLine, as JSON). */
export const MatchResult = Type.Object({
  game: Type.String(),
  seed: Type.Integer(),
  turns: Type.Integer(),
  winner: Nullable(Type.Integer({ description: 'the winner’s slot' })),
  draw: Type.Boolean(),
  reason: Type.Optional(Type.String({ description: 'why the match ended as it did, in words' })),
  error: Type.Optional(Nullable(Type.String())),
  players: Type.Array(
    Type.Object({
      slot: Type.Integer(),
      name: Type.String(),
      bot: Type.String(),
      rank: Type.Integer(),
      score: Nullable(Type.Number()),
      fault: Nullable(Fault),
      note: Type.Optional(Nullable(Fault)),
    }),
  ),
  durationMs: Nullable(Type.Number()),
});
export type MatchResult = Static<typeof MatchResult>;

const publicMatchFields = {
  id: Type.String(),
  game: Type.String(),
  kind: MatchKind,
  rated: Type.Boolean(),
  status: MatchStatus,
  seed: Type.Integer(),
  config: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Type.String(),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  result: Nullable(MatchResult),
  abortReason: Nullable(Type.String()),
  reason: Nullable(
    Type.String({
      description:
        "why the match ended: once finished, the rules' words (result.reason, and the `ended` event's reason); once aborted, why (abortReason, and the `stopped` event's reason); null while queued or running",
    }),
  ),
  tries: Type.Integer({ description: 'how many times a worker started it' }),
  worker: Nullable(Type.String({ description: 'the worker (or server) that started it last' })),
  seats: Type.Array(MatchSeat),
};

/** A match as the API shows it. */
export const PublicMatch = Type.Object(publicMatchFields);
export type PublicMatch = Static<typeof PublicMatch>;

/** A person seat's token, shown once in the answer that started the match. */
export const PersonSeat = Type.Object({ slot: Type.Integer(), token: Type.String() });
export type PersonSeat = Static<typeof PersonSeat>;

/** `POST /api/matches` (201): the queued match, with the person seats' tokens and a test match's viewer token. */
export const NewMatchAnswer = Type.Object({
  ...publicMatchFields,
  persons: Type.Optional(Type.Array(PersonSeat, { description: 'the person seats of a test match, each with the token that plays it' })),
  viewerToken: Type.Optional(Type.String({ description: "a test match's token for reading every seat's log" })),
});
export type NewMatchAnswer = Static<typeof NewMatchAnswer>;

/** `GET /api/matches`: a page of matches, newest first. */
export const MatchPage = Type.Object({
  items: Type.Array(PublicMatch),
  next: Nullable(Type.String({ description: 'the cursor of the next page; null on the last' })),
});
export type MatchPage = Static<typeof MatchPage>;

/** One raw message to or from a bot, with its time since the match started (core/replay.ts TranscriptEntry). */
export const LogEntry = Type.Object({
  dir: Type.Enum(['send', 'recv', 'stderr', 'note']),
  t: Type.Number({ description: 'ms since the match started' }),
  text: Type.String(),
});
export type LogEntry = Static<typeof LogEntry>;

/** `GET /api/matches/:id/logs/:slot`: one seat's message log. */
export const SeatLog = Type.Array(LogEntry);
export type SeatLog = Static<typeof SeatLog>;

/** A leaderboard line: the rating row with the bot's name, best first. */
export const LeaderboardRow = Type.Object({
  ...ratingRowFields,
  position: Type.Integer({ description: '1 for the best' }),
  name: Type.String(),
  builtin: Type.Boolean(),
  status: BotStatus,
  version: Type.Optional(Nullable(Type.Integer({ description: 'the version of its uploaded code that plays (null: not uploaded code)' }))),
  eloMargin: Type.Optional(
    Nullable(
      Type.Number({
        description:
          "ELO lines: the 95 % half-width (±) of the Elo its score share over its games stands for, as botarena tournament's table shows; null at a share of 0 or 1",
      }),
    ),
  ),
});
export type LeaderboardRow = Static<typeof LeaderboardRow>;

/** `GET /api/leaderboards/:game`. */
export const Leaderboard = Type.Array(LeaderboardRow);
export type Leaderboard = Static<typeof Leaderboard>;

/** `GET /api/matches/:id/replay`: the stored replay, sent as its bytes (not serialised); described for the OpenAPI document. */
export const ReplayDownload = {
  description: 'the replay: JSON, gzip-encoded when the request accepts gzip',
  content: { 'application/json': { schema: Type.Unknown({ description: 'a replay (see docs: the replay format)' }) } },
};

/** `GET /api/matches/:id/replay.html`: the offline player, one HTML file. */
export const ReplayPage = NotJson('text/html', 'the player, one HTML file');

/** The answer of an event stream route (written by the server's sse.ts, not serialised). */
export const EventStream = NotJson('text/event-stream', 'server-sent events: `event: TYPE` and `data: JSON` (the whole event) per event');
