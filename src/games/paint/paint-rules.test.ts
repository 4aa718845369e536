import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { drawn, E, N, NE, NW, S, SE, shoot, SW, W, walk } from './paint.kit.js';

describe('paint walks', () => {
  it('a walk paints the new square; an idle player repaints the square it stands on', () => {
    const m = drawn(['A...', '.bB.']);
    m.state().colors[1 * 4 + 2] = 0; // B stands on A's colour
    m.turn({ 0: walk(SE) });
    assert.deepEqual(m.picture(), ['a...', '.AB.']);
    assert.equal(m.state().colors[1 * 4 + 2], 1, "B's square is B's again though B did nothing");
  });

  it('walking into a standing avatar is cancelled (the walker still paints its own square)', () => {
    const m = drawn(['AB..']);
    m.turn({ 0: walk(E), 1: shoot(W) });
    assert.deepEqual(m.picture(), ['AB..']);
    const idle = drawn(['.A', 'B.']);
    idle.turn({ 0: walk(SW) });
    assert.deepEqual(idle.picture(), ['.A', 'B.']);
  });

  it('two walkers aiming at one square are both cancelled', () => {
    const m = drawn(['A.B', '...']);
    m.turn({ 0: walk(E), 1: walk(W) });
    assert.deepEqual(m.picture(), ['A.B', '...']);
    const diag = drawn(['A.', '.B', '..']);
    diag.turn({ 0: walk(S), 1: walk(W) });
    assert.deepEqual(diag.picture(), ['A.', '.B', '..']);
  });

  it('two avatars may swap squares', () => {
    const m = drawn(['AB', '..']);
    m.turn({ 0: walk(E), 1: walk(W) });
    assert.deepEqual(m.picture(), ['BA', '..']);
    assert.deepEqual(m.state().positions, [
      [0, 1],
      [0, 0],
    ]);
    const cross = drawn(['A.', '.B']);
    cross.turn({ 0: walk(SE), 1: walk(NW) });
    assert.deepEqual(cross.picture(), ['B.', '.A']);
  });

  it('following into a square vacated this turn is allowed', () => {
    const m = drawn(['AB..']);
    m.turn({ 0: walk(E), 1: walk(E) });
    assert.deepEqual(m.picture(), ['aAB.']);
    const ring = drawn(['AB', 'DC']); // four players rotate clockwise at once
    ring.turn({ 0: walk(E), 1: walk(S), 2: walk(W), 3: walk(N) });
    assert.deepEqual(ring.picture(), ['DA', 'CB']);
  });

  it('cancellations cascade back along a queue of walkers', () => {
    const m = drawn(['.ABCD.']);
    m.turn({ 0: walk(E), 1: walk(E), 2: walk(E) }); // D stands: C, then B, then A are sent back
    assert.deepEqual(m.picture(), ['.ABCD.']);
    const fork = drawn(['A.B', '.C.']);
    // A and B collide on [0,1]; B goes back to [0,2], which C entered: C goes back too.
    fork.turn({ 0: walk(E), 1: walk(W), 2: walk(NE) });
    assert.deepEqual(fork.picture(), ['A.B', '.C.']);
    const back = drawn(['A.B', '.C.']);
    // C wants A's square; A is sent back by the collision with B, so C is sent back too.
    back.turn({ 0: walk(E), 1: walk(W), 2: walk(NW) });
    assert.deepEqual(back.picture(), ['A.B', '.C.']);
  });

  it('a walk off the board stays put, still blocks, and is listed in previous_actions', () => {
    const m = drawn(['AB', '..']);
    m.turn({ 0: walk(N), 1: walk(W) });
    assert.deepEqual(m.picture(), ['AB', '..']);
    const corner = drawn(['..', '.A', 'B.']);
    corner.turn({ 0: walk(SE), 1: walk(SW) });
    assert.deepEqual(corner.picture(), ['..', '.A', 'B.']);
    assert.match(corner.message(), /"previous_actions":\[\{"alice":\{"type":"walk","direction":\[1,1\]\},"bob":\{"type":"walk","direction":\[1,-1\]\}\}\]/);
  });

  it('an obstacle is walked into like the edge of the board', () => {
    const m = drawn(['A#B.']);
    m.turn({ 0: walk(E), 1: walk(E) });
    assert.deepEqual(m.picture(), ['A#bB']);
  });
});

