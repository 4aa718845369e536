// `npm run bench`: prints every benchmark table. Copy the figures into bench/RESULTS.md with the machine.
import { cpus, totalmem } from 'node:os';
import { benchEngine } from './engine.bench.js';
import { benchLighthouses, benchLighthousesStrength } from './lighthouses.bench.js';
import { benchLighthousesRules } from './lighthouses-rules.bench.js';
import { benchPaint } from './paint.bench.js';
import { benchPaintGem } from './paint-gem.bench.js';
import { benchPaintRules } from './paint-rules.bench.js';
import { benchSmartdog } from './smartdog.bench.js';
import { benchSoak } from './soak.bench.js';
import { printTable } from './stats.js';
import { benchBattleshipShots, benchStrength } from './strength.bench.js';
import { benchTransports } from './transport.bench.js';
import { benchTron } from './tron.bench.js';
import { benchTronRules } from './tron-rules.bench.js';
import { benchTronMatches } from './tron-matches.bench.js';
import { benchStartup } from './startup.bench.js';
import { benchMemory } from './memory.bench.js';
import { benchFingerprints } from './fingerprint.bench.js';
import { benchTournamentOverhead, benchTournaments } from './tournament.bench.js';
import { benchServerApi, benchServerLadder } from './server.bench.js';
import { benchClusterLadder, benchQueueOverhead } from './cluster.bench.js';
import { benchWebBundle, benchWebFirstLoad, benchWebTronReplay } from './web.bench.js';

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`);
const only = process.argv[2];
if (!only || only === 'engine') printTable('Engine: whole games, random vs random', await benchEngine());
if (!only || only === 'transport') printTable('Transport overhead per message round trip', await benchTransports());
if (!only || only === 'strength') {
  printTable('Strength: built-in strong bots against the weak ones', benchStrength());
  printTable('Battleship hunter shots', benchBattleshipShots());
}
if (!only || only === 'tron') {
  printTable('Tron rules against a hand-written loop', benchTronRules());
  printTable('Tron laps', await benchTron());
  printTable('Tron whole matches', await benchTronMatches());
}
if (!only || only === 'startup') printTable('CLI start-up', benchStartup());
if (!only || only === 'memory') printTable('Memory of long matches', benchMemory());
if (!only || only === 'fingerprint') printTable('Step fingerprints: their share of a step', benchFingerprints());
if (!only || only === 'lighthouses') {
  printTable('Lighthouses rules against a hand-written loop', benchLighthousesRules());
  printTable('Lighthouses rounds', await benchLighthouses());
  printTable('Lighthouses strength', benchLighthousesStrength());
}
if (!only || only === 'paint') {
  printTable('Paint rules against a hand-written loop', benchPaintRules());
  printTable('Paint turns', await benchPaint());
  // Against the original Ruby gem (issue 14): needs ruby and BOTARENA_MULTIPAINT_GEM; the row says so otherwise.
  printTable('Paint against the original multipaint gem', benchPaintGem());
}
if (!only || only === 'smartdog') printTable('Smart-dog turns', await benchSmartdog());
if (!only || only === 'tournament') {
  printTable('Tournaments: matches per minute at K matches at once', await benchTournaments());
  printTable('Tournament layer: cost per match', await benchTournamentOverhead());
}
if (!only || only === 'server') {
  printTable('Server: ladder matches per minute (SQLite, fresh database per row)', await benchServerLadder());
  const { fill, api } = await benchServerApi();
  printTable('Server: storing finished rated matches through the Store API', fill);
  printTable('Server: API reads under load', api);
}
// Queue mode (issue 19): worker processes on BullMQ against the in-process ladder (≈ 9 minutes; needs
// redis-server, Postgres and the built CLI). `npm run bench -- cluster`.
if (!only || only === 'cluster') {
  printTable('Queue mode: ladder matches per minute, worker processes vs in-process', await benchClusterLadder());
  printTable('Queue mode: overhead per on-demand match', await benchQueueOverhead());
}
if (!only || only === 'web') {
  printTable('Web: what the browser downloads', benchWebBundle());
  printTable('Web: first load of the home page in Chromium', await benchWebFirstLoad());
  printTable('Web: a long Tron replay in the offline player', await benchWebTronReplay());
}
// The soak is long (1 000 matches, a few minutes): only on its own, `npm run bench -- soak`.
if (only === 'soak') printTable('Soak: hostile bots mixed with built-in ones', await benchSoak());
