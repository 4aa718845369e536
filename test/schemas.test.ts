import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv2020, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { MatchEngine } from '../src/core/engine.js';
import { getDialect, type AnyGame, type Move } from '../src/core/game.js';
import { builtinBotSeed } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';
import { MAPS } from '../src/games/lighthouses/maps.js';
import { result } from '../src/games/lighthouses/wire.js';
import { BOARD_NAMES } from '../src/games/paint/board.js';
import type { BattleshipTurn } from '../src/games/battleship/wire.js';
import type { ConnectFourTurn } from '../src/games/connect4/wire.js';
import type { LighthousesResult, LighthousesTurn } from '../src/games/lighthouses/wire.js';
import type { PaintTurn } from '../src/games/paint/wire.js';
import type { TicTacToeTurn } from '../src/games/tictactoe/wire.js';
import type { TronTurn } from '../src/games/tron/wire.js';
import { COMMAND, ROOT, staleFiles } from '../scripts/gen-schemas.mjs';
import { streamOrder } from '../src/core/game.js';
import { SmartDogCommand, SmartDogFinished, SmartDogLandscape, SmartDogObject, SmartDogStart, SmartDogTurnState } from '../src/games/smartdog/schema.js';
import type { SmartDogState } from '../src/games/smartdog/state.js';
import { finishedLine } from '../src/games/smartdog/view.js';

/** The games whose wire is JSON, and the schema files each must have (schemas/<game>/<name>.schema.json). */
const BASIC = ['init', 'turn', 'init-answer', 'turn-answer'];
const EXPECTED: Record<string, string[]> = {
  tictactoe: BASIC,
  connect4: BASIC,
  tron: BASIC,
  battleship: BASIC,
  lighthouses: [...BASIC, 'result'],
  paint: BASIC,
};

const DIR = new URL('../schemas/', import.meta.url);
const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

interface SchemaDoc {
  $schema?: unknown;
  $id?: unknown;
  title?: unknown;
  description?: unknown;
  examples?: unknown[];
  required?: string[];
  [key: string]: unknown;
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
const docs = new Map<string, SchemaDoc>();
const validators = new Map<string, ValidateFunction>();
/** Per schema ("game/name"): how many real messages or answers it accepted, and its first one (for the wrong examples). */
const seen = new Map<string, { count: number; first: unknown }>();

/** What is worth knowing was met among the real messages and answers: each schema's variants (see `VARIETY`). */
const TAGS: Record<string, (v: unknown) => string[]> = {
  'tictactoe/turn': (v) => [`you ${(v as TicTacToeTurn).you}`],
  'connect4/turn': (v) => [`you ${(v as ConnectFourTurn).you}`],
  'tron/init': (v) => [sizeTag(v)],
  'tron/turn': (v) => [sizeTag(v), ...((v as TronTurn).board.some((t) => t.length === 0) ? ['a dead trail'] : [])],
  'battleship/turn': (v) => (v as BattleshipTurn).board.your_strikes.map((k) => `result "${k.result}"`),
  'lighthouses/turn': (v) =>
    (v as LighthousesTurn).lighthouses.flatMap((l) => [
      l.owner === null ? 'owner null' : l.owner === -1 ? 'owner -1' : 'owned',
      ...(l.have_key ? ['a key'] : []),
      ...(l.connections.length ? ['a connection'] : []),
    ]),
  'lighthouses/turn-answer': (v) => [`command ${(v as { command: string }).command}`],
  'lighthouses/result': (v) => [`success ${(v as LighthousesResult).success}`],
  'paint/turn': (v) => ['obstacles' in (v as PaintTurn) ? 'obstacles' : 'no obstacles', (v as PaintTurn).previous_actions.length ? 'history' : 'no history'],
  'paint/turn-answer': (v) => [`type ${(v as { type: string }).type}`],
};
const sizeTag = (v: unknown): string => ('width' in (v as object) ? 'sized' : 'original size');
/** The variants the matches must have shown (so the schemas met each form of the wire, not one). */
const VARIETY: Record<string, string[]> = {
  'tictactoe/turn': ['you X', 'you O'],
  'connect4/turn': ['you X', 'you O'],
  'tron/init': ['sized', 'original size'],
  'tron/turn': ['sized', 'original size', 'a dead trail'],
  'battleship/turn': ['result ""', 'result "hit"', 'result "hit and sunk"'],
  'lighthouses/turn': ['owner null', 'owner -1', 'owned', 'a key', 'a connection'],
  'lighthouses/turn-answer': ['command move', 'command attack', 'command connect'],
  // (The built-in bots' commands always succeed: failures are checked below, on commands that fail.)
  'lighthouses/result': ['success true'],
  'paint/turn': ['obstacles', 'no obstacles', 'history', 'no history'],
  'paint/turn-answer': ['type walk', 'type shoot'],
};
const met = new Map<string, Set<string>>();

// Loaded at import: a missing or broken file fails here, naming it, before any match is played.
for (const [game, names] of Object.entries(EXPECTED)) {
  for (const name of names) {
    const key = `${game}/${name}`;
    const file = new URL(`${key}.schema.json`, DIR);
    let doc: SchemaDoc;
    try {
      doc = JSON.parse(readFileSync(file, 'utf8')) as SchemaDoc;
    } catch (err) {
      throw new Error(`schemas/${key}.schema.json is missing or not JSON: ${(err as Error).message}`);
    }
    docs.set(key, doc);
    validators.set(key, ajv.compile(doc as SchemaObject));
  }
}

const preview = (v: unknown, max = 300): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
};
const explain = (errors: ErrorObject[] | null | undefined): string => `${ajv.errorsText(errors, { separator: '\n  ' })}\n  ${preview(errors, 2000)}`;

