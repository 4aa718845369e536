import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ContestArchive,
  ContestDetail,
  ContestList,
  ContestListQuery,
  ContestMatchList,
  ContestParams,
  ContestResults,
  EnterBody,
  ErrorBody,
  NewContestBody,
  type ContestEntry,
  type ContestProgress,
  type ContestSummary,
  type FrozenVersion,
} from '../../api/index.js';
import type { ContestEntryRow, ContestRow } from '../../store/index.js';
import type { Arena } from '../arena.js';
import { badRequest, forbidden, unauthorized } from '../errors.js';

const bearer = (req: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];

/** A contest definition is small: 64 KiB is room for 16 maps of a few KiB each. */
const DEFINITION_BYTES = 64 * 1024;

type Definition = { format?: string; opensAt?: string; closesAt?: string };

function summary(c: ContestRow, entrants: number, progress: ContestProgress): ContestSummary {
  const d = c.definition as Definition;
  return {
    id: c.id,
    name: c.name,
    game: c.game,
    status: c.status,
    format: d.format ?? '',
    opensAt: d.opensAt ?? null,
    closesAt: d.closesAt ?? null,
    createdAt: c.createdAt,
    frozenAt: c.frozenAt,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    entrants,
    progress,
  };
}

const entry = (e: ContestEntryRow): ContestEntry => ({
  botId: e.botId,
  name: e.name,
  builtin: e.builtin,
  enteredAt: e.enteredAt,
  frozen: (e.frozen as FrozenVersion | null) ?? null,
});

