#!/usr/bin/env node
// A Paint starter bot for Botarena over <%over%>, in plain Node (standard library only).
// Greedy: each turn, the walk or shot that paints the most squares not yet of its colour.
// Run: <%run-line%>

/** @typedef {[number, number]} Square     `[row, column]`, row 0 at the top */
/** @typedef {[number, number]} Direction  `[di, dj]`, each -1, 0 or 1, not [0, 0] */
/**
 * The hello, sent once. Answer `{"ready": true}` within 5 s.
 * @typedef {{player_id: string}} HelloMessage  your id, also your colour in `colors`
 */
/**
 * The state, sent to every player at once each turn. Answer within 500 ms.
 * @typedef {object} StateMessage
 * @property {number} width                              <%doc:turn.width%>
 * @property {number} height                             <%doc:turn.height%>
 * @property {Record<string, Square>} player_positions   <%doc:turn.player_positions%>
 * @property {(string | null)[][]} colors                <%doc:turn.colors%>
 * @property {Record<string, {type: 'walk' | 'shoot', direction: Direction}>[]} previous_actions <%doc:turn.previous_actions%>
 * @property {number} turns_left                         <%doc:turn.turns_left%>
 * @property {Square[]} [obstacles]                      <%doc:turn.obstacles%>
 */
/** @typedef {HelloMessage | StateMessage} Message */
/** @typedef {{turns_left: number, type: 'walk' | 'shoot', direction: Direction}} Move */

export const DIRECTIONS = /** @type {Direction[]} */ ([[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]);

/** What the bot remembers from the hello: its id. */
export const memory = { id: '' };

/**
 * Chooses this turn's move: the walk or shot that paints the most squares not yet ours.
 * @param {StateMessage} state
 * @param {string} id   my player id
 * @returns {Move}
 */
export function chooseMove(state, id) {
  const { width, height, colors } = state;
  const blocked = new Set((state.obstacles ?? []).map(([i, j]) => `${i},${j}`));
  const inside = (i, j) => i >= 0 && j >= 0 && i < height && j < width && !blocked.has(`${i},${j}`);
  const avatars = new Set(Object.values(state.player_positions).map(([i, j]) => `${i},${j}`));
  const [mi, mj] = state.player_positions[id];
  // ---- YOUR STRATEGY GOES HERE ----------------------------------------------------------------
  /** @type {{type: 'walk' | 'shoot', direction: Direction}} */
  let best = { type: 'walk', direction: DIRECTIONS[0] };
  let bestGain = -1;
  for (const [di, dj] of DIRECTIONS) {
    // Walking paints the square walked onto (if nobody stands there).
    const [wi, wj] = [mi + di, mj + dj];
    if (inside(wi, wj) && !avatars.has(`${wi},${wj}`)) {
      const gain = colors[wi][wj] === id ? 0 : 1;
      if (gain > bestGain) [best, bestGain] = [{ type: 'walk', direction: [di, dj] }, gain];
    }
    // A shot reaches max(1, n - 1) squares, n being our unbroken trail behind us (our square included).
    let trail = 0;
    for (let i = mi, j = mj; inside(i, j) && colors[i][j] === id; i -= di, j -= dj) trail++;
    let gain = 0;
    for (let k = 1, i = wi, j = wj; k <= Math.max(1, trail - 1) && inside(i, j) && !avatars.has(`${i},${j}`); k++, i += di, j += dj) {
      if (colors[i][j] !== id) gain++;
    }
    if (gain > bestGain) [best, bestGain] = [{ type: 'shoot', direction: [di, dj] }, gain];
  }
  return { turns_left: state.turns_left, ...best };
}

/**
 * The answer to any message: `{"ready":true}` to the hello, a move (with `turns_left` copied) to a state.
 * @param {Message} message
 * @returns {{ready: true} | Move}
 */
export function answer(message) {
  if ('player_id' in message) {
    memory.id = message.player_id;
    console.error(`hello: I am ${memory.id}`); // stderr: the arena's log, not the wire
    return { ready: true };
  }
  return chooseMove(message, memory.id);
}
