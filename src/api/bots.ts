import { Type, type Static } from 'typebox';
import { Nullable } from './common.js';

// Requests: exactly the schemas the routes validated with before they moved here (the OpenAPI document is unchanged).

/** What a bot's name may hold, as a pattern and in words (the API's refusal says the words, not the pattern). */
export const NAME_RULE = {
  pattern: '^[A-Za-z0-9][A-Za-z0-9 ._+-]*$',
  words: 'must start with a letter or a digit and hold only letters, digits, spaces and . _ + -',
} as const;

const Name = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: NAME_RULE.pattern,
  description: 'letters, digits, space, . _ + -; unique in its game',
});
const Endpoint = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'http(s)://… (http+form://… for Battleship’s 2015 form dialect); stdio:/exec: commands only on servers started with --allow-commands; "connect:" for a bot its author links from their own machine (`botarena connect`: docs/connect.md)',
});
const Description = Type.String({ maxLength: 2000 });
const Owner = Type.String({ maxLength: 200, description: 'how to reach the owner (shown to the admin only)' });
const Capacity = Type.Integer({ minimum: 1, maximum: 64, description: 'the most matches the bot plays at once (default 2)' });

/** `POST /api/bots`. */
export const NewBotBody = Type.Object(
  {
    game: Type.String({ maxLength: 64 }),
    name: Name,
    endpoint: Endpoint,
    description: Type.Optional(Description),
    owner: Type.Optional(Owner),
    capacity: Type.Optional(Capacity),
  },
  { additionalProperties: false },
);
export type NewBotBody = Static<typeof NewBotBody>;

/** `PATCH /api/bots/:id`. */
export const BotPatchBody = Type.Object(
  {
    endpoint: Type.Optional(Endpoint),
    description: Type.Optional(Description),
    owner: Type.Optional(Owner),
    capacity: Type.Optional(Capacity),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')])),
  },
  { additionalProperties: false },
);
export type BotPatchBody = Static<typeof BotPatchBody>;

/** `:id` of the bot routes. */
export const BotParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export type BotParams = Static<typeof BotParams>;

/** `GET /api/bots?game=&status=`. */
export const BotListQuery = Type.Object(
  { game: Type.Optional(Type.String({ maxLength: 64 })), status: Type.Optional(Type.String({ maxLength: 16 })) },
  { additionalProperties: false },
);
export type BotListQuery = Static<typeof BotListQuery>;

// Answers. Their enums are `enum` lists, their nullables `type` lists: the serialiser reads both with plain tests (a union of literals or with null is an `anyOf`, which it checks branch by branch with a validator).

/**
 * A bot's status: checked by the doctor first, active on the ladder, away (a bot linked from its author's machine,
 * `connect:`, while it is not connected), paused (by its owner or a rule), deleted.
 */
export const BotStatus = Type.Enum(['checking', 'active', 'away', 'paused', 'deleted']);
export type BotStatus = Static<typeof BotStatus>;

const publicBotFields = {
  id: Type.String(),
  game: Type.String(),
  name: Type.String(),
  endpoint: Type.String({ description: 'a built-in bot’s "built-in: NAME"; a command bot’s program only, without its arguments' }),
  builtin: Type.Boolean(),
  description: Type.String(),
  status: BotStatus,
  statusReason: Nullable(Type.String({ description: 'why it is paused or was refused, in words its owner reads' })),
  capacity: Type.Integer(),
  createdAt: Type.String({ description: 'ISO 8601, UTC' }),
  version: Type.Optional(
    Nullable(Type.Integer({ description: 'the version of its uploaded code that plays (null: none passed its check yet, or not uploaded code)' })),
  ),
  owner: Type.Optional(Type.String({ description: 'how to reach its owner, as given at registration ("" when none was): only in answers to the admin token' })),
};

/** A bot as the API shows it to anyone (no token hash; its owner contact only to the admin). */
export const PublicBot = Type.Object(publicBotFields);
export type PublicBot = Static<typeof PublicBot>;

/** The fields of a bot's kept rating in one system (a leaderboard line has them too). */
export const ratingRowFields = {
  botId: Type.String(),
  game: Type.String(),
  system: Type.Enum(['elo', 'openskill']),
  rating: Type.Number({ description: 'ELO value, or the OpenSkill ordinal μ − 3σ' }),
  mu: Nullable(Type.Number()),
  sigma: Nullable(Type.Number()),
  games: Type.Integer(),
  wins: Type.Integer(),
  draws: Type.Integer(),
  losses: Type.Integer(),
  updatedAt: Type.String(),
};

/** `GET /api/bots`: bots by game then name. */
export const BotList = Type.Array(PublicBot);
export type BotList = Static<typeof BotList>;

/** A bot's kept rating in one system. */
export const RatingRow = Type.Object(ratingRowFields);
export type RatingRow = Static<typeof RatingRow>;

/** One line of the doctor's checklist. */
export const DoctorCheck = Type.Object({
  name: Type.String(),
  status: Type.Enum(['pass', 'fail', 'warn', 'skip']),
  detail: Type.String(),
  fix: Type.Optional(Type.String({ description: 'what to change (failures and warnings)' })),
});
export type DoctorCheck = Static<typeof DoctorCheck>;

