import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  BotVersionList,
  UploadInfo,
  NewVersionAnswer,
  type BotVersion,
  BotDetail,
  BotList,
  BotListQuery,
  BotParams,
  BotPatchBody,
  CheckAnswer,
  ErrorBody,
  HeadToHead,
  NewBotAnswer,
  NewBotBody,
  NoContent,
  PublicBot,
  RatingHistory,
  type DoctorReport,
} from '../../api/index.js';
import { ApiError, badRequest, forbidden } from '../../core/request-errors.js';
import { UPLOADS_OFF, type CodeUpload } from '../../registry/registry.js';
import { UPLOAD_LIMITS } from '../../registry/upload/intake.js';
import type { BotRow, BotVersionRow } from '../../store/index.js';
import { botStatus } from '../../store/rows.js';
import type { Arena } from '../arena.js';
import { notFound } from '../errors.js';

/** A bot as the API shows it to anyone (no token hash, no owner contact). */
export function publicBot(b: BotRow): PublicBot {
  return {
    id: b.id,
    game: b.game,
    name: b.name,
    endpoint: b.builtin ? `built-in: ${b.endpoint}` : b.endpoint.startsWith('http') ? b.endpoint : b.endpoint.split(' ')[0]!,
    builtin: b.builtin,
    description: b.description,
    status: b.status,
    statusReason: b.statusReason,
    capacity: b.capacity,
    createdAt: b.createdAt,
    // The version of its uploaded code that plays (a bot whose owner gave it a URL since has none).
    ...(b.endpoint.startsWith('upload:') ? { version: b.activeVersion } : {}),
  };
}

/** A version as the API shows it. */
export function publicVersion(v: BotVersionRow): BotVersion {
  let report: unknown = null;
  try {
    report = v.report === null ? null : JSON.parse(v.report);
  } catch {
    report = v.report;
  }
  const { botId: _bot, ...rest } = v;
  return { ...rest, report };
}

/** The fields a code upload may carry besides its file (`code`). */
const UPLOAD_FIELDS = ['game', 'name', 'description', 'owner', 'capacity', 'language', 'entry'] as const;
type UploadForm = { fields: Partial<Record<(typeof UPLOAD_FIELDS)[number], string>>; code: CodeUpload | null };

const MiB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

/**
 * Reads a multipart upload: one file part named `code` and the known text fields, each capped (the plugin's
 * limits stop the reading at the cap); a refusal says what was wrong and what is expected.
 */
async function readForm(req: FastifyRequest, maxFile: number): Promise<UploadForm> {
  const form: UploadForm = { fields: {}, code: null };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'code') {
          part.file.resume();
          throw badRequest(`the file part is named "${part.fieldname}"; send the bot's code as the part "code" (a file, a .tar.gz or a .zip)`);
        }
        const bytes = await part.toBuffer();
        form.code = { fileName: part.filename, bytes };
      } else {
        const name = part.fieldname as (typeof UPLOAD_FIELDS)[number];
        if (!UPLOAD_FIELDS.includes(name))
          throw badRequest(`unknown field "${part.fieldname}"; an upload's fields are code (the file), ${UPLOAD_FIELDS.join(', ')}`);
        if (part.valueTruncated) throw badRequest(`the field "${name}" is too long`);
        form.fields[name] = String(part.value);
      }
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, 'too-large', `code: the upload is over ${MiB(maxFile)}; at most ${MiB(maxFile)}`);
    if (code === 'FST_FILES_LIMIT') throw new ApiError(413, 'too-large', 'send one file, the part "code" (a file, a .tar.gz or a .zip)');
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new ApiError(413, 'too-large', `too many parts: an upload has the file "code" and the fields ${UPLOAD_FIELDS.join(', ')}`);
    throw badRequest(`the multipart body cannot be read (${err instanceof Error ? err.message : String(err)}): send multipart/form-data with the file "code"`);
  }
  if (!form.code) throw badRequest('no file: send the bot\'s code as the multipart part "code" (a file, a .tar.gz or a .zip)');
  form.code.language = form.fields.language || undefined;
  form.code.entry = form.fields.entry || undefined;
  return form;
}

const bearer = (req: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];

