// The game API, as one import: a game's definition and its groups (definition.ts), the parts it is made of
// (game-parts.ts), faults, moves and outcomes (moves.ts), the seat/ask vocabulary (decision.ts), the JSON
// wire and dialects (dialect.ts), and the quoting of values in messages (describe.ts).
export * from './definition.js';
export * from './game-parts.js';
export * from './moves.js';
export * from './decision.js';
export * from './dialect.js';
export * from './describe.js';
