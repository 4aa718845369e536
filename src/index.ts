export * from './core/index.js';
export * from './bots/index.js';
export { runMatch, MatchCancelledError } from './arena/run-match.js';
export type { RunMatchOptions, MatchEvent, MatchReport, SeatOptions, SeatTiming } from './arena/run-match.js';
export { games, getGame } from './games/index.js';
