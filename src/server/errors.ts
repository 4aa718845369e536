import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { FULL_RETRY_AFTER_S, StoreError, StoreFullError } from '../store/errors.js';
import { ApiError } from '../core/request-errors.js';

// Every error the API sends has one shape: `{ "error": { "status", "code", "message" } }`, the message a
// sentence a person can act on (what was wrong, where, what is expected). Handlers and the application layer
// throw ApiError (core/request-errors.ts); schema validation failures and Fastify's own errors are turned into
// the same shape by `errorHandler`.
export { ApiError, badRequest, conflict, forbidden, notFound, unauthorized } from '../core/request-errors.js';

/** Validation errors, read as a person would say them: "body.name: must be at most 64 characters". */
function validationMessage(err: FastifyError): string {
  const parts = (err.validation ?? []).slice(0, 5).map((v) => {
    const where = `${err.validationContext ?? 'request'}${v.instancePath ? v.instancePath.replace(/\//g, '.') : ''}`;
    const p = v.params as Record<string, unknown>;
    if (v.keyword === 'required') return `${where}: the field "${String(p.missingProperty)}" is missing`;
    if (v.keyword === 'additionalProperties') return `${where}: unknown field "${String(p.additionalProperty)}"`;
    if (v.keyword === 'maxLength') return `${where}: must be at most ${String(p.limit)} characters`;
    if (v.keyword === 'minLength') return `${where}: must be at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`;
    return `${where}: ${v.message ?? 'is not valid'}`;
  });
  return parts.join('; ') || err.message;
}

/**
 * The replies whose failure was said in the log already, once for all its kind (a full disk: the store says
 * it when it starts and when it ends): the request's own line is at debug, not an error line per request.
 */
export const saidOnce = new WeakSet<FastifyReply>();

export function errorHandler(err: FastifyError | ApiError | StoreError, req: FastifyRequest, reply: FastifyReply): void {
  if (err instanceof ApiError) {
    // A throttle's refusal says when to try again (registry/throttle.ts).
    const retryAfterS = (err as { retryAfterS?: unknown }).retryAfterS;
    if (typeof retryAfterS === 'number') void reply.header('retry-after', String(retryAfterS));
    void reply.status(err.status).send({ error: { status: err.status, code: err.code, message: err.message } });
    return;
  }
  if (err instanceof StoreFullError) {
    // The store said it in the log once (store/guard.ts); a line per refused request would repeat it.
    req.log.debug({ err }, 'store full');
    saidOnce.add(reply);
    void reply.header('retry-after', String(FULL_RETRY_AFTER_S));
    const code = err.disk ? 'disk-full' : 'store-full';
    void reply.status(503).send({ error: { status: 503, code, message: err.message } });
    return;
  }
  if (err instanceof StoreError) {
    const status = err.kind === 'conflict' ? 409 : err.kind === 'not-found' ? 404 : err.kind === 'invalid' ? 400 : 503;
    if (status === 503) req.log.error({ err }, 'store unavailable');
    void reply.status(status).send({ error: { status, code: err.kind, message: err.message } });
    return;
  }
  if (err.validation) {
    void reply.status(400).send({ error: { status: 400, code: 'invalid-request', message: validationMessage(err) } });
    return;
  }
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
  if (status >= 500) req.log.error({ err }, 'request failed');
  const message =
    err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? `the request body is larger than the ${Math.round(req.routeOptions.bodyLimit! / 1024)} KiB this endpoint accepts`
      : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? `this endpoint takes a JSON body (Content-Type: application/json), not ${req.headers['content-type'] ?? 'none'}`
        : err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? `the request body is not valid JSON: ${err.message}`
          : status >= 500
            ? 'the server failed to answer this request; it was logged'
            : err.message;
  void reply.status(status).send({ error: { status, code: status === 429 ? 'rate-limited' : (err.code ?? 'error'), message } });
}

/**
 * Errors Fastify's router answers before any route runs (Fastify's `frameworkErrors`): a path parameter longer
 * than the router takes (414) and a URL whose percent-encoding is broken (400), in the API's one error shape.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 400;
  const message =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `the URL is too long: a part of its path is over ${req.server.initialConfig.maxParamLength ?? 100} characters (ids and names are far shorter)`
      : err.code === 'FST_ERR_BAD_URL'
        ? 'the URL is not valid: a part of its path is not valid percent-encoding (%XX)'
        : err.message;
  void reply.status(status).send({ error: { status, code: status === 414 ? 'uri-too-long' : status === 400 ? 'bad-url' : (err.code ?? 'error'), message } });
}