/** Whether `key`'s schema accepts `value`. */
function accepts(key: string, value: unknown): boolean {
  const v = validators.get(key);
  assert.ok(v, `no schema ${key}`);
  return v(value) as boolean;
}

/** Asserts `key`'s schema accepts `value` (a real message or answer), printing ajv's errors when it does not. */
function check(key: string, value: unknown, where: string, real = true): void {
  const v = validators.get(key)!;
  if (!v(value)) assert.fail(`${where}: schemas/${key}.schema.json refused ${preview(value)}:\n  ${explain(v.errors)}`);
  if (!real) return;
  const tags = TAGS[key]?.(value);
  if (tags) for (const tag of tags) (met.get(key) ?? met.set(key, new Set()).get(key)!).add(tag);
  const s = seen.get(key);
  if (s) s.count++;
  else seen.set(key, { count: 1, first: structuredClone(value) });
}

/** Asserts `key`'s schema refuses `value`. */
function refuse(key: string, value: unknown, why: string): void {
  assert.equal(accepts(key, value), false, `schemas/${key}.schema.json should refuse ${why}: ${preview(value)}`);
}

/** Text in, JSON out: what a bot parses. */
const wire = (text: string): unknown => JSON.parse(text);

interface MatchPlan {
  bots: string[];
  seed: number;
  config?: Record<string, unknown>;
  matchId?: string;
}

/**
 * Plays a whole match between built-in bots through the engine. At every step the first seat asked gets
 * its message as the JSON dialect writes it (at init every seat does), validated against the game's
 * init or turn schema; every bot's answer goes through JSON and is validated against the answer schema,
 * then read by the game from that JSON; lighthouses' result line after each command is validated too.
 */
function play(game: AnyGame, plan: MatchPlan): MatchEngine {
  const { bots, seed } = plan;
  const engine = new MatchEngine(game, { config: plan.config ?? {}, seed, players: bots.length });
  const json = getDialect(game, 'json');
  const players = bots.map((name, slot) =>
    game.bots[name]!.create({ slot, players: bots.length, config: engine.config, seed: builtinBotSeed(seed, name, slot) }),
  );
  const label = `${game.id} ${bots.join(' v ')} seed ${seed}${plan.config ? ` ${JSON.stringify(plan.config)}` : ''}`;
  for (let d = engine.decision(); d; d = engine.decision()) {
    const decision = d;
    const ctx = { phase: decision.phase, matchId: plan.matchId ?? 'm', names: bots };
    const kind = decision.phase === 'init' ? 'init' : 'turn';
    const where = `${label}, turn ${decision.turn}`;
    const shown = decision.phase === 'init' ? decision.seats : decision.seats.slice(0, 1);
    for (const slot of shown) check(`${game.id}/${kind}`, wire(json.encode(engine.state, slot, ctx)), `${where}, message to slot ${slot}`);
    const moves = decision.seats.map((slot): Move<unknown> => {
      const answer = wire(JSON.stringify(players[slot]!.act(engine.view(slot, ctx), decision.phase)));
      check(`${game.id}/${kind}-answer`, answer, `${where}, answer of slot ${slot}`);
      const read = engine.parse(slot, decision.phase, answer);
      assert.ok(read.ok, `${where}: the schema accepted slot ${slot}'s answer ${preview(answer)} but the game did not: ${read.ok ? '' : read.detail}`);
      return engine.judge(slot, decision.phase, read);
    });
    engine.commit(decision, moves);
    if (decision.phase === 'play' && game.wire.ack) {
      for (const m of moves) {
        const note = game.wire.ack(m, engine.state);
        if (note !== undefined) check(`${game.id}/result`, wire(JSON.stringify(note)), `${where}, result for slot ${m.slot}`);
      }
    }
  }
  return engine;
}

