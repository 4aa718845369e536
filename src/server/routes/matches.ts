import { gunzipSync } from 'node:zlib';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ErrorBody,
  EventStream,
  Leaderboard,
  LeaderboardParams,
  LeaderboardQuery,
  LogParams,
  MatchListQuery,
  MatchPage,
  MatchParams,
  NewMatchAnswer,
  NewMatchBody,
  PublicMatch,
  ReplayDownload,
  ReplayPage,
  SeatLog,
} from '../../api/index.js';
import { eloMargin } from '../../ratings/index.js';
import { replayHtml } from '../../arena/replay-html.js';
import type { Replay, TranscriptEntry } from '../../core/replay.js';
import { games } from '../../games/index.js';
import type { LiveEvent } from '../../live/events.js';
import type { MatchRow } from '../../store/index.js';
import type { Arena } from '../arena.js';
import { badRequest, forbidden, notFound, unauthorized } from '../errors.js';
import { sse, sseBlock, sseEncoded, Streams } from '../sse.js';

/** A match as the API shows it. */
export function publicMatch(m: MatchRow): PublicMatch {
  const { job: _job, ...rest } = m;
  return { ...rest, reason: endReason(m) };
}

/**
 * Why a match ended, as its events say it (`ended` and `stopped` carry the same `reason`): the rules' words once
 * finished, why once aborted, null before its end.
 */
export function endReason(m: Pick<MatchRow, 'status' | 'result' | 'abortReason'>): string | null {
  if (m.status === 'finished') return m.result?.reason ?? null;
  if (m.status === 'aborted') return m.abortReason ?? 'aborted';
  return null;
}

/** The token of an `Authorization: Bearer TOKEN` header. */
const bearerOf = (header: string | undefined) => /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];

/** A match's live stream ends with the match. */
const matchOver = (e: LiveEvent) => e.type === 'ended' || e.type === 'stopped';