describe('paint shots', () => {
  it('the range is the own-coloured trail behind the shooter, minus one, at least one', () => {
    const m = drawn(['aaaaaA....', 'B.........']);
    m.turn({ 0: shoot(E) }); // trail of 6 → range 5, the fifth square is off the board
    assert.deepEqual(m.picture(), ['aaaaaAaaaa', 'B.........']);
    const none = drawn(['..A...', 'B.....']);
    none.turn({ 0: shoot(E), 1: shoot(N) }); // no trail: range 1
    assert.deepEqual(none.picture(), ['b.Aa..', 'B.....']);
  });

  it('a broken trail counts only the part touching the shooter (a gap or another colour ends it)', () => {
    const gap = drawn(['aa.aaA....', 'B.........']);
    gap.turn({ 0: shoot(E) }); // 3 own squares → range 2
    assert.deepEqual(gap.picture(), ['aa.aaAaa..', 'B.........']);
    const enemy = drawn(['abaaaA....', 'B.........']);
    enemy.turn({ 0: shoot(E) }); // 4 → range 3
    assert.deepEqual(enemy.picture(), ['abaaaAaaa.', 'B.........']);
    const short = drawn(['.aA...', 'B.....']);
    short.turn({ 0: shoot(E) }); // 2 → range max(1, 1) = 1
    assert.deepEqual(short.picture(), ['.aAa..', 'B.....']);
  });

  it('a shot paints over enemy colour', () => {
    const m = drawn(['aaaA.bbb..', 'B.........']);
    m.turn({ 0: shoot(E) });
    assert.deepEqual(m.picture(), ['aaaAaaab..', 'B.........']);
  });

  it('a shot stops before an avatar and at the edge of the board', () => {
    const m = drawn(['aaaaaA.B..', '..........']);
    m.turn({ 0: shoot(E) });
    assert.deepEqual(m.picture(), ['aaaaaAaB..', '..........']);
    const adjacent = drawn(['aaaaAB....']);
    adjacent.turn({ 0: shoot(E), 1: shoot(W) }); // both hit the other at once: nothing painted
    assert.deepEqual(adjacent.picture(), ['aaaaAB....']);
    const edge = drawn(['B.', 'a.', 'a.', 'A.']);
    edge.turn({ 0: shoot(S), 1: shoot(W) }); // both straight off the board
    assert.deepEqual(edge.picture(), ['B.', 'a.', 'a.', 'A.']);
  });

  it('an obstacle stops a shot and ends a trail', () => {
    const m = drawn(['aa#aaA.#..', 'B.........']);
    m.turn({ 0: shoot(E) }); // trail 3 (the obstacle ends it) → range 2; the shot dies on the obstacle
    assert.deepEqual(m.picture(), ['aa#aaAa#..', 'B.........']);
  });

  it('head-on shots meet in the middle: an odd gap leaves the middle square untouched', () => {
    const odd = drawn(['aaaA...Bbbb']); // ranges 3 and 3, gap of 3
    odd.turn({ 0: shoot(E), 1: shoot(W) });
    assert.deepEqual(odd.picture(), ['aaaAa.bBbbb']);
    const even = drawn(['aaaA....Bbbb']); // gap of 4: each paints 2, then each dies on the other's paint
    even.turn({ 0: shoot(E), 1: shoot(W) });
    assert.deepEqual(even.picture(), ['aaaAaabbBbbb']);
  });

  it('perpendicular shots reaching a square at the same step both die there, unpainted', () => {
    const m = drawn(['........', '.....b..', '.....b..', '.....b..', '.....B..', '........', 'aaaA....', '........']);
    m.turn({ 0: shoot(E), 1: shoot(S) }); // both reach [6,5] on step 2
    assert.deepEqual(m.picture(), ['........', '.....b..', '.....b..', '.....b..', '.....B..', '.....b..', 'aaaAa...', '........']);
  });

  it('perpendicular shots reaching a square at different steps: the later one dies on fresh paint', () => {
    const m = drawn(['.....b..', '.....b..', '.....b..', '.....B..', '........', '........', 'aaaA....', '........']);
    m.turn({ 0: shoot(E), 1: shoot(S) }); // A paints [6,5] on step 2; B arrives there on step 3
    assert.deepEqual(m.picture(), ['.....b..', '.....b..', '.....b..', '.....B..', '.....b..', '.....b..', 'aaaAaaa.', '........']);
  });

  it('diagonal shots count a diagonal trail and fly diagonally', () => {
    const m = drawn(['a......', '.a.....', '..a....', '...A...', '.......', '.......', 'B......']);
    m.turn({ 0: shoot(SE), 1: shoot(NE) }); // A: trail 4 → range 3; B: range 1
    assert.deepEqual(m.picture(), ['a......', '.a.....', '..a....', '...A...', '....a..', '.b...a.', 'B.....a']);
  });

  it('walks happen first: a walker can cut a trail or step into the line of fire', () => {
    const cut = drawn(['aaaaA...', '..B.....']);
    cut.turn({ 0: shoot(E), 1: walk(N) }); // B repaints [0,2]: A's trail is now 2 → range 1
    assert.deepEqual(cut.picture(), ['aaBaAa..', '..b.....']);
    const block = drawn(['aaaaA...', '......B.']);
    block.turn({ 0: shoot(E), 1: walk(N) }); // B steps onto [0,6]: the shot stops before it
    assert.deepEqual(block.picture(), ['aaaaAaB.', '......b.']);
    const grow = drawn(['aaaA....', '.......B']);
    grow.turn({ 0: walk(E) }); // then the longer trail shoots further next turn
    grow.turn({ 0: shoot(E) });
    assert.deepEqual(grow.picture(), ['aaaaAaaa', '.......B']);
  });

  it('a faulted player does nothing but is still painted on its square', () => {
    const m = drawn(['A..', '..B']);
    m.turn({ 0: walk([2, 0]), 1: { fault: { kind: 'crash', detail: 'exited' } } });
    assert.deepEqual(m.picture(), ['A..', '..B']);
    assert.equal(m.engine.faults[0]!.kind, 'bad-answer');
    assert.match(m.message(), /"previous_actions":\[\{\}\]/);
  });
});
