import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { BotRow } from '../../store/index.js';
import type { Arena } from '../arena.js';
import { errorSchema, notFound } from '../errors.js';

const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._+-]*$', description: 'letters, digits, space, . _ + -; unique in its game' });
const Endpoint = Type.String({ minLength: 1, maxLength: 2048, description: 'http(s)://… (http+form://… for Battleship’s 2015 form dialect); stdio:/exec: commands only on servers started with --allow-commands' });
const Description = Type.String({ maxLength: 2000 });
const Owner = Type.String({ maxLength: 200, description: 'how to reach the owner (shown to the admin only)' });
const Capacity = Type.Integer({ minimum: 1, maximum: 64, description: 'the most matches the bot plays at once (default 2)' });

const NewBotBody = Type.Object({ game: Type.String({ maxLength: 64 }), name: Name, endpoint: Endpoint, description: Type.Optional(Description), owner: Type.Optional(Owner), capacity: Type.Optional(Capacity) }, { additionalProperties: false });
const PatchBody = Type.Object(
  { endpoint: Type.Optional(Endpoint), description: Type.Optional(Description), owner: Type.Optional(Owner), capacity: Type.Optional(Capacity), status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')])) },
  { additionalProperties: false },
);
const BotId = Type.Object({ id: Type.String({ maxLength: 64 }) });
const BotList = Type.Object({ game: Type.Optional(Type.String({ maxLength: 64 })), status: Type.Optional(Type.String({ maxLength: 16 })) }, { additionalProperties: false });

/** A bot as the API shows it to anyone (no token hash, no owner contact). */
export function publicBot(b: BotRow) {
  return {
    id: b.id,
    game: b.game,
    name: b.name,
    endpoint: b.builtin ? `built-in: ${b.endpoint}` : b.endpoint.startsWith('http') ? b.endpoint : b.endpoint.split(' ')[0],
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
  return async (app: FastifyInstance): Promise<void> => {
    app.post(
      '/api/bots',
      {
        schema: { tags: ['bots'], summary: 'register a bot: it is checked (botarena doctor) and plays rated matches once every check passes; the owner token is shown once', body: NewBotBody, response: { 201: Type.Unknown(), 400: errorSchema, 403: errorSchema, 409: errorSchema, 429: errorSchema } },
        config: { rateLimit: { max: limits.registrations, timeWindow: '1 minute' } },
      },
      async (req, reply) => {
        const body = req.body as Static<typeof NewBotBody>;
        const { bot, token } = await arena.bots.register(body);
        void reply.status(201);
        return { bot: publicBot(bot), token, note: 'keep the token: it is shown only now, and editing, pausing or deleting the bot needs it (Authorization: Bearer TOKEN)' };
      },
    );

    app.get('/api/bots', { schema: { tags: ['bots'], summary: 'bots, by game and status', querystring: BotList } }, async (req) => {
      const q = req.query as Static<typeof BotList>;
      return (await arena.store.listBots({ game: q.game, status: q.status as BotRow['status'] | undefined })).filter((b) => b.status !== 'deleted').map(publicBot);
    });

    const getBot = async (id: string) => {
      const bot = await arena.store.getBot(id);
      if (!bot || bot.status === 'deleted') throw notFound(`no bot ${id}`);
      return bot;
    };

    app.get('/api/bots/:id', { schema: { tags: ['bots'], summary: 'a bot, with its ratings and its last check', params: BotId, response: { 404: errorSchema } } }, async (req) => {
      const bot = await getBot((req.params as { id: string }).id);
      const ratings = await arena.store.ratingsOf(bot.id);
      return { ...publicBot(bot), ratings, doctor: bot.doctorReport ? (JSON.parse(bot.doctorReport) as unknown) : null };
    });

    app.patch('/api/bots/:id', { schema: { tags: ['bots'], summary: "edit a bot (owner or admin): a new endpoint is checked again; status 'paused' takes it off the ladder, 'active' re-checks it", params: BotId, body: PatchBody, security: [{ owner: [] }], response: { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema } } }, async (req) => {
      const bot = await arena.bots.authorise((req.params as { id: string }).id, bearer(req));
      return publicBot(await arena.bots.update(bot, req.body as Static<typeof PatchBody>));
    });

    app.delete('/api/bots/:id', { schema: { tags: ['bots'], summary: 'delete a bot (owner or admin); its matches and ratings stay in the history', params: BotId, security: [{ owner: [] }], response: { 204: Type.Null(), 401: errorSchema, 403: errorSchema, 404: errorSchema } } }, async (req, reply) => {
      const bot = await arena.bots.authorise((req.params as { id: string }).id, bearer(req));
      await arena.store.deleteBot(bot.id);
      void reply.status(204);
    });

    app.post('/api/bots/:id/check', { schema: { tags: ['bots'], summary: 'run the doctor check again now (owner or admin); resolves with the report', params: BotId, security: [{ owner: [] }] }, config: { rateLimit: { max: limits.registrations, timeWindow: '1 minute' } } }, async (req) => {
      const bot = await arena.bots.authorise((req.params as { id: string }).id, bearer(req));
      return { report: await arena.bots.check(bot.id), bot: publicBot((await arena.store.getBot(bot.id))!) };
    });

    app.get('/api/bots/:id/ratings', { schema: { tags: ['ratings'], summary: "a bot's rating after each rated match (ELO and OpenSkill), oldest first", params: BotId } }, async (req) => {
      const bot = await getBot((req.params as { id: string }).id);
      return { elo: await arena.store.ratingHistory(bot.id, 'elo'), openskill: await arena.store.ratingHistory(bot.id, 'openskill') };
    });

    app.get('/api/bots/:id/head-to-head', { schema: { tags: ['ratings'], summary: "a bot's record against each opponent (duels, as botsarena's score pages)", params: BotId } }, async (req) => {
      const bot = await getBot((req.params as { id: string }).id);
      return arena.store.headToHead(bot.id);
    });
  };
}
