import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
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
import type { BotRow } from '../../store/index.js';
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
  };
}

const bearer = (req: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];

/** Bots: register (checked by the doctor before they play), read, edit, pause, delete; their ratings and records. */
export function botRoutes(arena: Arena, limits: { registrations: number }) {
  return async (fastify: FastifyInstance): Promise<void> => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/api/bots',
      {
        schema: {
          tags: ['bots'],
          summary: 'register a bot: it is checked (botarena doctor) and plays rated matches once every check passes; the owner token is shown once',
          body: NewBotBody,
          response: { 201: NewBotAnswer, 400: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody },
        },
        config: { rateLimit: { max: limits.registrations, timeWindow: '1 minute' } },
      },
      async (req, reply) => {
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
      { schema: { tags: ['bots'], summary: 'bots, by game and status', querystring: BotListQuery, response: { 200: BotList } } },
      async (req) => {
        const q = req.query;
        // The status is checked by the store's own check (its 400 names the statuses), as before the schemas moved.
        return (await arena.store.listBots({ game: q.game, status: q.status === undefined ? undefined : botStatus(q.status) }))
          .filter((b) => b.status !== 'deleted')
          .map(publicBot);
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
        return { ...publicBot(bot), ratings, doctor: bot.doctorReport ? (JSON.parse(bot.doctorReport) as DoctorReport) : null };
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
