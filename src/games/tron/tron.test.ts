import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import type { AnyGame, HumanSeat } from '../../core/game.js';
import { playBuiltins } from '../../core/self-play.js';
import { tron as typed } from './index.js';
import type { TronState } from './rules.js';
import type { TronTurn } from './wire.js';

const tron: AnyGame = typed;
type Cell = [number, number];

/** A match past its inits; `trails` (tail first, head last) replaces the seeded starts when given. */
function match(players: number, trails?: Cell[][], size = 10) {
  const engine = new MatchEngine(tron, { config: { width: size, height: size }, seed: 1, players });
  for (let d = engine.decision(); d?.phase === 'init'; d = engine.decision()) engine.commit(d, [{ slot: d.seats[0]!, action: null }]);
  if (trails) (engine.state as TronState).trails = trails.map((t) => t.map((c) => [...c] as Cell));
  const state = () => engine.state as TronState;
  /** Plays one lap: an answer object per living slot, or {fault} for a failed answer. */
  const lap = (answers: Record<number, unknown>) => {
    const d = engine.decision()!;
    assert.equal(d.phase, 'play');
    const moves = d.seats.map((slot) => {
      const a = answers[slot] as { fault?: { kind: 'timeout'; detail: string } };
      if (a && typeof a === 'object' && a.fault) return { slot, fault: a.fault };
      return engine.read(slot, 'play', a);
    });
    engine.commit(d, moves);
  };
  const message = (slot: number) => tron.wire.encodeJson!(engine.state, slot, { phase: 'play', matchId: '9', names: [] });
  return { engine, state, lap, message };
}
const play = (d: string) => ({ play: d });
const died = (s: TronState, slot: number) => s.death[slot];

