import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorBody, EventStream, MoveAnswer, MoveBody, SeatParams, TokenQuery } from '../../api/index.js';
import type { DeskNotice } from '../../bots/index.js';
import type { Arena } from '../arena.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { sse } from '../sse.js';

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
  return async (fastify: FastifyInstance): Promise<void> => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/api/matches/:id/seats/:slot/play',
      {
        schema: {
          tags: ['matches'],
          summary:
            "a person seat's play stream (SSE): `ask` (the pending one first), `told`, `accepted`, then `ended`; the token as ?token= (EventSource sends no headers) or Bearer",
          params: SeatParams,
          querystring: TokenQuery,
          response: { 200: EventStream, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (req, reply) => {
        const { id, slot } = req.params;
        const desk = arena.persons.desk(id, slot, tokenOf(req, req.query.token));
        // The desk sends the pending ask as soon as the page listens; an open stream is what keeps the person "present".
        sse<DeskNotice>(
          req,
          reply,
          [],
          (send) => desk.listen(send),
          (n) => n.type === 'ended',
        );
      },
    );

    app.post(
      '/api/matches/:id/seats/:slot/move',
      {
        bodyLimit: MOVE_BODY_LIMIT,
        schema: {
          tags: ['matches'],
          summary:
            "a person's move (or one smart-dog line) for the ask pending at this seat: 400 with the reason when the line is not a move (try again), 409 when nothing is asked now",
          params: SeatParams,
          body: MoveBody,
          response: { 200: MoveAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (req) => {
        const { id, slot } = req.params;
        const body = req.body;
        const desk = arena.persons.desk(id, slot, tokenOf(req, body.token));
        const taken = await desk.submit(body.line);
        if (taken.ok) return { accepted: true as const };
        if (taken.why === 'bad') throw badRequest(taken.error);
        if (taken.why === 'idle') throw conflict(`seat ${slot} of match ${id}: ${taken.error}`);
        throw notFound(`seat ${slot} of match ${id}: ${taken.error} (its result: /api/matches/${id})`);
      },
    );
  };
}
