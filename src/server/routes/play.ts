import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { DeskNotice } from '../../bots/index.js';
import type { Arena } from '../arena.js';
import { badRequest, conflict, errorSchema, notFound } from '../errors.js';
import { sse } from '../sse.js';

const Seat = Type.Object({ id: Type.String({ maxLength: 128 }), slot: Type.Integer({ minimum: 0, maximum: 63 }) });
const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 512 })) }, { additionalProperties: false });
const Move = Type.Object(
  {
    line: Type.String({ maxLength: 2000, description: 'what the person typed: a move as the game\'s prompt asks for it (tic-tac-toe "1-2"); smart-dog: one wire line' }),
    token: Type.Optional(Type.String({ maxLength: 512, description: 'the seat\'s person token, when not sent as "Authorization: Bearer TOKEN"' })),
  },
  { additionalProperties: false },
);

/** The token of a request: the Bearer header first, else the one given in the query or body. */
function tokenOf(req: FastifyRequest, given: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? given;
}

/** A person's moves are small: a body past this is refused before it is read whole. */
const MOVE_BODY_LIMIT = 8 * 1024;

/**
 * A person at the table: the play stream of a person seat (SSE: `ask`, `told`, `accepted`, `ended`) and its
 * moves. Both need the seat's person token, given once in the answer that started the match.
 */
export function playRoutes(arena: Arena) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get(
      '/api/matches/:id/seats/:slot/play',
      {
        schema: {
          tags: ['matches'],
          summary: "a person seat's play stream (SSE): `ask` (the pending one first), `told`, `accepted`, then `ended`; the token as ?token= (EventSource sends no headers) or Bearer",
          params: Seat,
          querystring: TokenQuery,
          response: { 401: errorSchema, 403: errorSchema, 404: errorSchema },
        },
      },
      async (req, reply) => {
        const { id, slot } = req.params as Static<typeof Seat>;
        const desk = arena.persons.desk(id, slot, tokenOf(req, (req.query as Static<typeof TokenQuery>).token));
        // The desk sends the pending ask as soon as the page listens; an open stream is what keeps the person "present".
        sse<DeskNotice>(req, reply, [], (send) => desk.listen(send), (n) => n.type === 'ended');
      },
    );

    app.post(
      '/api/matches/:id/seats/:slot/move',
      {
        bodyLimit: MOVE_BODY_LIMIT,
        schema: {
          tags: ['matches'],
          summary: "a person's move (or one smart-dog line) for the ask pending at this seat: 400 with the reason when the line is not a move (try again), 409 when nothing is asked now",
          params: Seat,
          body: Move,
          response: { 200: Type.Object({ accepted: Type.Literal(true) }), 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
        },
      },
      async (req) => {
        const { id, slot } = req.params as Static<typeof Seat>;
        const body = req.body as Static<typeof Move>;
        const desk = arena.persons.desk(id, slot, tokenOf(req, body.token));
        const taken = await desk.submit(body.line);
        if (taken.ok) return { accepted: true as const };
        if (taken.why === 'bad') throw badRequest(taken.error);
        if (taken.why === 'idle') throw conflict(`seat ${slot} of match ${id}: ${taken.error}`);
        throw notFound(`seat ${slot} of match ${id}: ${taken.error}`);
      },
    );
  };
}
