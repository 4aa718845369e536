/**
 * The HTTP API's schemas, one per route part (params, querystring, body, each answer), as TypeBox values with
 * their static types: the server's routes validate and serialise with them (through the TypeBox type provider)
 * and the OpenAPI document at /docs comes from them; the web app imports the types (`import type`, so nothing
 * of the server is bundled). Pure: no Node APIs; it imports nothing of the project but types.
 */
export * from './bots.js';
export * from './common.js';
export * from './contests.js';
export * from './games.js';
export * from './matches.js';
export * from './play.js';