describe('Tron setup and wire', () => {
  it('seeds distinct starts in 1..W−1 × 1..H−1, the same for the same seed', () => {
    for (const seed of [1, 2, 3]) {
      const a = new MatchEngine(tron, { config: { width: 4, height: 4 }, seed, players: 9 }).state as TronState;
      const b = new MatchEngine(tron, { config: { width: 4, height: 4 }, seed, players: 9 }).state as TronState;
      assert.deepEqual(a.trails, b.trails);
      const starts = a.trails.map((t) => t[0]!);
      assert.equal(new Set(starts.map(String)).size, 9, 'starts are distinct');
      for (const [x, y] of starts) assert.ok(x >= 1 && x <= 3 && y >= 1 && y <= 3, `${x},${y}`);
    }
    assert.throws(
      () => new MatchEngine(tron, { config: { width: 3, height: 3 }, seed: 1, players: 5 }),
      /a 3×3 grid has 4 start cells .* fewer than 5 players/,
    );
  });

  it('sends init and lap messages field for field, heads first, dead trails as [], players counting the dead', () => {
    const engine = new MatchEngine(tron, { config: {}, seed: 4, players: 3 });
    const init = tron.wire.encodeJson!(engine.state, 2, { phase: 'init', matchId: '9', names: [] });
    assert.equal(init, '{"game-id":"9","action":"init","game":"tron","board":"","players":3,"player-index":2}');
    const m = match(3, [
      [
        [1, 1],
        [2, 1],
      ],
      [[5, 5]],
      [
        [8, 8],
        [8, 7],
      ],
    ]);
    assert.equal(
      m.message(1),
      '{"game-id":"9","action":"play-turn","game":"tron","board":[[[2,1],[1,1]],[[5,5]],[[8,7],[8,8]]],"width":10,"height":10,"player-index":1,"players":3}',
    );
    m.lap({ 0: play('x+'), 1: { fault: { kind: 'timeout', detail: 'no answer' } }, 2: play('y-') });
    assert.equal(
      m.message(0),
      '{"game-id":"9","action":"play-turn","game":"tron","board":[[[3,1],[2,1],[1,1]],[],[[8,6],[8,7],[8,8]]],"width":10,"height":10,"player-index":0,"players":3}',
    );
  });

  it('on the original 100×100 grid the messages are byte for byte those sent before the size was added', () => {
    // Captured before issue 15's change, seed 1, three bots: the hellos and the first two laps.
    const m = match(
      3,
      [
        [
          [1, 1],
          [2, 1],
        ],
        [[5, 5]],
        [
          [98, 99],
          [99, 99],
        ],
      ],
      100,
    );
    assert.equal(
      m.message(1),
      '{"game-id":"9","action":"play-turn","game":"tron","board":[[[2,1],[1,1]],[[5,5]],[[99,99],[98,99]]],"player-index":1,"players":3}',
    );
    m.lap({ 0: play('x+'), 1: { fault: { kind: 'timeout', detail: 'no answer' } }, 2: play('y-') });
    assert.equal(
      m.message(2),
      '{"game-id":"9","action":"play-turn","game":"tron","board":[[[3,1],[2,1],[1,1]],[],[[99,98],[99,99],[98,99]]],"player-index":2,"players":3}',
    );
    const e = new MatchEngine(tron, { config: { width: 100, height: 100 }, seed: 1, players: 3 });
    const ctx = (phase: 'init' | 'play') => ({ phase, matchId: 'm-1', names: [] });
    assert.equal(tron.wire.encodeJson!(e.state, 1, ctx('init')), '{"game-id":"m-1","action":"init","game":"tron","board":"","players":3,"player-index":1}');
    assert.equal(
      JSON.stringify(tron.wire.view(e.state, 1, ctx('init'))),
      '{"game-id":"m-1","action":"init","game":"tron","board":"","players":3,"player-index":1}',
    );
    for (let d = e.decision(); d?.phase === 'init'; d = e.decision()) e.commit(d, [{ slot: d.seats[0]!, action: null }]);
    assert.equal(
      tron.wire.encodeJson!(e.state, 0, ctx('play')),
      '{"game-id":"m-1","action":"play-turn","game":"tron","board":[[[1,91]],[[49,34]],[[58,75]]],"player-index":0,"players":3}',
    );
    assert.equal(
      JSON.stringify(tron.wire.view(e.state, 0, ctx('play'))),
      '{"game-id":"m-1","action":"play-turn","game":"tron","board":[[[1,91]],[[49,34]],[[58,75]]],"player-index":0,"players":3}',
    );
  });

  it('off the original grid the hello and every lap carry "width" and "height" right after "board"', () => {
    for (const [width, height] of [
      [30, 20],
      [100, 50],
      [7, 100],
    ] as const) {
      const e = new MatchEngine(tron, { config: { width, height }, seed: 1, players: 2 });
      const ctx = (phase: 'init' | 'play') => ({ phase, matchId: 'm-1', names: [] });
      const size = `"width":${width},"height":${height}`;
      assert.equal(
        tron.wire.encodeJson!(e.state, 1, ctx('init')),
        `{"game-id":"m-1","action":"init","game":"tron","board":"",${size},"players":2,"player-index":1}`,
      );
      assert.equal(JSON.stringify(tron.wire.view(e.state, 1, ctx('init'))), tron.wire.encodeJson!(e.state, 1, ctx('init')));
      assert.deepEqual(tron.wire.view(e.state, 0, ctx('init')), {
        'game-id': 'm-1',
        action: 'init',
        game: 'tron',
        board: '',
        width,
        height,
        players: 2,
        'player-index': 0,
      });
      for (let d = e.decision(); d?.phase === 'init'; d = e.decision()) e.commit(d, [{ slot: d.seats[0]!, action: null }]);
      const [a, b] = (e.state as TronState).trails.map((t) => t[0]!);
      assert.equal(
        tron.wire.encodeJson!(e.state, 0, ctx('play')),
        `{"game-id":"m-1","action":"play-turn","game":"tron","board":[[[${a}]],[[${b}]]],${size},"player-index":0,"players":2}`,
      );
      const v = tron.wire.view(e.state, 1, ctx('play')) as TronTurn;
      assert.deepEqual(Object.keys(v), ['game-id', 'action', 'game', 'board', 'width', 'height', 'player-index', 'players']);
      assert.equal(v.width, width);
      assert.equal(v.height, height);
    }
  });

  it('encodeJson is byte-identical to JSON.stringify(view) and shared across seats', () => {
    const m = match(4, undefined, 100);
    for (let i = 0; i < 5; i++) m.lap({ 0: play('x+'), 1: play('x-'), 2: play('y+'), 3: i === 2 ? play('up') : play('y-') });
    for (let slot = 0; slot < 4; slot++) {
      const ctx = { phase: 'play' as const, matchId: '9', names: [] };
      assert.equal(m.message(slot), JSON.stringify(tron.wire.view(m.engine.state, slot, ctx)));
    }
  });

  it('on a 30×20 grid, every lap, encodeJson is JSON.stringify(view) for text and value seats, the size included', () => {
    const ctx = { phase: 'play' as const, matchId: '9', names: [] };
    for (const seed of [1, 2]) {
      const recorded = playBuiltins(tron, ['voronoi', 'stupid', 'random'], seed, { config: { width: 30, height: 20 } });
      const e = new MatchEngine(tron, { config: { width: 30, height: 20 }, seed, players: 3 });
      let laps = 0;
      for (const rec of recorded.records) {
        e.commit(e.decision()!, rec.moves);
        if (rec.phase !== 'play') continue;
        laps++;
        // Slot 0 is a value seat (asked for the view first, as a built-in bot is), slot 1 a text seat
        // (asked for the text first, as a remote bot is); slot 2 asks for both in the other order.
        const v0 = JSON.stringify(tron.wire.view(e.state, 0, ctx));
        const t1 = tron.wire.encodeJson!(e.state, 1, ctx);
        assert.equal(tron.wire.encodeJson!(e.state, 0, ctx), v0, `seed ${seed}, lap ${rec.turn}`);
        assert.equal(JSON.stringify(tron.wire.view(e.state, 1, ctx)), t1, `seed ${seed}, lap ${rec.turn}`);
        assert.equal(tron.wire.encodeJson!(e.state, 2, ctx), JSON.stringify(tron.wire.view(e.state, 2, ctx)));
        assert.match(t1, /\],"width":30,"height":20,"player-index":1,"players":3\}$/);
      }
      assert.ok(laps > 10);
    }
  });

  it('every lap of recorded games, its message is the one built from scratch, byte for byte (the board is extended, not rebuilt)', () => {
    const fresh = (st: TronState, slot: number) => {
      const board = st.trails.map((t, k) => (st.death[k] ? [] : t.slice().reverse()));
      const size = st.width === 100 && st.height === 100 ? {} : { width: st.width, height: st.height };
      return JSON.stringify({ 'game-id': '9', action: 'play-turn', game: 'tron', board, ...size, 'player-index': slot, players: st.trails.length });
    };
    const ctx = { phase: 'play' as const, matchId: '9', names: [] };
    // The original grid's games are long: their first laps are enough to compare.
    for (const [width, height, maxLaps] of [
      [30, 20, Infinity],
      [100, 100, 60],
    ] as const) {
      for (const seed of [1, 2, 3]) {
        const recorded = playBuiltins(tron, ['stupid', 'random', 'voronoi', 'stupid'], seed, { config: { width, height } });
        const e = new MatchEngine(tron, { config: { width, height }, seed, players: 4 });
        let laps = 0;
        for (const rec of recorded.records) {
          if (laps >= maxLaps) break;
          e.commit(e.decision()!, rec.moves);
          if (rec.phase !== 'play') continue;
          laps++;
          // Text seats every lap, value seats in between (their board is the same one): both must agree.
          if (laps % 3 === 0) assert.equal(JSON.stringify(tron.wire.view(e.state, 0, ctx)), fresh(e.state as TronState, 0));
          for (let slot = 0; slot < 4; slot++)
            assert.equal(tron.wire.encodeJson!(e.state, slot, ctx), fresh(e.state as TronState, slot), `${width}×${height}, seed ${seed}, lap ${rec.turn}`);
          // A copy of the state (a fork, a viewer's clone) is built afresh and says the same.
          if (laps === 7) assert.equal(tron.wire.encodeJson!(structuredClone(e.state), 1, ctx), fresh(e.state as TronState, 1));
        }
        assert.ok(laps > 10);
      }
    }
  });

  for (const bad of ['X+', 'x+ ', ' x+', 'up', 'x', 1, null]) {
    it(`a bad answer ${JSON.stringify(bad)} kills the bot with the reason`, () => {
      const m = match(2, [[[1, 1]], [[5, 5]]]);
      m.lap({ 0: play(bad as string), 1: play('x+') });
      assert.match(died(m.state(), 0)!.cause, /bad-answer: "play" must be one of "x\+", "x-", "y\+", "y-", got /);
      assert.equal(m.engine.decision(), null);
      assert.deepEqual(m.engine.outcome().ranks, [2, 1]);
    });
  }
});

