import type { AnyGame, AskPhase } from '../core/game.js';
import { exampleBot, examplesAt, type ExampleAt } from '../arena/game-page.js';

// The game pages in docs/games/ carry real messages: each `<!-- example: phase=… turn=… -->` … `<!-- /example -->`
// block is filled (by `npm run docs`) with what the game sends at that point of a match between its built-in
// bots and the answer one gave, and a test fails when a committed block no longer matches.

const BLOCK = /<!-- example: ([^>]*?) -->\n[\s\S]*?<!-- \/example -->/g;

/** Reads a marker's `phase=play turn=3`; throws naming the marker when it is not one. */
function readMarker(text: string): ExampleAt {
  const fields = Object.fromEntries(
    text
      .trim()
      .split(/\s+/)
      .map((kv) => kv.split('=') as [string, string]),
  );
  const phase = fields.phase;
  if (phase !== 'init' && phase !== 'play') throw new Error(`example marker "${text}": phase must be init or play`);
  const turn = fields.turn === undefined ? undefined : Number(fields.turn);
  if (turn !== undefined && !Number.isInteger(turn)) throw new Error(`example marker "${text}": turn must be a whole number`);
  const unknown = Object.keys(fields).filter((k) => k !== 'phase' && k !== 'turn');
  if (unknown.length) throw new Error(`example marker "${text}": unknown ${unknown.join(', ')} (phase=init|play, turn=N)`);
  return { phase: phase as AskPhase, turn };
}

/** The page with every example block filled from a match played now; throws naming a block it cannot fill. */
export function fillExamples(page: string, game: AnyGame): string {
  const markers = [...page.matchAll(BLOCK)].map((m) => m[1]!);
  const examples = examplesAt(game, markers.map(readMarker));
  const fence = game.wire.defaultDialect && game.wire.defaultDialect !== 'json' ? 'text' : 'json';
  const bot = exampleBot(game);
  let k = 0;
  return page.replace(BLOCK, (_, marker: string) => {
    const e = examples[k++];
    if (!e) throw new Error(`${game.id}: the example "${marker}" never happens in a match of built-in bots (default config, seed 1)`);
    const when = e.phase === 'init' ? 'the hello' : `turn ${e.turn}`;
    return [
      `<!-- example: ${marker} -->`,
      `What your bot receives at ${when} (a real message: \`${bot}\` bots, default config, seed 1):`,
      '',
      '```' + fence,
      e.message,
      '```',
      '',
      `and the answer the built-in \`${bot}\` gave:`,
      '',
      '```' + fence,
      e.answer,
      '```',
      '<!-- /example -->',
    ].join('\n');
  });
}