/** What `botarena doctor` found of a bot (src/arena/doctor.ts DoctorReport, as JSON). */
export const DoctorReport = Type.Object({
  game: Type.String(),
  bot: Type.String(),
  ok: Type.Boolean({ description: 'no check failed' }),
  canned: Type.Object(
    { bots: Type.Array(Type.String()), seed: Type.Integer(), steps: Type.Integer(), seats: Type.Array(Type.Integer()) },
    { description: 'the canned match fed to the bot' },
  ),
  checks: Type.Array(DoctorCheck),
  coldStartMs: Nullable(Type.Number()),
  latency: Nullable(
    Type.Object({
      answers: Type.Integer(),
      p50Ms: Type.Number(),
      p99Ms: Type.Number(),
      deadlineMs: Type.Number(),
      cpu: Type.Optional(Type.Object({ p50Ms: Type.Number(), p99Ms: Type.Number() }, { description: "a bot program's CPU time on its answers" })),
      http: Type.Optional(
        Type.Object(
          { connectMaxMs: Type.Number(), firstByteP50Ms: Type.Number(), firstByteP99Ms: Type.Number() },
          { description: "an HTTP bot's longest connect and its time to the first byte" },
        ),
      ),
    }),
  ),
});
export type DoctorReport = Static<typeof DoctorReport>;

/** `GET /api/bots/:id`: the bot, its ratings and its last check. */
export const BotDetail = Type.Object({ ...publicBotFields, ratings: Type.Array(RatingRow), doctor: Nullable(DoctorReport) });
export type BotDetail = Static<typeof BotDetail>;

/** One upload of a bot's code (`GET /api/bots/:id/versions`, `PUT /api/bots/:id/code`). */
export const BotVersion = Type.Object({
  version: Type.Integer({ description: '1, 2, … per bot' }),
  sha256: Type.String({ description: "the sha256 of the version's canonical bytes" }),
  size: Type.Integer({ description: 'its canonical bytes, bytes' }),
  expanded: Type.Integer({ description: 'its files together, bytes' }),
  language: Type.String(),
  spec: Type.String({ description: 'what its seats run: upload:LANGUAGE:SHA256 entry=FILE | run=COMMAND' }),
  state: Type.Enum(['checking', 'active', 'refused'], {
    description: 'checking until its check ends; active once it passed (the bot’s `version` says which plays); refused, with the report',
  }),
  report: Type.Unknown({ description: "the check's report, or why it was refused ({reason, report}); null while checking" }),
  createdAt: Type.String(),
});
export type BotVersion = Static<typeof BotVersion>;

/** `GET /api/bots/:id/versions`: newest first. */
export const BotVersionList = Type.Array(BotVersion);
export type BotVersionList = Static<typeof BotVersionList>;

/** `PUT /api/bots/:id/code`: the version, checking, and the bot. */
export const NewVersionAnswer = Type.Object({ version: BotVersion, bot: PublicBot, note: Type.String() });
export type NewVersionAnswer = Static<typeof NewVersionAnswer>;

/** `POST /api/bots` (201): the bot and its owner token, shown only here. */
export const NewBotAnswer = Type.Object({ bot: PublicBot, token: Type.String(), note: Type.String(), version: Type.Optional(BotVersion) });
export type NewBotAnswer = Static<typeof NewBotAnswer>;

/** `POST /api/bots/:id/check`: the new report (null when the bot could not be checked) and the bot after it. */
export const CheckAnswer = Type.Object({ report: Nullable(DoctorReport), bot: PublicBot });
export type CheckAnswer = Static<typeof CheckAnswer>;

/** One rating change of a bot's history. */
export const RatingHistoryRow = Type.Object({ matchId: Type.String(), before: Type.Number(), after: Type.Number(), at: Type.String() });
export type RatingHistoryRow = Static<typeof RatingHistoryRow>;

/** `GET /api/bots/:id/ratings`: the rating after each rated match, oldest first, per system. */
export const RatingHistory = Type.Object({ elo: Type.Array(RatingHistoryRow), openskill: Type.Array(RatingHistoryRow) });
export type RatingHistory = Static<typeof RatingHistory>;

/** A bot's record against one opponent. */
export const HeadToHeadRow = Type.Object({
  opponentId: Type.String(),
  opponentName: Type.String(),
  wins: Type.Integer(),
  draws: Type.Integer(),
  losses: Type.Integer(),
});
export type HeadToHeadRow = Static<typeof HeadToHeadRow>;

/** `GET /api/bots/:id/head-to-head`: most games first. */
export const HeadToHead = Type.Array(HeadToHeadRow);
export type HeadToHead = Static<typeof HeadToHead>;

/** `GET /api/uploads`: whether this server takes uploaded code, in which languages, and how big an upload may be. */
export const UploadInfo = Type.Object({
  enabled: Type.Boolean({ description: 'false: the server was started without --uploads; bots enter as URLs (or linked with botarena connect)' }),
  languages: Type.Array(
    Type.Object({
      id: Type.String({ description: 'the name to give as `language`' }),
      entries: Type.Array(Type.String(), { description: 'the entry files looked for, in order, when none is given' }),
      extensions: Type.Array(Type.String(), { description: 'file endings that say a single file is in this language' }),
    }),
  ),
  maxBytes: Type.Integer({ description: 'the largest upload (the file or the archive as sent), bytes' }),
  maxExpandedBytes: Type.Integer({ description: "the largest an archive's files may be together once expanded, bytes" }),
  maxFiles: Type.Integer(),
});
export type UploadInfo = Static<typeof UploadInfo>;