/** The engine at the first play decision, the hellos answered by the game's first built-in bot. */
function atFirstTurn(game: AnyGame, config: Record<string, unknown> = {}): MatchEngine {
  const players = Math.max(2, game.players.min);
  const engine = new MatchEngine(game, { config, seed: 5, players });
  const name = Object.keys(game.bots)[0]!;
  const bots = Array.from({ length: players }, (_, slot) => game.bots[name]!.create({ slot, players, config: engine.config, seed: slot }));
  for (let d = engine.decision(); d && d.phase === 'init'; d = engine.decision()) {
    const decision = d;
    const ctx = { phase: decision.phase, matchId: 'm', names: bots.map(() => name) };
    engine.commit(
      decision,
      decision.seats.map((slot) => engine.read(slot, decision.phase, bots[slot]!.act(engine.view(slot, ctx), decision.phase))),
    );
  }
  assert.equal(engine.decision()?.phase, 'play');
  return engine;
}

/**
 * Asserts the schema `key` and the game's own reader agree on each answer: accepted by both or by neither.
 * `phase` says which reader (the hello's or the turn's).
 */
function agree(key: string, engine: MatchEngine, phase: 'init' | 'play', answers: unknown[]): void {
  const slot = engine.decision()?.seats[0] ?? 0;
  for (const answer of answers) {
    const read = engine.parse(slot, phase, answer);
    const schema = accepts(key, answer);
    assert.equal(
      schema,
      read.ok,
      `schemas/${key}.schema.json ${schema ? 'accepts' : 'refuses'} ${preview(answer)} but the game ${read.ok ? 'accepts it' : `refuses it (${read.detail})`}`,
    );
  }
}