/** An ELO leaderboard line with its ± as the tournament table computes it, from its score share (a win 1, a draw ½). */
export function withEloMargin<R extends { games: number; wins: number; draws: number }>(r: R): R & { eloMargin: number | null } {
  const m = r.games ? eloMargin(r.games, (r.wins + r.draws / 2) / r.games) : null;
  return { ...r, eloMargin: m === null ? null : Math.round(m * 10) / 10 };
}
/** Matches: start (on-demand or test), list, read, download replays and owners' logs, watch live (SSE); leaderboards. */
export function matchRoutes(arena: Arena, limits: { matches: number }, streams: Streams = new Streams()) {
  return async (fastify: FastifyInstance): Promise<void> => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const getMatch = async (id: string) => {
      const m = await arena.store.getMatch(id);
      if (!m) throw notFound(`no match ${id}`);
      return m;
    };

    app.post(
      '/api/matches',
      {
        schema: {
          tags: ['matches'],
          summary:
            'start a match between chosen bots (never rated: rated matches are the ladder\'s, or the admin\'s with "rated": true), or a test match; answers at once with the queued match (watch it at /api/matches/ID/events)',
          body: NewMatchBody,
          // Past the server's limits also: 400 (too big a match), 429 (this address's quota) and 503 (the queue is
          // full), each with Retry-After but the 400; 503 is left out here so the OpenAPI document stays as it was.
          response: { 201: NewMatchAnswer, 400: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody },
        },
        config: { rateLimit: { max: limits.matches, timeWindow: '1 minute' } },
      },
      async (req, reply) => {
        const b = req.body;
        if (b.test && b.rated) throw badRequest('a test match is never rated: give "test" or "rated", not both');
        const { match, persons, viewerToken } = await arena.matches.request({
          game: b.game,
          seats: b.seats,
          rated: b.rated ?? false,
          kind: b.test ? 'test' : 'challenge',
          seed: b.seed,
          config: b.config,
          admin: arena.bots.isAdmin(bearerOf(req.headers.authorization)),
          address: req.ip,
        });
        void reply.status(201);
        // Each person's token is shown here once: it opens that seat's play stream and sends its moves.
        return { ...publicMatch(match), ...(persons.length ? { persons } : {}), ...(viewerToken ? { viewerToken } : {}) };
      },
    );

    app.get(
      '/api/matches',
      {
        schema: {
          tags: ['matches'],
          summary: 'matches, newest first, filtered; `next` is the cursor of the next page',
          querystring: MatchListQuery,
          response: { 200: MatchPage },
        },
      },
      async (req) => {
        const q = req.query;
        const page = await arena.store.listMatches({ game: q.game, botId: q.bot, status: q.status, kind: q.kind, limit: q.limit ?? 20, cursor: q.cursor });
        return { items: page.items.map(publicMatch), next: page.next };
      },
    );

    app.get(
      '/api/matches/:id',
      { schema: { tags: ['matches'], summary: 'a match: its seats, status and result', params: MatchParams, response: { 200: PublicMatch, 404: ErrorBody } } },
      async (req) => publicMatch(await getMatch(req.params.id)),
    );

    app.get(
      '/api/matches/:id/replay',
      {
        schema: {
          tags: ['matches'],
          summary: 'the replay of a finished match (JSON; gzip when the client accepts it); `botarena replay verify` checks it',
          params: MatchParams,
          response: { 200: ReplayDownload, 404: ErrorBody },
        },
      },
      async (req, reply) => {
        const m = await getMatch(req.params.id);
        const gz = await arena.store.getReplay(m.id);
        if (!gz)
          throw notFound(m.status === 'finished' ? `match ${m.id} has no replay` : `match ${m.id} is ${m.status}: its replay is kept once it has finished`);
        void reply.header('content-disposition', `attachment; filename="${m.game}-${m.id}.json"`).type('application/json');
        if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(gz);
        return reply.send(gunzipSync(gz));
      },
    );

    app.get(
      '/api/matches/:id/replay.html',
      {
        schema: {
          tags: ['matches'],
          summary: "a finished match's player: one self-contained HTML file (the replay and the player inside) that plays offline",
          params: MatchParams,
          response: { 200: ReplayPage, 404: ErrorBody },
        },
      },
      async (req, reply) => {
        const m = await getMatch(req.params.id);
        const gz = await arena.store.getReplay(m.id);
        if (!gz)
          throw notFound(
            m.status === 'finished' ? `match ${m.id} has no replay` : `match ${m.id} is ${m.status}: its player can be downloaded once it has finished`,
          );
        const html = replayHtml(JSON.parse(gunzipSync(gz).toString('utf8')) as Replay);
        return reply.header('content-disposition', `attachment; filename="${m.game}-${m.id}.html"`).type('text/html; charset=utf-8').send(html);
      },
    );

    app.get(
      '/api/matches/:id/logs/:slot',
      {
        schema: {
          tags: ['matches'],
          summary:
            "one seat's full message log (every byte sent and received, stderr, timings): for that bot's owner, the admin, or (a test match) who started it with the match's viewerToken, for the seats that are no one's registered bot (a URL, a built-in bot, a person)",
          params: LogParams,
          security: [{ owner: [] }],
          response: { 200: SeatLog },
        },
      },
      async (req) => {
        const { id, slot } = req.params;
        const m = await getMatch(id);
        const seat = m.seats[slot];
        if (!seat) throw notFound(`match ${id} has no seat ${slot}`);
        const bearer = bearerOf(req.headers.authorization);
        // Who started a test match reads the logs of its seats that are nobody's registered bot (its viewer token);
        // a registered bot's log is for its owner or the admin, whoever started the match.
        const access = arena.bots.isAdmin(bearer) ? 'admin' : await arena.matches.viewerReads(id, seat, bearer);
        if (access === 'registered-bot')
          throw forbidden(
            `seat ${slot} is ${seat.name}, a bot its owner registered: its log is for its owner's token or the admin; the match's viewerToken reads the seats that are no one's registered bot (a bot given by its URL, a built-in bot, a person)`,
          );
        if (access === 'not-viewer') {
          if (!seat.botId)
            throw bearer
              ? forbidden(`seat ${slot} was a bot given by its URL: its log is for who started the match (the match's viewerToken) or the admin`)
              : unauthorized(
                  `this needs the match's viewerToken (test matches), the seat's bot's owner token, or the admin token: "Authorization: Bearer TOKEN"`,
                );
          await arena.bots.authorise(seat.botId, bearer, req.ip).catch((err: unknown) => {
            throw err instanceof Error && 'status' in err && (err as { status: number }).status === 404
              ? forbidden(`seat ${slot}'s bot no longer exists: its logs are for the admin`)
              : err;
          });
        }
        const gz = await arena.store.getLogs(id, slot);
        if (!gz) throw notFound(`match ${id} keeps no log for seat ${slot} (yet)`);
        return JSON.parse(gunzipSync(gz).toString('utf8')) as TranscriptEntry[];
      },
    );

    /** A finished match's stream, encoded once from its stored replay and shared by every viewer (`Streams`). */
    const encodeFinished = async (id: string): Promise<Buffer | null> => {
      const gz = await arena.store.getReplay(id);
      if (!gz) return null;
      const { turns, result, durationMs, transcripts: _t, ...header } = JSON.parse(gunzipSync(gz).toString('utf8')) as Replay;
      const blocks: string[] = [sseBlock<LiveEvent>({ type: 'started', matchId: id, header })];
      turns.forEach((record, index) => blocks.push(sseBlock<LiveEvent>({ type: 'step', matchId: id, index, record })));
      blocks.push(sseBlock<LiveEvent>({ type: 'ended', matchId: id, reason: result.reason, result, durationMs: durationMs ?? 0, steps: turns.length }));
      return Buffer.from(blocks.join(''), 'utf8');
    };

    const matchEvents = async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, release: () => void): Promise<void> => {
      const m = await getMatch(req.params.id);
      if (m.status === 'queued' || m.status === 'running') {
        // Wherever it runs (here, or a worker): what it published so far, then the rest as it comes; a match not
        // started yet is listened to from before the history is read, so its start is not missed in between.
        let send: ((e: LiveEvent) => void) | null = null;
        const followed = await arena.follow.match(m.id, (e) => send?.(e), { waitForStart: true });
        if (followed) {
          return sse(
            req,
            reply,
            followed.history,
            (s) => {
              send = s;
              followed.deliver();
              return followed.stop;
            },
            matchOver,
            { streams, release },
          );
        }
      }
      if (m.status === 'finished') {
        const bytes = await streams.encoded(m.id, () => encodeFinished(m.id));
        if (!bytes) throw notFound(`match ${m.id} has no replay`);
        return sseEncoded(streams, release, req, reply, bytes);
      }
      if (m.status === 'aborted')
        return sse(req, reply, [{ type: 'stopped', matchId: m.id, reason: m.abortReason ?? 'aborted' }], null, matchOver, { streams, release });
      // a status this route does not know (queued and running are followed above): listen from now
      return sse(req, reply, [], (send) => arena.live.subscribe(m.id, 'public', send), matchOver, { streams, release });
    };

    app.get(
      '/api/events',
      {
        schema: {
          tags: ['matches'],
          summary: "the global feed (SSE): `started` of every match running now, then every match's `started`, `ended` and `stopped` as they happen",
          response: { 200: EventStream },
        },
      },
      async (req, reply) => {
        const release = streams.acquire(req.ip);
        const early: LiveEvent[] = [];
        let send: ((e: LiveEvent) => void) | null = null;
        let stop: () => void;
        try {
          stop = await arena.follow.feed((e) => (send ? send(e) : void early.push(e)));
        } catch (err) {
          release();
          throw err;
        }
        sse(
          req,
          reply,
          early,
          (s) => {
            send = s;
            return stop;
          },
          undefined,
          { streams, release },
        );
      },
    );

    app.get(
      '/api/matches/:id/events',
      {
        schema: {
          tags: ['matches'],
          summary:
            "a match's live events (SSE): the header and every step so far, then each as it comes, then `ended`; a finished match's whole replay as events",
          params: MatchParams,
          response: { 200: EventStream },
        },
      },
      async (req, reply) => {
        // The caps first: a refused client costs no database read.
        const release = streams.acquire(req.ip);
        try {
          await matchEvents(req, reply, release);
        } catch (err) {
          release();
          throw err;
        }
      },
    );

    app.get(
      '/api/leaderboards/:game',
      {
        schema: {
          tags: ['ratings'],
          summary: "a game's leaderboard: ELO (botsarena's ladder) or OpenSkill (μ − 3σ)",
          params: LeaderboardParams,
          querystring: LeaderboardQuery,
          response: { 200: Leaderboard, 404: ErrorBody },
        },
      },
      async (req) => {
        const { game } = req.params;
        const q = req.query;
        if (!Object.hasOwn(games, game)) throw notFound(`no game "${game}" on this server; the games are ${Object.keys(games).join(', ')}`);
        const system = q.system ?? 'elo';
        const rows = await arena.store.leaderboard(game, system, q.limit ?? 100);
        if (system !== 'elo') return rows;
        return rows.map(withEloMargin);
      },
    );
  };
}
