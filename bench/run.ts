// `npm run bench`: prints every benchmark table. Copy the figures into bench/RESULTS.md with the machine.
// Each section loads its benches when it runs: loaded up front, the server, queue and browser benches made
// this process about 190 MB instead of 48, which made every bot process it starts (a fork) slower to spawn.
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { inFreshProcesses, printRows } from './fresh.js';
import { printTable } from './stats.js';

// A child of `inFreshProcesses`: one bench's table as JSON, nothing else.
if (process.argv[2] === '--rows') {
  await printRows(process.argv[3] ?? '');
  process.exit(0);
}
/** This file as it runs (the built bench), for the benches run in fresh processes. */
const RUN = fileURLToPath(import.meta.url);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`);
const only = process.argv[2];
if (!only || only === 'engine') printTable('Engine: whole games, random vs random', await (await import('./engine.bench.js')).benchEngine());
if (!only || only === 'transport') printTable('Transport overhead per message round trip', await (await import('./transport.bench.js')).benchTransports());
if (!only || only === 'strength') {
  printTable('Strength: built-in strong bots against the weak ones', (await import('./strength.bench.js')).benchStrength());
  printTable('Battleship hunter shots', (await import('./strength.bench.js')).benchBattleshipShots());
}
if (!only || only === 'tron') {
  printTable('Tron rules against a hand-written loop', inFreshProcesses(RUN, 'tron-rules'));
  printTable('Tron laps', await (await import('./tron.bench.js')).benchTron());
  printTable('Tron whole matches', await (await import('./tron-matches.bench.js')).benchTronMatches());
}
if (!only || only === 'startup') printTable('CLI start-up', (await import('./startup.bench.js')).benchStartup());
if (!only || only === 'memory') printTable('Memory of long matches', (await import('./memory.bench.js')).benchMemory());
if (!only || only === 'fingerprint') printTable('Step fingerprints: their share of a step', (await import('./fingerprint.bench.js')).benchFingerprints());
if (!only || only === 'lighthouses') {
  printTable('Lighthouses rules against a hand-written loop', inFreshProcesses(RUN, 'lighthouses-rules'));
  printTable('Lighthouses rounds', await (await import('./lighthouses.bench.js')).benchLighthouses());
  printTable('Lighthouses strength', (await import('./lighthouses.bench.js')).benchLighthousesStrength());
}
if (!only || only === 'paint') {
  printTable('Paint rules against a hand-written loop', inFreshProcesses(RUN, 'paint-rules'));
  printTable('Paint turns', await (await import('./paint.bench.js')).benchPaint());
  // Against the original Ruby gem (issue 14): needs ruby and BOTARENA_MULTIPAINT_GEM; the row says so otherwise.
  printTable('Paint against the original multipaint gem', (await import('./paint-gem.bench.js')).benchPaintGem());
}
if (!only || only === 'smartdog') printTable('Smart-dog turns', await (await import('./smartdog.bench.js')).benchSmartdog());
if (!only || only === 'tournament') {
  printTable('Tournaments: matches per minute at K matches at once', await (await import('./tournament.bench.js')).benchTournaments());
  printTable('Tournament layer: cost per match', await (await import('./tournament.bench.js')).benchTournamentOverhead());
}
if (!only || only === 'server') {
  printTable('Server: ladder matches per minute (SQLite, fresh database per row)', await (await import('./server.bench.js')).benchServerLadder());
  const { fill, api } = await (await import('./server.bench.js')).benchServerApi();
  printTable('Server: storing finished rated matches through the Store API', fill);
  printTable('Server: API reads under load', api);
}
// Queue mode (issue 19): worker processes on BullMQ against the in-process ladder (≈ 9 minutes; needs
// redis-server, Postgres and the built CLI). `npm run bench -- cluster`.
if (!only || only === 'cluster') {
  printTable('Queue mode: ladder matches per minute, worker processes vs in-process', await (await import('./cluster.bench.js')).benchClusterLadder());
  printTable('Queue mode: overhead per on-demand match', await (await import('./cluster.bench.js')).benchQueueOverhead());
}
if (!only || only === 'web') {
  printTable('Web: what the browser downloads', (await import('./web.bench.js')).benchWebBundle());
  printTable('Web: first load of the home page in Chromium', await (await import('./web.bench.js')).benchWebFirstLoad());
  printTable('Web: a long Tron replay in the offline player', await (await import('./web.bench.js')).benchWebTronReplay());
}
// The soak is long (1 000 matches, a few minutes): only on its own, `npm run bench -- soak`.
if (only === 'soak') printTable('Soak: hostile bots mixed with built-in ones', await (await import('./soak.bench.js')).benchSoak());