describe('Tron laps', () => {
  it('moves in all four directions', () => {
    const m = match(4, [[[2, 2]], [[5, 5]], [[7, 2]], [[2, 7]]]);
    m.lap({ 0: play('x+'), 1: play('x-'), 2: play('y+'), 3: play('y-') });
    assert.deepEqual(
      m.state().trails.map((t) => t[t.length - 1]),
      [
        [3, 2],
        [4, 5],
        [7, 3],
        [2, 6],
      ],
    );
  });

  it('turning back into its own neck kills', () => {
    const m = match(2, [
      [
        [1, 1],
        [2, 1],
      ],
      [[5, 5]],
    ]);
    m.lap({ 0: play('x-'), 1: play('x+') });
    assert.equal(died(m.state(), 0)!.cause, 'hit its own trail at 1,1');
  });

  it('moving into another trail kills, and so does following a tail (tails never move)', () => {
    const m = match(3, [
      [[1, 1]],
      [
        [2, 3],
        [2, 2],
        [2, 1],
      ],
      [
        [5, 5],
        [4, 5],
      ],
    ]);
    m.lap({ 0: play('x+'), 1: play('x+'), 2: play('y+') });
    assert.equal(died(m.state(), 0)!.cause, 'hit the trail of slot 1 at 2,1');
    const t = match(2, [
      [[3, 4]],
      [
        [3, 3],
        [4, 3],
      ],
    ]);
    t.lap({ 0: play('y-'), 1: play('y+') }); // 0 moves onto 1's tail
    assert.equal(died(t.state(), 0)!.cause, 'hit the trail of slot 1 at 3,3');
  });

  it('two bots aiming at the same cell both die (head-on); swapping heads kills both too', () => {
    const m = match(3, [[[1, 1]], [[3, 1]], [[8, 8]]]);
    m.lap({ 0: play('x+'), 1: play('x-'), 2: play('x-') });
    assert.equal(died(m.state(), 0)!.cause, 'head-on with slot 1 at 2,1');
    assert.equal(died(m.state(), 1)!.cause, 'head-on with slot 0 at 2,1');
    assert.equal(died(m.state(), 2), null);
    const swap = match(2, [[[1, 1]], [[2, 1]]]);
    swap.lap({ 0: play('x+'), 1: play('x-') });
    assert.deepEqual(swap.engine.outcome().ranks, [1, 1]);
    assert.match(died(swap.state(), 0)!.cause, /hit the trail of slot 1 at 2,1/);
  });

  it('leaving the grid on any side kills', () => {
    const m = match(4, [[[0, 5]], [[9, 5]], [[5, 0]], [[5, 9]]]);
    m.lap({ 0: play('x-'), 1: play('x+'), 2: play('y-'), 3: play('y+') });
    assert.deepEqual(
      m.state().death.map((d) => d!.cause),
      ['left the grid at -1,5 (x-)', 'left the grid at 10,5 (x+)', 'left the grid at 5,-1 (y-)', 'left the grid at 5,10 (y+)'],
    );
    assert.deepEqual(m.engine.outcome().ranks, [1, 1, 1, 1], 'all dying on the same lap tie');
  });

  it('dead trails leave the board from the next lap: another bot may drive through them', () => {
    const m = match(3, [
      [[1, 1]],
      [
        [3, 0],
        [3, 1],
        [3, 2],
      ],
      [[8, 8]],
    ]);
    m.lap({ 0: play('x+'), 1: play('x+'), 2: play('y-') }); // 1's head goes to 4,2; then 1 crashes next lap
    m.lap({ 0: play('x+'), 1: play('x-'), 2: play('y-') }); // 0 enters 3,1: slot 1's trail → dies
    assert.equal(died(m.state(), 0)!.cause, 'hit the trail of slot 1 at 3,1');
    const n = match(3, [
      [[1, 1]],
      [
        [3, 0],
        [3, 1],
        [3, 2],
      ],
      [[8, 8]],
    ]);
    n.lap({ 0: play('x+'), 1: play('y-'), 2: play('y-') }); // 1 hits its own neck and dies on lap 1
    n.lap({ 0: play('x+'), 2: play('y-') }); // lap 2: 0 drives into 3,1, where the dead trail was
    assert.equal(died(n.state(), 0), null);
    assert.deepEqual(n.state().trails[0]!.at(-1), [3, 1]);
  });

  it('ends when fewer than 2 are alive and ranks by lap of death, ties shared', () => {
    const m = match(4, [[[0, 0]], [[5, 5]], [[7, 7]], [[2, 8]]]);
    m.lap({ 0: play('x-'), 1: play('x+'), 2: play('x+'), 3: play('x+') }); // 0 dies lap 1
    m.lap({ 1: play('y+'), 2: play('y+'), 3: play('x+') });
    m.lap({ 1: { fault: { kind: 'timeout', detail: 'slow' } }, 2: play('x-'), 3: { fault: { kind: 'timeout', detail: 'slow' } } }); // 1 and 3 die lap 3
    assert.equal(m.engine.decision(), null);
    const o = m.engine.outcome();
    assert.deepEqual(o.ranks, [4, 2, 1, 2]);
    assert.deepEqual(o.scores, [1, 3, 4, 3]);
    assert.match(o.reason, /^C survives after 3 laps; died: A on lap 1 \(left the grid at -1,0 \(x-\)\); B on lap 3 \(timeout: slow\); D on lap 3/);
  });

  it('losesAtOnce (for doctor) names the edge and trails, never a head-on, and nothing when every move loses', () => {
    // Slot 0 at 1,0 came from 0,0; slot 1's trail runs below it; slot 2 sits in the corner 9,9, walled in.
    const m = match(3, [
      [
        [0, 0],
        [1, 0],
      ],
      [
        [2, 1],
        [1, 1],
      ],
      [
        [8, 9],
        [9, 8],
        [9, 9],
      ],
    ]);
    const loses = (slot: number, d: string) => tron.tooling!.losesAtOnce!(m.state(), slot, d);
    assert.equal(loses(0, 'y-'), 'it leaves the grid at 1,-1 (x+ would not)');
    assert.equal(loses(0, 'x-'), 'it hits its own trail at 0,0 (x+ would not)');
    assert.equal(loses(0, 'y+'), 'it hits the trail of slot 1 at 1,1 (x+ would not)');
    assert.equal(loses(0, 'x+'), null, '2,0 is free (slot 1 might go there too: a head-on is not certain)');
    assert.equal(loses(2, 'x+'), null, 'walled in: no move is a mistake');
  });

  it('asks only the living, all at once', () => {
    const m = match(3, [[[0, 0]], [[5, 5]], [[7, 7]]]);
    assert.deepEqual(m.engine.decision()!.seats, [0, 1, 2]);
    m.lap({ 0: play('x-'), 1: play('x+'), 2: play('x+') });
    assert.deepEqual(m.engine.decision(), { phase: 'play', seats: [1, 2], turn: 2 });
  });
});