/** Bots: register (checked by the doctor before they play), read, edit, pause, delete; their ratings and records. */
export function botRoutes(arena: Arena, limits: { registrations: number }) {
  return async (fastify: FastifyInstance): Promise<void> => {
    const maxFile = arena.opts.uploads?.limits?.compressedBytes ?? UPLOAD_LIMITS.compressedBytes;
    // Uploads (multipart) are read with explicit caps: one file of at most the upload's size, a few short fields.
    await fastify.register(multipart, {
      limits: {
        fileSize: maxFile,
        files: 1,
        fields: UPLOAD_FIELDS.length,
        fieldNameSize: 64,
        fieldSize: 16 * 1024,
        parts: UPLOAD_FIELDS.length + 1,
        headerPairs: 32,
      },
      throwFileSizeLimit: true,
    });
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const forms = new WeakMap<FastifyRequest, UploadForm>();
    app.post(
      '/api/bots',
      {
        schema: {
          tags: ['bots'],
          summary: 'register a bot: it is checked (botarena doctor) and plays rated matches once every check passes; the owner token is shown once',
          body: NewBotBody,
          response: { 201: NewBotAnswer, 400: ErrorBody, 403: ErrorBody, 409: ErrorBody, 413: ErrorBody, 429: ErrorBody },
        },
        config: { rateLimit: { max: limits.registrations, timeWindow: '1 minute' } },
        // Uploaded code (multipart/form-data: the file "code" and the fields): read here, then the fields are
        // validated as a registration's body (the endpoint is the upload's, made by the registry).
        preValidation: async (req) => {
          if (!req.isMultipart()) return;
          if (!arena.opts.uploads) throw forbidden(UPLOADS_OFF);
          const form = await readForm(req, maxFile);
          forms.set(req, form);
          const f = form.fields;
          const capacity = f.capacity === undefined ? undefined : /^\d{1,6}$/.test(f.capacity) ? Number(f.capacity) : f.capacity;
          req.body = Object.fromEntries<string | number | undefined>(
            Object.entries({ game: f.game, name: f.name, endpoint: 'upload', description: f.description, owner: f.owner, capacity }).filter(
              ([, v]) => v !== undefined,
            ),
          ) as typeof req.body;
        },
      },
      async (req, reply) => {
        const form = forms.get(req);
        if (form) {
          const { endpoint: _upload, ...fields } = req.body;
          const { bot, token, version } = await arena.bots.registerUpload({ ...fields, code: form.code! });
          void reply.status(201);
          return {
            bot: publicBot(bot),
            token,
            version: publicVersion(version),
            note: `keep the token: it is shown only now. Version ${version.version} is being checked (GET /api/bots/${bot.id}/versions); the bot plays once it passes`,
          };
        }
        const { bot, token } = await arena.bots.register(req.body);
        void reply.status(201);
        return {
          bot: publicBot(bot),
          token,
          note: 'keep the token: it is shown only now, and editing, pausing or deleting the bot needs it (Authorization: Bearer TOKEN)',
        };
      },
    );

    app.get(
      '/api/bots',
      {
        schema: {
          tags: ['bots'],
          // The summaries are the OpenAPI document's as before (server-api.test); with the admin token each bot has its
          // owner's contact (the answer's schema says so).
          summary: 'bots, by game and status',
          querystring: BotListQuery,
          response: { 200: BotList },
        },
      },
      async (req) => {
        const q = req.query;
        const admin = arena.bots.isAdmin(bearer(req));
        // The status is checked by the store's own check (its 400 names the statuses), as before the schemas moved.
        return (await arena.store.listBots({ game: q.game, status: q.status === undefined ? undefined : botStatus(q.status) }))
          .filter((b) => b.status !== 'deleted')
          .map((b) => (admin ? { ...publicBot(b), owner: b.ownerContact } : publicBot(b)));
      },
    );

    const getBot = async (id: string) => {
      const bot = await arena.store.getBot(id);
      if (!bot || bot.status === 'deleted') throw notFound(`no bot ${id}`);
      return bot;
    };

    app.get(
      '/api/bots/:id',
      { schema: { tags: ['bots'], summary: 'a bot, with its ratings and its last check', params: BotParams, response: { 200: BotDetail, 404: ErrorBody } } },
      async (req) => {
        const bot = await getBot(req.params.id);
        const ratings = await arena.store.ratingsOf(bot.id);
        // The owner's contact, to the admin only.
        const owner = arena.bots.isAdmin(bearer(req)) ? { owner: bot.ownerContact } : {};
        return { ...publicBot(bot), ...owner, ratings, doctor: bot.doctorReport ? (JSON.parse(bot.doctorReport) as DoctorReport) : null };
      },
    );

    app.patch(
      '/api/bots/:id',
      {
        schema: {
          tags: ['bots'],
          summary: "edit a bot (owner or admin): a new endpoint is checked again; status 'paused' takes it off the ladder, 'active' re-checks it",
          params: BotParams,
          body: BotPatchBody,
          security: [{ owner: [] }],
          response: { 200: PublicBot, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => {
        const bot = await arena.bots.authorise(req.params.id, bearer(req), req.ip);
        return publicBot(await arena.bots.update(bot, req.body));
      },
    );

    app.delete(
      '/api/bots/:id',
      {
        schema: {
          tags: ['bots'],
          summary: 'delete a bot (owner or admin); its matches and ratings stay in the history',
          params: BotParams,
          security: [{ owner: [] }],
          response: { 204: NoContent, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (req, reply) => {
        const bot = await arena.bots.authorise(req.params.id, bearer(req), req.ip);
        await arena.store.deleteBot(bot.id);
        void reply.status(204);
      },
    );

    app.post(
      '/api/bots/:id/check',
      {
        schema: {
          tags: ['bots'],
          summary: 'run the doctor check again now (owner or admin); resolves with the report',
          params: BotParams,
          security: [{ owner: [] }],
          response: { 200: CheckAnswer },
        },
        config: { rateLimit: { max: limits.registrations, timeWindow: '1 minute' } },
      },
      async (req) => {
        const bot = await arena.bots.authorise(req.params.id, bearer(req), req.ip);
        return { report: await arena.bots.check(bot.id), bot: publicBot((await arena.store.getBot(bot.id))!) };
      },
    );

    app.put(
      '/api/bots/:id/code',
      {
        schema: {
          tags: ['bots'],
          summary:
            'upload a new version of a bot\'s code (owner or admin; multipart: the file "code", and language, entry): it is checked before it plays, and a refused one leaves the active version playing',
          params: BotParams,
          security: [{ owner: [] }],
          response: { 202: NewVersionAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody },
        },
        config: { rateLimit: { max: limits.registrations, timeWindow: '1 minute' } },
      },
      async (req, reply) => {
        const bot = await arena.bots.authorise(req.params.id, bearer(req), req.ip);
        if (!arena.opts.uploads) throw forbidden(UPLOADS_OFF);
        if (!req.isMultipart())
          throw badRequest('send multipart/form-data with the file "code" (a file, a .tar.gz or a .zip), and optionally language and entry');
        const form = await readForm(req, maxFile);
        const version = await arena.bots.addVersion(bot, form.code!);
        void reply.status(202);
        return {
          version: publicVersion(version),
          bot: publicBot((await arena.store.getBot(bot.id))!),
          note: `version ${version.version} is being checked (GET /api/bots/${bot.id}/versions); it plays once it passes, and until then version ${bot.activeVersion ?? 'none'} plays`,
        };
      },
    );

    app.get(
      '/api/uploads',
      {
        schema: {
          tags: ['bots'],
          summary: 'whether this server takes bots as uploaded code (--uploads), in which languages, and the caps on an upload',
          response: { 200: UploadInfo },
        },
      },
      async () => {
        const u = arena.opts.uploads;
        const limits = u?.limits ?? UPLOAD_LIMITS;
        return {
          enabled: !!u,
          languages: Object.entries(u?.cache.opts.languages ?? {}).map(([id, l]) => ({ id, entries: l.entries, extensions: l.extensions })),
          maxBytes: limits.compressedBytes,
          maxExpandedBytes: limits.expandedBytes,
          maxFiles: limits.files,
        };
      },
    );

    app.get(
      '/api/bots/:id/versions',
      {
        schema: {
          tags: ['bots'],
          summary: "a bot's uploaded versions, newest first, with their check's state and report",
          params: BotParams,
          response: { 200: BotVersionList, 404: ErrorBody },
        },
      },
      async (req) => {
        const bot = await getBot(req.params.id);
        return (await arena.store.listBotVersions(bot.id)).map(publicVersion);
      },
    );

    app.get(
      '/api/bots/:id/ratings',
      {
        schema: {
          tags: ['ratings'],
          summary: "a bot's rating after each rated match (ELO and OpenSkill), oldest first",
          params: BotParams,
          response: { 200: RatingHistory },
        },
      },
      async (req) => {
        const bot = await getBot(req.params.id);
        return { elo: await arena.store.ratingHistory(bot.id, 'elo'), openskill: await arena.store.ratingHistory(bot.id, 'openskill') };
      },
    );

    app.get(
      '/api/bots/:id/head-to-head',
      {
        schema: {
          tags: ['ratings'],
          summary: "a bot's record against each opponent (duels, as botsarena's score pages)",
          params: BotParams,
          response: { 200: HeadToHead },
        },
      },
      async (req) => {
        const bot = await getBot(req.params.id);
        return arena.store.headToHead(bot.id);
      },
    );
  };
}
