// Refusals of a request, for people: what was wrong, where, what to do, with the HTTP status that says its kind.
// The application layer (src/matches/, src/registry/) throws them; the server sends them as its one error shape
// (server/errors.ts). Here, below every layer, so that no layer has to import the server to refuse something.

/** A request refused: `status` (an HTTP status) and `code` say the kind, the message says what to do. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** 404: the thing asked for does not exist. */
export const notFound = (what: string) => new ApiError(404, 'not-found', what);
/** 400: the request is not valid. */
export const badRequest = (message: string) => new ApiError(400, 'bad-request', message);
/** 403: the caller may not do this. */
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
/** 401: the caller must say who they are (a token). */
export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);
/** 409: it clashes with the state of things. */
export const conflict = (message: string) => new ApiError(409, 'conflict', message);