describe('Tron terminal play', () => {
  const prompt = (size: object, seat?: HumanSeat, head: [number, number] = [11, 7]) =>
    typed.presentation
      .human!.prompt(
        { 'game-id': '1', action: 'play-turn', game: 'tron', board: [[head], [[1, 1]]], ...size, 'player-index': 0, players: 2 } as TronTurn,
        'play',
        seat,
      )
      .split('\n');

  it("draws the grid's edge from the message's size, else from the seat's config, else 100×100", () => {
    const sized = prompt({ width: 12, height: 8 });
    assert.equal(sized[8], `#${'.'.repeat(11)}A#`);
    assert.equal(sized[9], '#'.repeat(14));
    assert.deepEqual(prompt({}, { config: { width: 12, height: 8 }, answered: [] }).slice(0, 10), sized.slice(0, 10));
    const window = prompt({}, undefined, [50, 50]);
    assert.equal(window.length, 22, 'a 100×100 grid does not fit 80×24: a window of 79×21 around the head');
    assert.equal(window[10], `${'.'.repeat(39)}A${'.'.repeat(39)}`);
  });

  it('shows the whole grid when it fits the terminal, else as much as the terminal holds around the head', () => {
    // A 20×12 grid in a 120×45 terminal used to show a 21×11 window around the head.
    const whole = prompt({ width: 20, height: 12 }, { config: {}, answered: [], screen: { columns: 120, rows: 45 } });
    assert.deepEqual(
      whole.slice(0, 14).map((r) => r.length),
      Array(14).fill(22),
    );
    assert.equal(whole[0], '#'.repeat(22));
    assert.equal(whole[2], `#.B${'.'.repeat(18)}#`);
    assert.match(whole[14]!, /^you are A at 11,7; your move/);
    const big = prompt({ width: 100, height: 100 }, { config: {}, answered: [], screen: { columns: 120, rows: 45 } }, [50, 50]);
    assert.equal(big.length - 1, 41, 'rows: the terminal less the turn and question lines');
    assert.ok(
      big.slice(0, -1).every((r) => r.length === 102),
      'columns: the whole width and its walls, 102 of the 120',
    );
    const corner = prompt({ width: 100, height: 100 }, { config: {}, answered: [], screen: { columns: 120, rows: 45 } }, [0, 0]);
    assert.equal(corner[0], '#'.repeat(61), 'past the grid, one wall');
  });

  it('reads an arrow key as its direction, and quotes a line it cannot read', () => {
    const parse = (line: string) => typed.presentation.human!.parse(line, {} as TronTurn, 'play');
    assert.deepEqual(
      ['\x1b[A', '\x1b[B', '\x1b[C', '\x1b[D', '\x1bOA', '\x1b[A\x1b[D'].map(parse),
      ['y-', 'y+', 'x+', 'x-', 'y-', 'x-'].map((play) => ({ answer: { play } })),
    );
    assert.deepEqual(parse('\x1b[Z'), { error: '"\\u001b[Z" is not a direction: type x+, x-, y+, y- (or right, left, down, up, or an arrow key)' });
  });
});

