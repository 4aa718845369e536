// Ratings of finished matches, shared by `botarena rate`, the tournament runner and the server: one outcome
// shape and its readers, the botsarena ELO ladder, and OpenSkill.
export {
  MAX_RATED_PLAYERS,
  MAX_RESULT_LINE_CHARS,
  nameResults,
  outcomeFromJsonResult,
  outcomeFromReplay,
  readOutcomes,
  RESULTS_EXPECTED,
  type MatchOutcome,
  type NameResult,
  type RatedPlayer,
} from './results.js';
export { ELO_START, eloDuels, eloK, EloLadder, eloMargin, expectedScore, type Duel, type EloRow, type PairRecord } from './elo.js';
export { SkillLadder, type SkillRow } from './openskill.js';