describe('wire schemas', () => {
  it('are one draft 2020-12 file per message and answer, each with its $id, title and description', () => {
    for (const [key, doc] of docs) {
      assert.equal(doc.$schema, DRAFT, `${key}: $schema`);
      assert.equal(doc.$id, `https://botarena.dev/schemas/${key}.schema.json`, `${key}: $id`);
      assert.ok(typeof doc.title === 'string' && doc.title.length > 5, `${key}: a title`);
      assert.ok(typeof doc.description === 'string' && doc.description.length > 40, `${key}: a description in plain words`);
      for (const example of doc.examples ?? []) check(key, example, `${key}'s own example`, false);
    }
    // Nothing else in the folder: a schema for a game or message the test does not know would go unchecked.
    const onDisk = readdirSync(DIR).flatMap((entry) =>
      statSync(new URL(entry, DIR)).isDirectory() ? readdirSync(new URL(`${entry}/`, DIR)).map((f) => `${entry}/${f}`) : [],
    );
    const known = Object.entries(EXPECTED).flatMap(([game, names]) => names.map((n) => `${game}/${n}.schema.json`));
    assert.deepEqual(onDisk.sort(), known.sort());
    assert.ok(readFileSync(new URL('README.md', DIR), 'utf8').length > 0);
  });

  it("are current: each is what `npm run generate` writes from the TypeBox values in src/games/*/schema.ts, and so is the SDK's src/sdk/messages.ts", async () => {
    const stale = await staleFiles();
    assert.deepEqual(stale, [], stale.map((path) => `${path} is not current: run \`${COMMAND}\``).join('\n'));
  });

  it('a generated file edited by hand, or a schema file no value generates, is named as not current', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'botarena-schemas-'));
    try {
      cpSync(join(ROOT, 'schemas'), join(copy, 'schemas'), { recursive: true });
      cpSync(join(ROOT, 'src/sdk'), join(copy, 'src/sdk'), { recursive: true });
      assert.deepEqual(await staleFiles(copy), []);
      const turn = join(copy, 'schemas/tron/turn.schema.json');
      writeFileSync(turn, readFileSync(turn, 'utf8').replace('"maxItems": 12', '"maxItems": 16'));
      writeFileSync(join(copy, 'schemas/tron/lap.schema.json'), '{}');
      rmSync(join(copy, 'src/sdk/messages.ts'));
      assert.deepEqual((await staleFiles(copy)).sort(), ['schemas/tron/lap.schema.json', 'schemas/tron/turn.schema.json', 'src/sdk/messages.ts']);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('tic-tac-toe: every message and answer of real matches validates', () => {
    const game = getGame('tictactoe');
    for (let seed = 1; seed <= 6; seed++) play(game, { bots: ['random', 'random'], seed });
    play(game, { bots: ['minimax', 'random'], seed: 7 });
    play(game, { bots: ['random', 'minimax'], seed: 8 });
    play(game, { bots: ['minimax', 'minimax'], seed: 9, config: { board: 'X.O/.X./...' } });
  });

  it('Connect Four: every message and answer of real matches validates', () => {
    const game = getGame('connect4');
    for (let seed = 1; seed <= 5; seed++) play(game, { bots: ['random', 'random'], seed });
    play(game, { bots: ['minimax', 'random'], seed: 6 });
    play(game, { bots: ['random', 'minimax'], seed: 7 });
  });

  it('Tron: every message and answer validates, on the original grid and off it', () => {
    const game = getGame('tron');
    play(game, { bots: ['stupid', 'random'], seed: 1 });
    play(game, { bots: ['voronoi', 'random', 'stupid'], seed: 2 });
    play(game, { bots: ['random', 'stupid', 'voronoi', 'random'], seed: 3, config: { width: 20, height: 12 } });
    play(game, { bots: ['voronoi', 'voronoi'], seed: 4, config: { width: 100, height: 30 } });
    play(game, { bots: Array.from({ length: 12 }, (_, i) => ['random', 'stupid', 'voronoi'][i % 3]!), seed: 5, config: { width: 16, height: 16 } });
    const sized = seen.get('tron/turn');
    assert.ok(sized && sized.count > 100, 'Tron matches played many laps');
  });

  it('Battleship: every message and answer of the JSON dialect validates', () => {
    const game = getGame('battleship');
    play(game, { bots: ['random', 'hunter'], seed: 1 });
    play(game, { bots: ['hunter', 'random'], seed: 2, matchId: '202409170001' });
    play(game, { bots: ['hunter', 'hunter'], seed: 3 });
    play(game, { bots: ['random', 'random'], seed: 4, config: { width: 6, height: 4, ship1: 1, ship2: 1, ship3: 1, ship4: 0, ship5: 0 } });
    play(game, { bots: ['hunter', 'hunter'], seed: 5, config: { width: 100, height: 7, ship6: 2, maxTurns: 40 } });
  });

  it('lighthouses: every message, answer and result validates, on each shipped map', () => {
    const game = getGame('lighthouses');
    const seats: Record<string, number> = { islet: 2, bay: 4, cross: 3, continent: 8 };
    let seed = 1;
    for (const map of Object.keys(MAPS)) {
      const n = seats[map] ?? 2;
      play(game, { bots: Array.from({ length: n }, (_, i) => (i % 2 ? 'random' : 'planner')), seed: seed++, config: { map, rounds: 60 } });
    }
    play(game, { bots: ['planner', 'random'], seed: 9, config: { map: 'bay', rounds: 80, neutral: 'null' } });
    assert.ok((seen.get('lighthouses/result')?.count ?? 0) > 100);
  });

  it('paint: every message and answer validates, on a plain board, with obstacles and on the shipped boards', () => {
    const game = getGame('paint');
    play(game, { bots: ['random', 'painter'], seed: 1 });
    play(game, { bots: ['painter', 'random', 'painter'], seed: 2, config: { width: 15, height: 8, obstacles: 12, turns: 60 } });
    for (const [k, board] of BOARD_NAMES.entries()) play(game, { bots: ['painter', 'random'], seed: 10 + k, config: { board, turns: 30 } });
  });

  it('every schema validated real messages or answers', () => {
    // (The matches above must run first: node:test runs a file's tests in order.)
    for (const key of docs.keys()) assert.ok((seen.get(key)?.count ?? 0) > 1, `schemas/${key}.schema.json was used on no real message or answer`);
    for (const [key, tags] of Object.entries(VARIETY)) {
      for (const tag of tags) assert.ok(met.get(key)?.has(tag), `no real ${key} message or answer had ${tag} (met: ${[...(met.get(key) ?? [])].join(', ')})`);
    }
  });

  it('refuses messages the arena would never send: a missing field, a wrong constant, an extra field', () => {
    const sample = (key: string): Record<string, unknown> => {
      const s = seen.get(key);
      assert.ok(s, `no real ${key} message was seen`);
      return structuredClone(s.first) as Record<string, unknown>;
    };
    const messages = [...docs.keys()].filter((k) => !k.endsWith('answer'));
    for (const key of messages) {
      const doc = docs.get(key)!;
      const real = sample(key);
      assert.ok(accepts(key, real));
      for (const field of doc.required ?? []) {
        const broken = sample(key);
        delete broken[field];
        refuse(key, broken, `a message without "${field}"`);
      }
      refuse(key, { ...real, surprise: 1 }, 'an extra field');
      refuse(key, [real], 'an array');
    }
    const wrong = (key: string, change: Record<string, unknown>, why: string) => refuse(key, { ...sample(key), ...change }, why);
    wrong('tictactoe/init', { action: 'play-turn' }, 'the wrong action');
    wrong('tictactoe/init', { game: 'TicTacToe' }, 'the wrong game name');
    wrong('tictactoe/turn', { you: 'O', 'player-index': 0 }, 'X played by seat 1');
    wrong('tictactoe/turn', { board: { ...(sample('tictactoe/turn').board as object), '3-3': '' } }, 'a tenth cell');
    wrong('connect4/init', { game: 'connect4' }, "the arena's id instead of the wire's game name");
    wrong('connect4/turn', { board: [] }, 'an empty board');
    wrong('connect4/turn', { players: 3 }, 'three players');
    wrong('tron/init', { width: 100, height: 100 }, 'the size of the original grid');
    wrong('tron/init', { width: 50 }, 'a width without a height');
    wrong('tron/turn', { board: [[[1, 2, 3]], []] }, 'a cell of three numbers');
    wrong('tron/turn', { action: 'init' }, 'the wrong action');
    wrong('battleship/init', { game: 'Battleship' }, 'the capital B of turn messages in the hello');
    wrong('battleship/turn', { game: 'battleship' }, 'a small b in a turn message');
    wrong('battleship/turn', { players: 2 }, 'a players field, which turn messages lack');
    wrong('battleship/init', { 'game-id': 'm' }, 'a text game-id');
    wrong(
      'battleship/turn',
      { board: { ...(sample('battleship/turn').board as object), your_strikes: [{ target: '1,1', result: 'miss' }] } },
      'an unknown strike result',
    );
    const strikes = (list: unknown[]) => ({ board: { ...(sample('battleship/turn').board as object), his_strikes: list } });
    wrong('battleship/turn', strikes([{ target: '1,1', result: 'hit sunk and win' }]), 'the winning shot, after which no message is sent');
    wrong('battleship/turn', strikes([{ target: '1, 1', result: 'hit' }]), 'a target with a space');
    wrong(
      'lighthouses/init',
      {
        map: [
          [0, 2, 0],
          [0, 1, 0],
          [0, 0, 0],
        ],
      },
      'a map cell that is neither 0 nor 1',
    );
    wrong('lighthouses/turn', { view: [[0]] }, 'a view that is not 7×7');
    const lighthouse = (sample('lighthouses/turn').lighthouses as Record<string, unknown>[])[0]!;
    wrong('lighthouses/turn', { lighthouses: [{ ...lighthouse, owner: -2 }] }, 'an owner below -1');
    wrong('lighthouses/turn', { lighthouses: [{ ...lighthouse, owner: '0' }] }, 'an owner as text');
    assert.ok(
      accepts('lighthouses/turn', { ...sample('lighthouses/turn'), lighthouses: [{ ...lighthouse, owner: null, energy: 0 }] }),
      'a neutral owner may be null',
    );
    refuse('lighthouses/result', { success: true, message: 'ok' }, 'a message on success');
    refuse('lighthouses/result', { success: false }, 'a failure without a message');
    refuse('lighthouses/result', { success: 'yes' }, 'a success that is not a boolean');
    wrong('paint/init', { player_id: 3 }, 'a numeric player id');
    wrong('paint/turn', { obstacles: [] }, 'an empty obstacles list (it is left out instead)');
    wrong('paint/turn', { previous_actions: [{ alice: { type: 'walk', direction: [0, 0] } }] }, 'an action with no direction');
    wrong('paint/turn', { turns_left: 0 }, 'a turn with no turns left');
    // The result line for each kind of failed command, as the game writes it.
    for (const fault of [
      { kind: 'not-json', detail: 'x' },
      { kind: 'timeout', detail: 'x' },
      { kind: 'illegal-move', detail: 'Target pos is not in island' },
    ] as const) {
      check('lighthouses/result', wire(JSON.stringify(result({ slot: 0, fault }))), `the result of a ${fault.kind} fault`);
    }
  });

  it('answer schemas accept exactly what the games read', () => {
    const ttt = atFirstTurn(getGame('tictactoe'));
    agree('tictactoe/turn-answer', ttt, 'play', [
      { play: '0-0' },
      { play: '2-2', note: 'extra fields are ignored' },
      { play: '3-3' },
      { play: '1-1 ' },
      { play: 4 },
      { Play: '1-1' },
      {},
      [],
      '1-1',
      null,
    ]);

    const c4 = atFirstTurn(getGame('connect4'));
    const c4answers = [
      { play: 0 },
      { play: 6 },
      { play: '3' },
      { play: 3, why: 'centre' },
      wire('{"play":3.0}'),
      { play: 7 },
      { play: -1 },
      { play: '03' },
      { play: ' 3' },
    ];
    agree('connect4/turn-answer', c4, 'play', [...c4answers, { play: '3.0' }, { play: '-1' }, { play: 1.5 }, { play: true }, { play: null }, {}, [3], 3]);

    const tron = atFirstTurn(getGame('tron'));
    agree('tron/turn-answer', tron, 'play', [{ play: 'x+' }, { play: 'y-' }, { play: 'X+' }, { play: ' x+' }, { play: 'up' }, {}, null, 'x+']);

    const bs = new MatchEngine(getGame('battleship'), { config: {}, seed: 1, players: 2 });
    agree('battleship/init-answer', bs, 'init', [
      { name: 'a', boats: ['0,0-0,1', '2,2-4,2'] },
      { boats: [] },
      { name: 'a' },
      { boats: '0,0-0,1' },
      { boats: ['0,0'] },
      { boats: ['00,0-0,1'] },
      { boats: [[0, 0, 0, 1]] },
      [],
    ]);
    agree('battleship/turn-answer', atFirstTurn(getGame('battleship')), 'play', [
      { play: '0,0' },
      { play: '9,12' },
      { play: '04,4' },
      { play: '-1,2' },
      { play: ' 1,2' },
      { play: [1, 2] },
      { play: '1,2,3' },
      {},
    ]);

    const lh = new MatchEngine(getGame('lighthouses'), { config: {}, seed: 1, players: 2 });
    agree('lighthouses/init-answer', lh, 'init', [{ name: 'x' }, { name: '' }, { name: 'x', version: 2 }, { name: 3 }, {}, 'x', null]);

    const paint = atFirstTurn(getGame('paint'));
    agree('paint/init-answer', new MatchEngine(getGame('paint'), { config: {}, seed: 1, players: 2 }), 'init', [
      { ready: true },
      { ready: true, name: 'x' },
      { ready: 'true' },
      { ready: 1 },
      {},
      true,
    ]);
    const t = (paint.view(0, { phase: 'play', matchId: 'm', names: [] }) as { turns_left: number }).turns_left;
    const go = (direction: unknown, type: unknown = 'walk') => ({ turns_left: t, type, direction });
    agree('paint/turn-answer', paint, 'play', [
      go([0, 1]),
      go([-1, -1], 'shoot'),
      go(['1', ' -1 ']),
      go(['+01', 0]),
      go([0.9, 1]),
      go([-1.5, 0]),
      go([1, '0']),
      { ...go([1, 1]), note: 'ignored' },
      go([0, 0]),
      go([0.5, -0.5]),
      go(['0', '-0']),
      go([2, 0]),
      go(['2', 0]),
      go(['1.0', 0]),
      go(['x', 1]),
      go([1]),
      go([1, 1, 1]),
      go([null, 1]),
      go([0, 1], 'run'),
      { type: 'walk', direction: [0, 1] },
    ]);
    // What the schema cannot check: the echo must be this turn's number.
    assert.ok(accepts('paint/turn-answer', { ...go([0, 1]), turns_left: t + 1 }));
    assert.equal(paint.parse(0, 'play', { ...go([0, 1]), turns_left: t + 1 }).ok, false);
  });

  it('refuses lighthouses commands that could never succeed, which the game reads but answers with a failure', () => {
    const game = getGame('lighthouses');
    const engine = atFirstTurn(game);
    const slot = engine.decision()!.seats[0]!;
    for (const command of [
      { command: 'jump' },
      { command: 'move', x: 1 },
      { command: 'move', x: 2, y: 0 },
      { command: 'move', x: 0.5, y: 0 },
      { command: 'attack' },
      { command: 'attack', energy: 1.5 },
      { command: 'attack', energy: -1 },
      { command: 'connect' },
      { command: 'connect', destination: 3 },
      { command: 'connect', destination: [1, 2, 3] },
      { command: 'connect', destination: [[1, 2]] },
    ]) {
      refuse('lighthouses/turn-answer', command, 'a malformed command');
      const move = engine.read(slot, 'play', command);
      assert.ok(move.fault, `the game accepted ${preview(command)}`);
      check('lighthouses/result', wire(JSON.stringify(game.wire.ack!(move, engine.state))), `the result of ${preview(command)}`);
    }
    refuse('lighthouses/turn-answer', {}, 'an object without a command');
    refuse('lighthouses/turn-answer', 'pass', 'a bare word');
    for (const command of [{ command: 'pass' }, { command: 'move', x: 0, y: 0 }, { command: 'attack', energy: 0 }, { command: 'pass', x: 9 }]) {
      assert.ok(accepts('lighthouses/turn-answer', command), preview(command));
    }
  });

  it('init answers the game ignores accept any JSON value', () => {
    for (const key of ['tictactoe/init-answer', 'connect4/init-answer', 'tron/init-answer']) {
      for (const v of [{ name: 'x' }, {}, null, 0, 'hello', [1, [2]], true]) assert.ok(accepts(key, v), `${key}: ${preview(v)}`);
    }
    for (const key of [
      'tictactoe/turn-answer',
      'connect4/turn-answer',
      'tron/turn-answer',
      'battleship/turn-answer',
      'battleship/init-answer',
      'paint/init-answer',
      'paint/turn-answer',
      'lighthouses/init-answer',
    ]) {
      refuse(key, {}, 'an empty object');
      refuse(key, null, 'null');
    }
  });
});

