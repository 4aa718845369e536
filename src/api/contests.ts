import { Type, type Static } from 'typebox';
import { Nullable } from './common.js';
import { MatchStatus } from './matches.js';

// Contests (issue 38): an organiser (the admin token) creates one from a definition, bots enter during its
// entry window (their owner's token, or the admin's), it is frozen (each entrant's version fixed) when the
// window closes or the admin says so, the admin starts its final (queued matches on the workers), and anyone
// reads its progress, its results and its archive (every replay and the definition: `botarena contest verify`).

/** `:id` of the contest routes. */
export const ContestParams = Type.Object({ id: Type.String({ maxLength: 128 }) });
export type ContestParams = Static<typeof ContestParams>;

/**
 * Where a contest is: `entry` (its entry window: bots enter, and play the game's ladder meanwhile), `frozen`
 * (entries closed, each entrant's version fixed; the final not started), `running` (the final's matches are
 * played), `done` (every match of the final is over: the results are final and the archive complete).
 */
export const ContestStatus = Type.Enum(['entry', 'frozen', 'running', 'done']);
export type ContestStatus = Static<typeof ContestStatus>;

/**
 * `POST /api/contests` (admin): the contest's definition (src/contests/definition.ts, ContestDefinition). Its
 * shape is checked by the contest rules (`checkDefinition`), whose refusal names the key and what it expects;
 * here it is only bounded.
 */
export const NewContestBody = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  maxProperties: 32,
  description:
    'the definition: id, name, game, configs ([{label, config}]), format (round-robin, double-round-robin, swiss with rounds, knockout), gamesPerPairing, timeRules, seed, opensAt, closesAt (see docs/contests.md)',
});
export type NewContestBody = Static<typeof NewContestBody>;

/** `GET /api/contests?game=&status=`. */
export const ContestListQuery = Type.Object(
  {
    game: Type.Optional(Type.String({ maxLength: 64 })),
    status: Type.Optional(Type.Union([Type.Literal('entry'), Type.Literal('frozen'), Type.Literal('running'), Type.Literal('done')])),
  },
  { additionalProperties: false },
);
export type ContestListQuery = Static<typeof ContestListQuery>;

/** `POST /api/contests/:id/entries`: the bot that enters (its id or name in the contest's game). */
export const EnterBody = Type.Object(
  { bot: Type.String({ minLength: 1, maxLength: 128, description: "the bot's id or name; with its owner token (or the admin's)" }) },
  { additionalProperties: false },
);
export type EnterBody = Static<typeof EnterBody>;

/**
 * What an entrant plays the final with, fixed at the freeze: an uploaded bot's version and its sha256, a URL
 * bot's endpoint and the doctor's report of it at that moment, a built-in bot's name, a command bot's command.
 */
export const FrozenVersion = Type.Object({
  kind: Type.Enum(['upload', 'url', 'builtin', 'command', 'connect']),
  spec: Type.String({ description: 'the bot spec its seats in the final get (an upload: upload:LANGUAGE:SHA256 …)' }),
  version: Type.Optional(Nullable(Type.Integer({ description: "an upload's version number" }))),
  sha256: Type.Optional(Nullable(Type.String({ description: "an upload's sha256 (of its canonical bytes)" }))),
  doctor: Type.Optional(Type.Unknown({ description: "a URL bot's doctor report at the freeze (null: it could not be checked)" })),
  at: Type.String({ description: 'when it was fixed (ISO 8601, UTC)' }),
});
export type FrozenVersion = Static<typeof FrozenVersion>;

/** One entrant. */
export const ContestEntry = Type.Object({
  botId: Type.String(),
  name: Type.String(),
  builtin: Type.Boolean(),
  enteredAt: Type.String(),
  frozen: Nullable(FrozenVersion),
});
export type ContestEntry = Static<typeof ContestEntry>;

/** How far the final is. */
export const ContestProgress = Type.Object({
  planned: Type.Integer({ description: 'the matches the final has created so far (a Swiss or knockout final plans round by round)' }),
  queued: Type.Integer(),
  running: Type.Integer(),
  finished: Type.Integer(),
  aborted: Type.Integer({ description: 'matches given up (a match is created once: an aborted one is not played again)' }),
  total: Nullable(Type.Integer({ description: "the final's matches in all, when the format knows it in advance (round robins)" })),
});
export type ContestProgress = Static<typeof ContestProgress>;

const contestFields = {
  id: Type.String(),
  name: Type.String(),
  game: Type.String(),
  status: ContestStatus,
  format: Type.String(),
  opensAt: Nullable(Type.String()),
  closesAt: Nullable(Type.String()),
  createdAt: Type.String(),
  frozenAt: Nullable(Type.String()),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  entrants: Type.Integer(),
  progress: ContestProgress,
};

/** A contest in a list. */
export const ContestSummary = Type.Object(contestFields);
export type ContestSummary = Static<typeof ContestSummary>;

/** `GET /api/contests`: newest first. */
export const ContestList = Type.Array(ContestSummary);
export type ContestList = Static<typeof ContestList>;

/** `GET /api/contests/:id` (and the answer of create, enter, freeze, start): the contest, its definition and entrants. */
export const ContestDetail = Type.Object({
  ...contestFields,
  definition: Type.Record(Type.String(), Type.Unknown(), { description: 'the definition, as checked (src/contests/definition.ts)' }),
  entries: Type.Array(ContestEntry),
  practice: Type.String({ description: 'where the entrants play meanwhile: the game’s ladder (GET /api/leaderboards/GAME)' }),
});
export type ContestDetail = Static<typeof ContestDetail>;

/** One match of the final. */
export const ContestMatch = Type.Object({
  key: Type.String({ description: "the plan's key of the match: stable, unique in the contest" }),
  matchId: Type.String(),
  status: MatchStatus,
  config: Type.String({ description: 'the label of the configuration (map) it is played on' }),
  seats: Type.Array(Type.String({ description: 'the entrants’ bot ids, by seat' })),
  winner: Nullable(Type.Integer({ description: "the winner's seat, once finished" })),
  draw: Type.Boolean(),
});
export type ContestMatch = Static<typeof ContestMatch>;

/** `GET /api/contests/:id/matches`: the final's matches, in the plan's order. */
export const ContestMatchList = Type.Array(ContestMatch);
export type ContestMatchList = Static<typeof ContestMatchList>;

/**
 * `GET /api/contests/:id/results`: the standings so far (final once the contest is `done`), as the contest rules
 * compute them from the finished matches' results (src/contests/results.ts): score with an interval, the
 * pairwise matrix, per-configuration breakdown, faults per entrant.
 */
export const ContestResults = Type.Object({
  contest: Type.String(),
  status: ContestStatus,
  final: Type.Boolean({ description: 'true once every match of the final is over' }),
  results: Type.Unknown({ description: 'src/contests/results.ts ContestResults, as JSON' }),
});
export type ContestResults = Static<typeof ContestResults>;

/** `GET /api/contests/:id/archive`: the archive, a .tar.gz (contest.json, matches.jsonl, results.json, replays/ID.json), sent as its bytes. */
export const ContestArchive = {
  description: 'the contest archive (.tar.gz): `botarena contest verify ARCHIVE` checks it',
  content: { 'application/gzip': { schema: Type.Unknown({ description: 'a .tar.gz' }) } },
};
