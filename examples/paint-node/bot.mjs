// A paint bot for Botarena over stdio, in plain Node (no packages).
//
// `run` below does what the reference Node SDK helper did: the first line is the hello
// ({"player_id":"alice"}), answered with {"ready":true}; every later line is the game state, answered
// with the bot's move plus the state's turns_left copied in (the nonce that pairs answers with states).
import { createInterface } from 'node:readline';

function run(BotClass) {
  let bot = null;
  createInterface({ input: process.stdin, terminal: false }).on('line', (line) => {
    const msg = JSON.parse(line);
    if (!bot) {
      bot = new BotClass(msg.player_id);
      console.log(JSON.stringify({ ready: true }));
    } else {
      console.log(JSON.stringify({ turns_left: msg.turns_left, ...bot.nextMove(msg) }));
    }
  });
}

const DIRECTIONS = [
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, -1],
  [0, 1],
  [1, -1],
  [1, 0],
  [1, 1],
];

/** Greedy: the shot or walk that paints the most squares not yet ours this turn; ties at random. */
class Greedy {
  constructor(id) {
    this.id = id;
  }

  nextMove(state) {
    const { width, height, colors } = state;
    const inside = (i, j) => i >= 0 && j >= 0 && i < height && j < width;
    const avatars = new Set(Object.values(state.player_positions).map(([i, j]) => `${i},${j}`));
    const [mi, mj] = state.player_positions[this.id];
    let best = [];
    let bestGain = -1;
    const consider = (move, gain) => {
      if (gain > bestGain) [best, bestGain] = [[move], gain];
      else if (gain === bestGain) best.push(move);
    };
    for (const [di, dj] of DIRECTIONS) {
      // Walking paints the square walked onto (if nobody stands there).
      const [wi, wj] = [mi + di, mj + dj];
      if (inside(wi, wj) && !avatars.has(`${wi},${wj}`)) consider({ type: 'walk', direction: [di, dj] }, colors[wi][wj] === this.id ? 0 : 1);
      // A shot's range is our own trail behind us, minus one (at least one).
      let trail = 0;
      for (let i = mi, j = mj; inside(i, j) && colors[i][j] === this.id; i -= di, j -= dj) trail++;
      let gain = 0;
      for (let k = 1, i = mi + di, j = mj + dj; k <= Math.max(1, trail - 1) && inside(i, j) && !avatars.has(`${i},${j}`); k++, i += di, j += dj) {
        if (colors[i][j] !== this.id) gain++;
      }
      consider({ type: 'shoot', direction: [di, dj] }, gain);
    }
    return best[Math.floor(Math.random() * best.length)];
  }
}

run(Greedy);