describe('Tron bots', () => {
  it('stupid plays the longest straight free line, ties in x+, x-, y+, y- order', () => {
    const bot = tron.bots.stupid!.create({ slot: 0, players: 2, config: { width: 10, height: 10 }, seed: 1 });
    const turn = (board: Cell[][]) => bot.act({ 'game-id': '1', action: 'play-turn', game: 'tron', board, 'player-index': 0, players: 2 }, 'play');
    assert.deepEqual(turn([[[2, 5]], [[9, 9]]]), { play: 'x+' }); // x+ 7, x- 2, y+ 4, y- 5
    assert.deepEqual(turn([[[7, 5]], [[9, 9]]]), { play: 'x-' }); // x+ 2, x- 7
    assert.deepEqual(turn([[[4, 4]], [[9, 9]]]), { play: 'x+' }); // x+ 5, x- 4, y+ 5, y- 4: tie → x+
    assert.deepEqual(
      turn([
        [
          [5, 2],
          [5, 1],
        ],
        [
          [6, 2],
          [7, 2],
          [8, 2],
          [9, 2],
        ],
      ]),
      { play: 'y+' },
    ); // walled on x+, x- 5, y+ 7
  });

  it('random only makes safe moves when one exists', () => {
    const bot = tron.bots.random!.create({ slot: 0, players: 2, config: { width: 10, height: 10 }, seed: 3 });
    for (let i = 0; i < 50; i++) {
      const answer = bot.act(
        {
          'game-id': '1',
          action: 'play-turn',
          game: 'tron',
          board: [
            [
              [0, 5],
              [1, 5],
            ],
            [
              [0, 6],
              [0, 7],
            ],
          ],
          'player-index': 0,
          players: 2,
        },
        'play',
      );
      assert.deepEqual(answer, { play: 'y-' });
    }
  });

  it('voronoi beats stupid in at least 9 of 10 games on 100×100, both seats (100-game figure in bench/RESULTS.md)', () => {
    let wins = 0;
    for (let seed = 0; seed < 10; seed++) {
      const first = seed % 2 === 0;
      const ranks = playBuiltins(tron, first ? ['voronoi', 'stupid'] : ['stupid', 'voronoi'], seed, { onFault: (_s, d) => assert.fail(d) }).outcome().ranks;
      wins += Number(first ? ranks[0]! < ranks[1]! : ranks[1]! < ranks[0]!);
    }
    assert.ok(wins >= 9, `voronoi won ${wins} of 10`);
  });

  it('twelve bots play a whole game, and the same seed replays it', () => {
    const bots = ['stupid', 'random', 'voronoi', 'stupid', 'random', 'voronoi', 'stupid', 'random', 'voronoi', 'stupid', 'random', 'voronoi'];
    const a = playBuiltins(tron, bots, 77);
    const b = playBuiltins(tron, bots, 77);
    assert.equal(a.decision(), null);
    assert.deepEqual(a.records, b.records);
    assert.equal(a.outcome().ranks.filter((r) => r === 1).length >= 1, true);
  });

  it('matches played side by side, lap by lap, end as each does alone (trails share their cells, nothing else)', () => {
    const alone = [3, 4, 5].map((seed) => playBuiltins(tron, ['stupid', 'random', 'voronoi'], seed, { config: { width: 12, height: 12 } }).records);
    const engines = [3, 4, 5].map((seed) => new MatchEngine(tron, { config: { width: 12, height: 12 }, seed, players: 3 }));
    for (let going = true; going;) {
      going = false;
      engines.forEach((e, i) => {
        const d = e.decision();
        if (!d) return;
        going = true;
        e.commit(d, alone[i]![e.records.length]!.moves);
      });
    }
    engines.forEach((e, i) => assert.deepEqual(e.records, alone[i]));
    // A record is a plain object, as JSON gives it back.
    const rec = engines[0]!.records[5]!;
    assert.equal(Object.getPrototypeOf(rec), Object.prototype);
    assert.deepEqual(rec, JSON.parse(JSON.stringify(rec)));
    assert.deepEqual(Object.keys(rec), ['turn', 'phase', 'moves', 'hash']);
  });
});