/** Contests: create (admin), list, read with progress, enter (owner or admin), freeze and start (admin), results, archive. */
export function contestRoutes(arena: Arena) {
  return async (fastify: FastifyInstance): Promise<void> => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const contests = arena.contests;
    const admin = (req: FastifyRequest) => {
      const token = bearer(req);
      if (!token) throw unauthorized('this needs the admin token: send "Authorization: Bearer TOKEN" (the server\'s BOTARENA_ADMIN_TOKEN)');
      if (!arena.bots.isAdmin(token))
        throw forbidden('this needs the admin token (an organiser creates, freezes and starts contests); the token sent is not it');
    };
    const detail = async (id: string) => {
      const d = await contests.detail(id);
      return {
        ...summary(d.contest, d.entries.length, progressOf(d.progress)),
        definition: d.contest.definition as Record<string, unknown>,
        entries: d.entries.map(entry),
        practice: `until the freeze the entrants play ${d.contest.game}'s ladder: GET /api/leaderboards/${d.contest.game} (its results do not count in the final)`,
      };
    };
    const progressOf = (p: Awaited<ReturnType<typeof contests.progress>>): ContestProgress => ({
      planned: p.planned,
      queued: p.queued,
      running: p.running,
      finished: p.finished,
      aborted: p.aborted,
      total: p.total,
    });

    app.post(
      '/api/contests',
      {
        bodyLimit: DEFINITION_BYTES,
        schema: {
          tags: ['contests'],
          summary: 'create a contest from its definition (admin): it takes entries from opensAt to closesAt',
          security: [{ admin: [] }],
          body: NewContestBody,
          response: { 201: ContestDetail, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
        },
        // Checked before the body is parsed: nobody but the admin makes the server read a definition.
        onRequest: async (req) => admin(req),
      },
      async (req, reply) => {
        const c = await contests.create(req.body);
        return reply.status(201).send(await detail(c.id));
      },
    );

    app.get(
      '/api/contests',
      { schema: { tags: ['contests'], summary: 'contests, newest first', querystring: ContestListQuery, response: { 200: ContestList, 400: ErrorBody } } },
      async (req) => {
        const rows = await arena.store.listContests({ game: req.query.game, status: req.query.status, limit: 200 });
        return Promise.all(rows.map(async (c) => summary(c, (await arena.store.contestEntries(c.id)).length, progressOf(await contests.progress(c)))));
      },
    );

    app.get(
      '/api/contests/:id',
      {
        schema: {
          tags: ['contests'],
          summary: 'a contest: its definition, entrants (with their frozen versions) and progress',
          params: ContestParams,
          response: { 200: ContestDetail, 404: ErrorBody },
        },
      },
      async (req) => detail(req.params.id),
    );

    app.post(
      '/api/contests/:id/entries',
      {
        schema: {
          tags: ['contests'],
          summary: "enter a bot in a contest during its entry window (the bot's owner token, or the admin's)",
          security: [{ owner: [] }],
          params: ContestParams,
          body: EnterBody,
          response: { 201: ContestDetail, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (req, reply) => {
        const c = await contests.get(req.params.id);
        const named = (await arena.store.getBot(req.body.bot)) ?? (await arena.store.getBotByName(c.game, req.body.bot));
        if (!named || named.status === 'deleted')
          throw badRequest(`bot: no ${c.game} bot ${JSON.stringify(req.body.bot)} (give a bot id or name of this game)`);
        // The owner's token, or the admin's (a built-in bot has no owner: the admin enters it).
        const bot = named.builtin && arena.bots.isAdmin(bearer(req)) ? named : await arena.bots.authorise(named.id, bearer(req), req.ip);
        await contests.enter(c.id, bot);
        return reply.status(201).send(await detail(c.id));
      },
    );

    app.post(
      '/api/contests/:id/freeze',
      {
        schema: {
          tags: ['contests'],
          summary: "close the entries now and fix each entrant's version (admin; done by itself when the window closes)",
          security: [{ admin: [] }],
          params: ContestParams,
          response: { 200: ContestDetail, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
        onRequest: async (req) => admin(req),
      },
      async (req) => {
        await contests.freeze(req.params.id);
        return detail(req.params.id);
      },
    );

    app.post(
      '/api/contests/:id/start',
      {
        schema: {
          tags: ['contests'],
          summary: 'start the final (admin; freezes first if the entries are open): its matches are queued for the workers',
          security: [{ admin: [] }],
          params: ContestParams,
          response: { 200: ContestDetail, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
        onRequest: async (req) => admin(req),
      },
      async (req) => {
        await contests.start(req.params.id);
        return detail(req.params.id);
      },
    );

    app.get(
      '/api/contests/:id/matches',
      {
        schema: {
          tags: ['contests'],
          summary: "the final's matches in the plan's order",
          params: ContestParams,
          response: { 200: ContestMatchList, 404: ErrorBody },
        },
      },
      async (req) => {
        const ms = await contests.matches(req.params.id);
        return ms.map((m) => ({
          key: m.key,
          matchId: m.match.id,
          status: m.match.status,
          config: m.config,
          seats: m.match.seats.map((s) => s.botId ?? s.name),
          winner: m.match.result?.winner ?? null,
          draw: m.match.result?.draw ?? false,
        }));
      },
    );

    app.get(
      '/api/contests/:id/results',
      {
        schema: {
          tags: ['contests'],
          summary: 'the standings (score and interval), the pairwise matrix, per-configuration breakdown and faults: final once the contest is done',
          params: ContestParams,
          response: { 200: ContestResults, 404: ErrorBody },
        },
      },
      async (req) => {
        const r = await contests.results(req.params.id);
        return { contest: r.contest.id, status: r.contest.status, final: r.contest.status === 'done', results: r.results };
      },
    );

    app.get(
      '/api/contests/:id/archive',
      {
        schema: {
          tags: ['contests'],
          summary:
            'the archive of a finished contest (.tar.gz: definition, entrants, every match and replay, the results): `botarena contest verify` checks it',
          params: ContestParams,
          response: { 200: ContestArchive, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (req, reply) => {
        const bytes = await contests.archive(req.params.id);
        return reply.header('content-type', 'application/gzip').header('content-disposition', `attachment; filename="${req.params.id}.tar.gz"`).send(bytes);
      },
    );
  };
}
