import websocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BotParams, ErrorBody } from '../../api/index.js';
import { LINK_CLOSE, type LinkSocket } from '../../matches/links.js';
import { isLinkEndpoint } from '../../registry/endpoints.js';
import type { BotRow } from '../../store/index.js';
import type { Arena } from '../arena.js';
import { conflict } from '../errors.js';

const bearer = (req: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];

/** The bot a link request was authorised for (set before the upgrade, read after it). */
const authorised = new WeakMap<FastifyRequest, BotRow>();

/**
 * The link of a bot its author runs on their own machine (`botarena connect`): one WebSocket, opened by the
 * author's side with the bot's owner token, carrying every match the server seats the bot in (matches/links.ts;
 * the protocol: docs/connect.md). The token and the bot are checked before the upgrade (a plain HTTP error);
 * what is refused after it (a second link) gets a `refused` message and a close code with a short reason.
 */
export function connectRoutes(arena: Arena) {
  return async (fastify: FastifyInstance): Promise<void> => {
    // Messages past the cap close the link (1009) before they are read whole.
    await fastify.register(websocket, { options: { maxPayload: arena.links.limits.maxMessageBytes } });
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/api/bots/:id/connect',
      {
        websocket: true,
        schema: {
          tags: ['bots'],
          summary:
            'link a `connect:` bot from its author\'s machine (WebSocket; `botarena connect` opens it): the owner token as "Authorization: Bearer"; the server sends each match\'s wire messages, the client answers them (docs/connect.md)',
          params: BotParams,
          response: { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody },
        },
        preValidation: async (req) => {
          const { id } = req.params as { id: string };
          const bot = await arena.bots.authorise(id, bearer(req), req.ip);
          if (!isLinkEndpoint(bot.endpoint))
            throw conflict(
              `bot ${bot.name} has the endpoint ${JSON.stringify(bot.endpoint.split(' ')[0])}, not "connect:": only a bot registered with the endpoint "connect:" is linked from its author's machine (PATCH /api/bots/${bot.id} {"endpoint":"connect:"} makes it one)`,
            );
          if (!req.headers.upgrade || req.headers.upgrade.toLowerCase() !== 'websocket')
            throw conflict('this is a WebSocket: connect with `botarena connect` (or a WebSocket client sending the Upgrade header)');
          authorised.set(req, bot);
        },
      },
      (socket, req) => {
        const bot = authorised.get(req)!;
        const s: LinkSocket = {
          send: (text) => socket.send(text),
          get bufferedAmount() {
            return socket.bufferedAmount;
          },
          ping: () => socket.ping(),
          close: (code, reason) => socket.close(code, reason),
          terminate: () => socket.terminate(),
        };
        const linked = arena.links.connect(bot, s);
        if ('refused' in linked) {
          const { code, reason, message } = linked.refused;
          socket.send(JSON.stringify({ type: 'refused', message }));
          socket.close(code, reason);
          return;
        }
        const { link } = linked;
        const max = arena.links.limits.maxMessageBytes;
        socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
          if (isBinary) return link.refuse(LINK_CLOSE.protocol, 'binary message', 'a message was binary: messages are JSON in text frames (docs/connect.md)');
          link.receive(Array.isArray(data) ? Buffer.concat(data).toString() : Buffer.from(data as Buffer).toString());
        });
        socket.on('pong', () => link.pong());
        socket.on('error', (err: NodeJS.ErrnoException) =>
          link.closed(
            err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
              ? `the client sent a message over ${max} bytes, the most a message may have (closed with 1009)`
              : `connection error: ${err.message}`,
          ),
        );
        socket.on('close', (code: number, reason: Buffer) => link.closed(`the connection closed (${code}${reason.length ? `: ${reason.toString()}` : ''})`));
      },
    );
  };
}
