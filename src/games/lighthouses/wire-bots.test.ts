import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import { getDialect, type AnyGame, type AskPhase, type Move } from '../../core/game.js';
import { playBuiltins } from '../../core/self-play.js';
import { lighthouses as typed, MAPS } from './index.js';
import { applyCommand, type Command, type LighthousesState } from './rules.js';
import { parseAnswer, parseGreeting, result, type LighthousesTurn } from './wire.js';

const game: AnyGame = typed;
const TRIO = ['#######', '#!   !#', '#  A  #', '#     #', '#  !  #', '#B    #', '#######'].join('\n');
const ctx = (phase: AskPhase) => ({ phase, matchId: '1', names: ['a', 'b'] });

describe('lighthouses wire', () => {
  it('sends the init with the map bottom row first and the lighthouses in scan order', () => {
    const e = new MatchEngine(game, { config: { map: TRIO }, seed: 1, players: 2 });
    assert.equal(
      JSON.stringify(e.view(1, ctx('init'))),
      '{"player_num":1,"player_count":2,"position":[1,1],"map":[[0,0,0,0,0,0,0],[0,1,1,1,1,1,0],[0,1,1,1,1,1,0],[0,1,1,1,1,1,0],[0,1,1,1,1,1,0],[0,1,1,1,1,1,0],[0,0,0,0,0,0,0]],"lighthouses":[[3,2],[1,5],[5,5]]}',
    );
  });

  it('sends each turn the position, score, energy, a 7×7 view of 29 cells, and every lighthouse', () => {
    const e = new MatchEngine(game, { config: { map: TRIO }, seed: 1, players: 2 });
    const s = e.state as LighthousesState;
    s.lighthouses[1]!.owner = 1;
    s.lighthouses[1]!.energy = 33;
    s.connections = [[1, 2]];
    s.players[1]!.keys = [2];
    const v = e.view(1, ctx('play')) as LighthousesTurn;
    assert.deepEqual(Object.keys(v), ['position', 'score', 'energy', 'view', 'lighthouses']);
    assert.deepEqual(v.position, [1, 1]);
    assert.equal(v.view.length, 7);
    assert.equal(v.view.flat().filter((c) => c !== -1).length, 29, 'cells within distance 3');
    assert.deepEqual(v.view[3]!.slice(0, 3), [0, 0, 0], 'water to the left (x 0) and the centre are 0');
    assert.equal(v.view[0]![3], 0, 'off the map below is 0');
    assert.deepEqual(
      v.view[0]!.map((c) => c === -1),
      [true, true, true, false, true, true, true],
    );
    assert.ok(v.view[4]![4]! > 0, 'island cells show their energy');
    assert.deepEqual(v.lighthouses, [
      { position: [3, 2], owner: -1, energy: 0, connections: [], have_key: false },
      { position: [1, 5], owner: 1, energy: 33, connections: [[5, 5]], have_key: false },
      { position: [5, 5], owner: -1, energy: 0, connections: [[1, 5]], have_key: true },
    ]);
    const nulls = new MatchEngine(game, { config: { map: TRIO, neutral: 'null' }, seed: 1, players: 2 });
    assert.equal((nulls.view(0, ctx('play')) as LighthousesTurn).lighthouses[0]!.owner, null);
  });

  it("writes each message's text as JSON.stringify writes its view: every seat, every step, neutral as -1 or null", () => {
    let linked = 0;
    let compared = 0;
    for (const [map, bots, neutral] of [
      ['continent', ['planner', 'random', 'planner', 'random'], '-1'],
      ['bay', ['planner', 'planner'], 'null'],
      ['cross', ['random', 'planner', 'random'], '-1'],
    ] as const) {
      const config = { map, rounds: 60, neutral };
      const played = playBuiltins(game, [...bots], 7, { config });
      const e = new MatchEngine(game, { config, seed: 7, players: bots.length });
      for (const rec of played.records) {
        for (let slot = 0; slot < bots.length; slot++) {
          const c = ctx(rec.phase);
          const text = game.wire.encodeJson!(e.state, slot, c);
          assert.equal(text, JSON.stringify(e.view(slot, c)), `${map}, turn ${rec.turn}, seat ${slot}`);
          compared++;
          if (text.includes('"connections":[[')) linked++;
        }
        e.commit(e.decision()!, rec.moves);
      }
    }
    assert.ok(compared > 500 && linked > 50, `messages compared: ${compared}, with a connection: ${linked}`);
  });

  it('reads the greeting and the command structure; fields are judged by the rules', () => {
    assert.deepEqual(parseGreeting({ name: 'Bot' }), { ok: true, action: 'Bot' });
    assert.match((parseGreeting({ nom: 'x' }) as { detail: string }).detail, /string "name"/);
    for (const bad of [[], 'move', 3, null, { cmd: 'pass' }]) {
      assert.deepEqual(parseAnswer(bad), { ok: false, kind: 'bad-answer', detail: 'Invalid command structure' }, JSON.stringify(bad));
    }
    assert.deepEqual(parseAnswer({ command: 'move', x: 1, y: 0, extra: 1 }), { ok: true, action: { command: 'move', x: 1, y: 0 } });
    const e = new MatchEngine(game, { config: { map: TRIO }, seed: 1, players: 2 });
    const illegal = (answer: unknown) => e.read(0, 'play', answer).fault?.detail;
    assert.equal(illegal({ command: 'fly' }), "Invalid command 'fly'");
    assert.equal(illegal({ command: 7 }), 'Invalid command 7');
    assert.equal(illegal({ command: null }), 'Invalid command None');
  });

  // What the reference answers a line with, where only the line's text tells: engine/botplayer.py in
  // marcan/lighthouses_aicontest reads the line with json.loads, so `5.0` and `5e0` are floats and
  // `isinstance(move["energy"], int)` refuses them while it takes True (Python's bool is an int), and
  // `"Invalid command %r" % move["command"]` quotes with repr. Each expected message is what Python 3.11
  // gives for that line (json.loads, then the check or the format string).
  const answered = (line: string, at?: [number, number]) => {
    const e = new MatchEngine(game, { config: { map: TRIO }, seed: 1, players: 2 });
    if (at) Object.assign((e.state as LighthousesState).players[0]!, { x: at[0], y: at[1], energy: 10 });
    const move = e.judge(0, 'play', e.decode(0, 'play', getDialect(game), line));
    if (move.fault) return result(move as Move<Command>);
    applyCommand(e.state as LighthousesState, 0, move.action as Command);
    return { success: true, state: e.state as LighthousesState };
  };
  const reference: [string, string][] = [
    ['{"command":"attack","energy":5.0}', 'Attack command requires integer energy'],
    ['{"command":"attack","energy":5e0}', 'Attack command requires integer energy'],
    ['{"command":"attack","energy":50E-1}', 'Attack command requires integer energy'],
    ['{"command":"attack","energy":-0.0}', 'Attack command requires integer energy'],
    ['{"energy":5.0,"command":"attack","energy":5}', 'Player must be located at target lighthouse'],
    ['{"command":"attack","energy":5}', 'Player must be located at target lighthouse'],
    ['{"command":"attack","energy":true}', 'Player must be located at target lighthouse'],
    ['{"command":"attack","energy":"5"}', 'Attack command requires integer energy'],
    ['{"command":null}', 'Invalid command None'],
    ['{"command":true}', 'Invalid command True'],
    ['{"command":["pass"]}', "Invalid command ['pass']"],
    ['{"command":{"a": 1}}', "Invalid command {'a': 1}"],
    ['{"command":{"a":1,"b":[1.0,null],"a":false}}', "Invalid command {'a': False, 'b': [1.0, None]}"],
    ['{"command":"fly"}', "Invalid command 'fly'"],
    ['{"command":"it\'s"}', 'Invalid command "it\'s"'],
    ['{"command":"tab\\there"}', "Invalid command 'tab\\there'"],
    ['{"command":"PASS"}', "Invalid command 'PASS'"],
    ['{"command":5.0}', 'Invalid command 5.0'],
    ['{"command":7}', 'Invalid command 7'],
    ['{"command":1e16}', 'Invalid command 1e+16'],
    ['{"command":1e400}', 'Invalid command inf'],
    ['{"command":12345678901234567890}', 'Invalid command 12345678901234567890'],
  ];
  for (const [line, message] of reference) {
    it(`answers ${line} as the reference: ${message}`, () => {
      assert.deepEqual(answered(line), { success: false, message });
    });
  }

  it('quotes a huge unknown command in a few hundred characters, read in one pass', () => {
    const line = `{"command":[${Array(200_000).fill('{"a":[1.5,"x"]}').join(',')}]}`;
    const answer = answered(line);
    assert.ok('message' in answer);
    assert.ok(answer.message.startsWith("Invalid command [{'a': [1.5, 'x']}, {'a': [1.5, 'x']}, "), answer.message.slice(0, 80));
    assert.ok(answer.message.length < 540, `${answer.message.length} characters`);
  });

  it('takes true as 1 and false as 0 in a move and an attack, as the reference does', () => {
    // A at (3,4); L0 is at (3,2). Player.move's `dx not in (0, 1, -1)` is False for True and False.
    const moved = answered('{"command":"move","x":false,"y":true}');
    assert.ok('state' in moved);
    assert.deepEqual([moved.state.players[0]!.x, moved.state.players[0]!.y], [3, 5]);
    const on = answered('{"command":"attack","energy":true}', [3, 2]);
    assert.ok('state' in on);
    assert.deepEqual([on.state.lighthouses[0]!.owner, on.state.lighthouses[0]!.energy, on.state.players[0]!.energy], [0, 1, 9]);
  });

  it('answers each command with the result the reference sends', () => {
    assert.deepEqual(result({ slot: 0, action: { command: 'pass' } }), { success: true });
    assert.equal(
      JSON.stringify(result({ slot: 0, fault: { kind: 'illegal-move', detail: 'Delta must be 1 cell away' } })),
      '{"success":false,"message":"Delta must be 1 cell away"}',
    );
    assert.deepEqual(result({ slot: 0, fault: { kind: 'not-json', detail: 'answer is not JSON' } }), { success: false, message: 'Invalid JSON' });
    assert.deepEqual(result({ slot: 0, fault: { kind: 'bad-answer', detail: 'Invalid command structure' } }), {
      success: false,
      message: 'Invalid command structure',
    });
    assert.deepEqual(result({ slot: 0, fault: { kind: 'timeout', detail: 'no answer within 500 ms' } }), { success: false, message: 'Timeout' });
  });

  it('refuses a bad map or too many players with a clear config error', () => {
    assert.throws(
      () => new MatchEngine(game, { config: { map: 'atlantis' }, seed: 1, players: 2 }),
      /bad map: unknown map "atlantis": the shipped maps are islet, bay, cross, continent; or give the path of a map file/,
    );
    assert.throws(() => new MatchEngine(game, { config: { map: '#####\n# ! #\n#####\n' }, seed: 1, players: 2 }), /bad map: the map has no start slot/);
    assert.throws(() => new MatchEngine(game, { config: { map: 'islet' }, seed: 1, players: 3 }), /the map has 2 start slots, fewer than 3 players/);
  });
});

