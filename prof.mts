import { playBuiltins } from './src/core/self-play.ts';
import { getGame } from './src/games/index.ts';
const g = getGame('paint');
for (const [bots, config] of [[['random','random'], { board: '10x10' }], [['random','random','random','random'], { width: 60, height: 60, turns: 400 }]] as const) {
const t0 = performance.now(); let games = 0, turns = 0;
while (performance.now() - t0 < 3000) turns += playBuiltins(g, [...bots], games++, { config }).records.length - 1;
const sec = (performance.now() - t0) / 1000; console.log(JSON.stringify(config), Math.round(turns / sec), 'turns/s');
}