describe("smart-dog's line schemas (src/games/smartdog/schema.ts: the JSON of each server line's argument, the form of a command line)", () => {
  const lineSchemas = {
    start: { schema: ajv.compile(SmartDogStart as SchemaObject), wrap: '{}' },
    landscape: { schema: ajv.compile(SmartDogLandscape as SchemaObject), wrap: '[]' },
    state: { schema: ajv.compile(SmartDogTurnState as SchemaObject), wrap: '{}' },
    obj: { schema: ajv.compile(SmartDogObject as SchemaObject), wrap: '{}' },
    finished: { schema: ajv.compile(SmartDogFinished as SchemaObject), wrap: '{}' },
  } as const;
  const command = ajv.compile(SmartDogCommand as SchemaObject);
  /** The schema of a server line's command word and its argument as JSON; fails on a line no schema covers. */
  const argument = (line: string, where: string): { word: keyof typeof lineSchemas; value: unknown } => {
    const word = line.slice(0, line.indexOf(' ')) as keyof typeof lineSchemas;
    const known = lineSchemas[word];
    assert.ok(known, `${where}: no schema for the line ${preview(line)}`);
    return { word, value: JSON.parse(`${known.wrap[0]}${line.slice(word.length).trim()}${known.wrap[1]}`) };
  };
  const accepted = (line: string, where: string): string[] => {
    const { word, value } = argument(line, where);
    const v = lineSchemas[word].schema;
    assert.ok(v(value), `${where}: the ${word} schema refuses ${preview(line)}:\n  ${explain(v.errors)}`);
    const o = value as { type?: string; action?: string; voice?: string };
    return word === 'obj' ? [`obj ${o.type ?? 'bark'}${o.action ? ` ${o.action}` : ''}${o.voice ? ' barking' : ''}`] : [word];
  };

  it('every line the server sends in real matches validates, and every command line of the built-in bots', () => {
    const met = new Set<string>();
    // (A sheep is seen scared only when its fear outlasts the turn it was barked at: sheepScaryTurns 3.)
    const plans: [string, string[], number, string][] = [
      ['training', ['herder'], 1, '{"turnsLimit":40}'],
      ['meadow', ['herder', 'random'], 2, '{"turnsLimit":40,"sheepScaryTurns":3}'],
      ['keeper', ['random', 'herder', 'random'], 3, '{"turnsLimit":40}'],
      ['highlands', ['herder', 'random', 'herder', 'random'], 4, '{"turnsLimit":40,"sheepScaryTurns":3}'],
    ];
    for (const [map, bots, seed, options] of plans) {
      const game = getGame('smartdog');
      const players = bots.length;
      const engine = new MatchEngine(game, { config: { map, options }, seed, players });
      const made = bots.map((name, slot) => game.bots[name]!.create({ slot, players, config: engine.config, seed: builtinBotSeed(seed, name, slot) }));
      for (let d = engine.decision(); d; d = engine.decision()) {
        const decision = d;
        const where = `smartdog ${map} ${bots.join(' v ')} seed ${seed}, turn ${decision.turn}`;
        const views = new Map(decision.seats.map((slot) => [slot, engine.view(slot, { phase: decision.phase, matchId: 'm', names: bots }) as string[]]));
        for (const lines of views.values()) {
          assert.equal(lines.at(-1), 'turn', `${where}: a view ends with turn`);
          for (const line of lines.slice(0, -1)) for (const tag of accepted(line, where)) met.add(tag);
        }
        let n = 0;
        const numbered = new Map(
          streamOrder(decision).map((slot) => [slot, (made[slot]!.act(views.get(slot)!, decision.phase) as string[]).map((t): [number, string] => [n++, t])]),
        );
        for (const [slot, lines] of numbered)
          for (const [, text] of lines) assert.ok(command(text), `${where}: SmartDogCommand refuses slot ${slot}'s line ${preview(text)}`);
        engine.commit(
          decision,
          decision.seats.map((slot) => ({ slot, action: { lines: numbered.get(slot)! } })),
        );
      }
      const state = engine.state as SmartDogState;
      for (let player = 1; player <= players; player++) {
        for (const tag of accepted(finishedLine(state, player), `${map}: finished`)) met.add(tag);
        accepted(finishedLine(state, player, 'player 1 disconnected'), `${map}: finished by an error`);
      }
    }
    const variety = [
      'start',
      'landscape',
      'state',
      'finished',
      'obj Dog move',
      'obj Dog move barking',
      'obj Dog panic',
      'obj Sheep standBy',
      'obj Sheep move',
      'obj Sheep panic',
      'obj bark barking',
    ];
    for (const tag of variety) {
      assert.ok(met.has(tag), `no real line was ${tag} (met: ${[...met].sort().join(', ')})`);
    }
  });

  it('refuses what the server never sends and what the game does not read as a command', () => {
    const refuses = (word: keyof typeof lineSchemas, value: unknown) => assert.equal(lineSchemas[word].schema(value), false, `${word}: ${preview(value)}`);
    refuses('obj', { type: 'Cat', x: 1, y: 1 });
    refuses('obj', { type: 'Sheep', x: 1, y: 1, action: 'standBy' });
    refuses('obj', { id: 1, type: 'Dog', x: 1, y: 1, owner: 5, action: 'move' });
    refuses('landscape', ['..x..']);
    refuses('state', { turn: 0 });
    refuses('finished', { winner: 1 });
    for (const line of ['do 1 move north', 'do 1 jump', 'end turn', 'do  1 bark', '']) assert.equal(command(line), false, line);
    for (const line of ['do 1 move up', 'do 12 bark', 'end']) assert.ok(command(line), line);
  });
});
