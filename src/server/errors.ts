import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { FULL_RETRY_AFTER_S, StoreError, StoreFullError } from '../store/errors.js';
import { ApiError } from '../core/request-errors.js';
import { NAME_RULE } from '../api/index.js';

// Every error the API sends has one shape: `{ "error": { "status", "code", "message" } }`, the message a
// sentence a person can act on (what was wrong, where, what is expected). Handlers and the application layer
// throw ApiError (core/request-errors.ts); schema validation failures and Fastify's own errors are turned into
// the same shape by `errorHandler`.
export { ApiError, badRequest, conflict, forbidden, notFound, unauthorized } from '../core/request-errors.js';

/** The patterns the API's schemas use, in words: a refusal says what a field may hold, not a regular expression. */
const PATTERN_WORDS: Record<string, string> = { [NAME_RULE.pattern]: NAME_RULE.words };

/** The value at a validation error's path in the request part it names (body, querystring, params), for "got …". */
function valueAt(req: FastifyRequest, context: string | undefined, path: string): unknown {
  const part = context === 'querystring' ? req.query : context === 'params' ? req.params : context === 'headers' ? undefined : req.body;
  let v: unknown = part;
  for (const key of path.split('/').slice(1))
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return v;
}

/** A value as a refusal quotes it: JSON, cut short. */
const quoted = (v: unknown): string => (v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v)).slice(0, 80));

/**
 * Validation errors, read as a person would say them: "body.name: must be at most 64 characters",
 * "querystring.system: must be one of elo, openskill, got "x"". A choice among constants (a union of literals,
 * which the schema validator reports as one failed `const` per choice and a failed `anyOf`) is said once.
 */
function validationMessage(err: FastifyError, req: FastifyRequest): string {
  const errors = err.validation ?? [];
  const where = (path: string) => `${err.validationContext ?? 'request'}${path ? path.replace(/\//g, '.') : ''}`;
  const choices = new Map<string, unknown[]>();
  for (const v of errors) {
    const p = v.params as Record<string, unknown>;
    if (v.keyword === 'const') choices.set(v.instancePath, [...(choices.get(v.instancePath) ?? []), p.allowedValue]);
    if (v.keyword === 'enum' && Array.isArray(p.allowedValues)) choices.set(v.instancePath, [...(choices.get(v.instancePath) ?? []), ...p.allowedValues]);
  }
  const said = new Set<string>();
  const parts = errors.flatMap((v) => {
    const at = where(v.instancePath);
    const p = v.params as Record<string, unknown>;
    const oneOf = choices.get(v.instancePath);
    if (oneOf && (v.keyword === 'const' || v.keyword === 'enum' || v.keyword === 'anyOf')) {
      if (said.has(v.instancePath)) return [];
      said.add(v.instancePath);
      return [`${at}: must be one of ${oneOf.map((c) => String(c)).join(', ')}, got ${quoted(valueAt(req, err.validationContext, v.instancePath))}`];
    }
    if (v.keyword === 'required') return [`${at}: the field "${String(p.missingProperty)}" is missing`];
    if (v.keyword === 'additionalProperties') return [`${at}: unknown field "${String(p.additionalProperty)}"`];
    if (v.keyword === 'maxLength') return [`${at}: must be at most ${String(p.limit)} characters`];
    if (v.keyword === 'minLength') return [`${at}: must be at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`];
    if (v.keyword === 'pattern')
      return [
        `${at}: ${PATTERN_WORDS[String(p.pattern)] ?? 'is not in the form this field takes'}, got ${quoted(valueAt(req, err.validationContext, v.instancePath))}`,
      ];
    if (v.keyword === 'type')
      return [
        `${at}: must be ${/^[aeiou]/.test(String(p.type)) ? 'an' : 'a'} ${String(p.type)}, got ${quoted(valueAt(req, err.validationContext, v.instancePath))}`,
      ];
    return [`${at}: ${v.message ?? 'is not valid'}`];
  });
  return parts.slice(0, 5).join('; ') || err.message;
}

/** The API's error code for a status that Fastify (not a route) answered: one word per kind, as the routes' own. */
function codeOf(status: number): string {
  if (status === 400) return 'bad-request';
  if (status === 404) return 'not-found';
  if (status === 413) return 'too-large';
  if (status === 415) return 'unsupported-media-type';
  if (status === 429) return 'rate-limited';
  return status >= 500 ? 'internal' : 'error';
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
    void reply.status(status).send({ error: { status, code: err.kind === 'invalid' ? 'bad-request' : err.kind, message: err.message } });
    return;
  }
  if (err.validation) {
    void reply.status(400).send({ error: { status: 400, code: 'bad-request', message: validationMessage(err, req) } });
    return;
  }
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
  if (status >= 500) req.log.error({ err }, 'request failed');
  const message =
    err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? `the request body is larger than the ${Math.round(req.routeOptions.bodyLimit! / 1024)} KiB this endpoint accepts`
      : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? `this endpoint takes a JSON body (Content-Type: application/json), not ${req.headers['content-type'] ?? 'none'}`
        : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'the request body is empty, and this endpoint takes a JSON body (or send no Content-Type: application/json)'
          : err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
            ? `the request body is not valid JSON: ${err.message}`
            : status >= 500
              ? 'the server failed to answer this request; it was logged'
              : err.message;
  void reply.status(status).send({ error: { status, code: codeOf(status), message } });
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