describe('lighthouses bots', () => {
  it('planner beats random in at least 9 of 10 two-player games on every shipped map, and never breaks a rule', () => {
    for (const map of Object.keys(MAPS)) {
      let wins = 0;
      for (let seed = 0; seed < 10; seed++) {
        const first = seed % 2 === 0;
        const me = first ? 0 : 1;
        const e = playBuiltins(game, first ? ['planner', 'random'] : ['random', 'planner'], seed, {
          config: { map, rounds: 100 },
          onFault: (slot, d) => slot === me && assert.fail(`${map} seed ${seed}: planner: ${d}`),
        });
        wins += Number(e.outcome().ranks[me] === 1 && e.outcome().ranks[1 - me] === 2);
      }
      assert.ok(wins >= 9, `${map}: planner won ${wins} of 10`);
    }
  });

  it('plays the same game for the same seed (random is seeded)', () => {
    const a = playBuiltins(game, ['random', 'random', 'random', 'random'], 7, { config: { map: 'cross', rounds: 50 } });
    const b = playBuiltins(game, ['random', 'random', 'random', 'random'], 7, { config: { map: 'cross', rounds: 50 } });
    assert.deepEqual(
      a.records.map((r) => r.hash),
      b.records.map((r) => r.hash),
    );
    const c = playBuiltins(game, ['random', 'random', 'random', 'random'], 8, { config: { map: 'cross', rounds: 50 } });
    assert.notDeepEqual(
      a.records.map((r) => r.hash),
      c.records.map((r) => r.hash),
    );
  });
});
