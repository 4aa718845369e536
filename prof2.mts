import { playBuiltins } from './src/core/self-play.ts';
import { getGame } from './src/games/index.ts';
const g = getGame('paint');
const t0 = performance.now(); let games = 0;
while (performance.now() - t0 < 5000) playBuiltins(g, ['random','random','random','random'], games++, { config: { width: 60, height: 60, turns: 400 } });
