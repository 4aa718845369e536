import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import { ENGINE_VERSION as BOTARENA_VERSION } from '../core/version.js';
import { errorHandler, frameworkErrors, saidOnce } from './errors.js';
import { registerRateLimit, type RateLimitOptions } from './rate-limit.js';
import { gameRoutes } from './routes/games.js';
import { webApp } from './web.js';

/** What the HTTP app is built from. */
export interface AppOptions {
  logger: FastifyBaseLogger;
  /** the largest request body, bytes (default 64 KiB: a bot registration is far smaller) */
  bodyLimit?: number;
  /** per-IP limits per minute on registrations and match requests (default 20 and 60) */
  limits?: { registrations: number; matches: number };
  /**
   * the reverse proxies whose X-Forwarded-For names the client (addresses, CIDR blocks, `loopback`…: as
   * `serve --trust-proxy` reads them); then `req.ip`, which every per-address cap reads, is the client's. None by default: the
   * header is ignored
   */
  trustProxy?: string[];
  /** where the request limits are counted: in Redis (shared by the arena's web nodes), else in this process */
  rateLimit?: Omit<RateLimitOptions, 'log'>;
  /** routes of the areas that need the arena (bots, matches, ratings, live): registered by the caller */
  areas?: ((app: FastifyInstance) => Promise<void>)[];
  /** what /healthz says beside `ok` and `version` (the server's event-loop delay) */
  health?: () => Record<string, unknown>;
  /** readiness (/readyz): what is away now (the store, the queue), each a sentence; none when ready */
  ready?: () => Promise<string[]>;
  /** the Prometheus page (/metrics), and who may read it (by the request's Authorization header) */
  metrics?: { page: () => Promise<{ contentType: string; body: string }>; allowed: (authorization: string | undefined) => boolean };
}

/** Query parameters whose values are secrets: `token`, `viewerToken`, `access_token`, `secret`, `password`, `key`, `api_key`… */
const SECRET_PARAM = /token|secret|passw|^(api[-_]?)?key$/i;

/**
 * A request URL as the log may show it: the value of every query parameter that carries a secret (a person's
 * `?token=`, which EventSource can only send in the URL) replaced by `[redacted]`, the rest as it came.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // a name that is not valid percent-encoding is judged as written
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}

/**
 * What the server's logger (pino) never writes, at any level: `Authorization` headers wherever a request's
 * headers are logged, and the raw bytes of a request Node could not parse (Fastify logs them at trace as
 * `err.rawPacket`; they hold the whole request line and headers, tokens included).
 */
export const LOG_REDACTION = {
  paths: ['authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'err.rawPacket', '*.err.rawPacket'],
  censor: '[redacted]',
};

/**
 * One log line per request, when it is answered (Fastify's default is two at info, which buries the lines an
 * operator reads: matches, registrations, errors): at debug level, or error level for a failure. Its URL
 * has its secrets redacted (`redactUrl`).
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const url = redactUrl(request.url);
    const line = { method: request.method, url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, ip: request.ip };
    if (saidOnce.has(reply)) reply.log.debug(line, `${request.method} ${url} ${reply.statusCode} (said once in the log)`);
    else if (error || reply.statusCode >= 500) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.debug(line, `${request.method} ${url} ${reply.statusCode}`);
  }
}

/**
 * Fastify's validators (ajv), strict about a body's types: a JSON body says what it means, so `"seed": "42"`,
 * `"rated": "true"` or `"game": ["tictactoe"]` are refused, not read as 42, true and "tictactoe". Query strings,
 * path parameters and headers are text by nature, and are still coerced to the integer or boolean their schema
 * names (`?limit=5`, `/logs/1`).
 */
function strictBodies(): BuildCompilerFromPool {
  const pool = AjvCompiler();
  // What the pool's compilers are called with (its type declarations say a bare schema; Fastify gives the route).
  type Compile = (route: { schema: unknown; httpPart?: string }) => unknown;
  return ((externalSchemas, options) => {
    const texts = pool(externalSchemas, options) as unknown as Compile;
    const strict = { ...options, customOptions: { ...options?.customOptions, coerceTypes: false } } as Parameters<BuildCompilerFromPool>[1];
    const bodies = pool(externalSchemas, strict) as unknown as Compile;
    return ((route: { schema: unknown; httpPart?: string }) => (route.httpPart === 'body' ? bodies(route) : texts(route))) as never;
  }) as BuildCompilerFromPool;
}

/**
 * The HTTP API: Fastify with TypeBox schemas on every route (validation and the OpenAPI document at /docs
 * come from the same schemas), one error shape (errors.ts), per-IP rate limits on what is costly; the browser
 * app at `/` (web.ts).
 */
export async function buildApp(o: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: o.logger,
    logController: new OneLinePerRequest(),
    bodyLimit: o.bodyLimit ?? 64 * 1024,
    ...(o.trustProxy?.length ? { trustProxy: o.trustProxy } : {}),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
    schemaController: { compilersFactory: { buildValidator: strictBodies() } },
    // A URL Fastify's router refuses (a path parameter over its length, bad percent-encoding) answers in the API's one error shape.
    frameworkErrors,
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((req, reply) => {
    void reply
      .status(404)
      .send({ error: { status: 404, code: 'not-found', message: `no route ${req.method} ${req.url.split('?')[0]}; the API is described at /docs` } });
  });
  await registerRateLimit(app, { ...o.rateLimit, log: o.logger });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Botarena', description: 'Bots, ladders, matches and replays of a Botarena server.', version: BOTARENA_VERSION },
      tags: [
        { name: 'games', description: 'the games and their wire messages' },
        { name: 'bots', description: 'register, check, edit bots' },
        { name: 'ratings', description: 'leaderboards and rating history' },
        { name: 'matches', description: 'start, list, watch and download matches' },
        { name: 'contests', description: 'contests: entries, the freeze, the final, results and archives' },
      ],
      components: {
        securitySchemes: {
          owner: { type: 'http', scheme: 'bearer', description: "a bot's owner token (shown once at registration), or the admin token" },
          admin: { type: 'http', scheme: 'bearer', description: "the admin token (the server's BOTARENA_ADMIN_TOKEN): an organiser's" },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // Liveness: the process answers (a load balancer's or an orchestrator's restart check). Readiness: whether it can
  // do its work now, its store and its queue answering; 503 naming what is away takes the node out of rotation.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true, version: BOTARENA_VERSION, ...o.health?.() }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const reasons = (await o.ready?.()) ?? [];
    void reply.header('cache-control', 'no-store');
    return reasons.length ? reply.status(503).send({ ready: false, reasons }) : { ready: true };
  });
  const metrics = o.metrics;
  if (metrics)
    app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
      void reply.header('cache-control', 'no-store');
      if (!metrics.allowed(req.headers.authorization))
        return reply.status(401).send({
          error: {
            status: 401,
            code: 'unauthorized',
            message: 'this /metrics needs "Authorization: Bearer TOKEN": the --metrics-token the server was started with',
          },
        });
      const page = await metrics.page();
      return reply.type(page.contentType).send(page.body);
    });
  await app.register(gameRoutes);
  await app.register(webApp);
  for (const area of o.areas ?? []) await app.register(area);
  return app;
}
