/**
 * The hostile-bot zoo shared by its test (test/zoo.test.ts) and the soak benchmark (bench/soak.bench.ts): the
 * games a stdio bot can play, each against a built-in bot with a short config, and the misbehaviours of
 * test/fixtures/zoo/hostile.mjs with the fault kinds each may earn (a game's rules decide which step sees it).
 */
export const ZOO_GAMES: { game: string; opponent: string; config: Record<string, unknown> }[] = [
  { game: 'tictactoe', opponent: 'random', config: {} },
  { game: 'connect4', opponent: 'random', config: {} },
  { game: 'tron', opponent: 'stupid', config: { width: 12, height: 12 } },
  { game: 'battleship', opponent: 'random', config: {} },
  { game: 'lighthouses', opponent: 'random', config: { rounds: 2 } },
  { game: 'paint', opponent: 'random', config: { width: 4, height: 4, turns: 2 } },
];

export const ZOO_MODES: Record<string, string[]> = {
  silent: ['timeout'],
  late: ['timeout'],
  half: ['crash'],
  huge: ['too-large'],
  flood: ['timeout', 'bad-answer', 'illegal-move'],
  'stderr-flood': ['timeout'],
  'sigterm-proof': ['timeout'],
  escape: ['timeout'],
  crash: ['crash'],
  orphan: ['crash'],
  'bad-bytes': ['not-json'],
  deep: ['bad-answer'],
  infinity: ['bad-answer', 'illegal-move'],
};

/** The stdio spec of a zoo bot; `marker` goes on its command line (and its escapees'), to find leftovers. */
export const zooBot = (mode: string, marker: string) => `stdio:node test/fixtures/zoo/hostile.mjs ${mode} ${marker}`;
