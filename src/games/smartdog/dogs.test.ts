import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyCommand, endTurn, setup } from './rules.js';
import type { SmartDogState } from './state.js';

/** Applies `player`'s lines and returns the answers' texts ('' for none), `warning …`/`error …` as on the wire. */
function send(s: SmartDogState, player: number, ...lines: string[]): string[] {
  return lines.map((l) => {
    const a = applyCommand(s, player, l);
    return a.warning !== undefined ? `warning ${a.warning}` : a.error !== undefined ? `error ${a.error}` : '';
  });
}
const dogAt = (s: SmartDogState, id: number) => {
  const d = s.dogs.find((x) => x.id === id)!;
  return `${d.x},${d.y}`;
};

describe('smart-dog dog commands', () => {
  it('answers every warning with the spec text, in the spec check order', () => {
    const s = setup({ map: '.....\n@*..#', players: 2 });
    const dir = 'one of the following expected: up,down,left,right';
    assert.deepEqual(send(s, 1, 'do 1 move sideways', 'do 1 move', 'do abc move x', 'do abc move up', 'do 9 move up', 'do 2 move up'), [
      `warning 1 Unexpected direction 'sideways', ${dir}`,
      `warning 1 Unexpected direction '', ${dir}`,
      `warning abc Unexpected direction 'x', ${dir}`,
      'warning abc Unknown id',
      'warning 9 Unknown id',
      'warning 2 Unknown id',
    ]);
    assert.deepEqual(send(s, 1, 'do 1 move left', 'do 1 move right', 'do 1 move up now', 'do 1 move up\r\n', 'do 1 move down'), [
      'warning 1 Cannot move to 9, 1 - there is a non traversable landscape or another object',
      'warning 1 Cannot move to 1, 1 - there is a non traversable landscape or another object',
      'warning 1 Too many arguments',
      '',
      'warning 1 Dog already moved this turn',
    ]);
    assert.equal(dogAt(s, 1), '0,0', 'a blocked move did not use the move up; the one with extra words was not done');
    assert.deepEqual(send(s, 1, 'do 1 bark now', 'do 1 bark', 'do 1 bark', 'do 1 jump', 'do', 'do 1', 'hello world', 'hello', 'END'), [
      'warning 1 Too many arguments',
      '',
      'warning 1 Dog with already barked this turn',
      'warning Unknown command - jump, only the following are allowed: move,bark',
      'warning Unknown command - , only the following are allowed: move,bark',
      'warning Unknown command - , only the following are allowed: move,bark',
      'error Unknown command: hello(world)',
      'error Unknown command: hello()',
      'error Unknown command: END()',
    ]);
    assert.deepEqual(send(s, 1, 'end', 'do 1 move down', 'end', ''), ['', 'warning 1 Turn already ended', '', '']);
    assert.equal(dogAt(s, 1), '0,0');
    assert.deepEqual(send(s, 2, 'do 2 move down'), ['']);
    assert.equal(dogAt(s, 2), '5,0', 'down wraps from the last row to row 0');
  });

  it('an out player is ignored; a finished game ignores everything', () => {
    const s = setup({ map: '@*', players: 2 });
    s.out[1] = true;
    assert.deepEqual(send(s, 2, 'do 3 bark', 'hello'), ['', '']);
    s.finished = true;
    assert.deepEqual(send(s, 1, 'do 1 bark', 'hello'), ['', '']);
    assert.equal(s.dogs[0]!.barked, false);
  });
});

describe('smart-dog dog scares', () => {
  // Two tiles of width 5: dog 1 at (4,1) in x 0..4, dog 2 at (9,1) in x 5..9; they are 5 apart.
  const MAP = `{"dogBarkingR":5,"dogVisibilityR":5,"dogScaryTurns":2,"sheepStandBy":99}
    .....
    ....@
    *....`;
  const end = (s: SmartDogState) => {
    send(s, 1, 'end');
    send(s, 2, 'end');
    endTurn(s);
  };

  it('panic: from the barker’s own territory; from the next turn, for dogScaryTurns turns, no move and no bark', () => {
    const s = setup({ map: MAP, players: 2 });
    assert.deepEqual(send(s, 1, 'do 1 bark'), ['']);
    assert.deepEqual(send(s, 2, 'do 2 move up'), [''], 'a dog barked at acts normally for the rest of the turn');
    send(s, 2, 'do 2 move down');
    end(s);
    for (const t of [2, 3]) {
      assert.equal(s.turn, t);
      assert.deepEqual(send(s, 2, 'do 2 move down', 'do 2 bark'), [
        'warning 2 Cannot move - scared :(',
        'warning 2 Cannot bark because fighted by another dog',
      ]);
      end(s);
    }
    assert.deepEqual(send(s, 2, 'do 2 move down', 'do 2 bark'), ['', '']);
  });

  it('indignant: a bark from inside the listener’s territory; it may move but not bark', () => {
    const s = setup({ map: MAP, players: 2 });
    assert.deepEqual(send(s, 1, 'do 1 move right', 'do 1 bark'), ['', '']);
    end(s);
    assert.deepEqual(send(s, 2, 'do 2 bark', 'do 2 move up'), ['warning 2 Cannot bark because fighted by another dog', '']);
  });

  it('simultaneous barks scare both dogs; an already scared dog switches kind at once', () => {
    const s = setup({ map: MAP, players: 2 });
    assert.deepEqual(send(s, 1, 'do 1 bark'), ['']);
    assert.deepEqual(send(s, 2, 'do 2 bark'), ['']);
    end(s);
    assert.deepEqual(send(s, 1, 'do 1 move up'), ['warning 1 Cannot move - scared :(']);
    assert.deepEqual(send(s, 2, 'do 2 move up'), ['warning 2 Cannot move - scared :(']);
    // Dog 1 is scared itself and cannot bark; so the switch is shown with a fresh game.
    const t = setup({ map: MAP, players: 2 });
    send(t, 1, 'do 1 bark');
    end(t);
    assert.deepEqual(send(t, 2, 'do 2 move up'), ['warning 2 Cannot move - scared :(']);
    assert.deepEqual(send(t, 1, 'do 1 move right', 'do 1 bark'), ['', '']);
    assert.deepEqual(send(t, 2, 'do 2 move up', 'do 2 bark'), ['', 'warning 2 Cannot bark because fighted by another dog'], 'panic became indignant at once');
    end(t);
    end(t);
    assert.deepEqual(send(t, 2, 'do 2 bark'), ['warning 2 Cannot bark because fighted by another dog'], 'the counter restarted at the end of turn 2');
    end(t);
    assert.deepEqual(send(t, 2, 'do 2 bark'), ['']);
  });

  it('an ally’s bark clears the scare at the end of the turn; an enemy bark in the same turn wins', () => {
    // Player 1: dogs 1 (0,0), 2 (2,0), 3 (4,0); player 2: dogs 4 (6,0), 5 (8,0), 6 (10,0). Radius 2.
    const map = `{"dogBarkingR":2,"dogVisibilityR":2,"dogScaryTurns":3,"sheepStandBy":99}
      @.@.@.
      *.....`;
    const s = setup({ map, players: 2 });
    assert.deepEqual(send(s, 2, 'do 4 bark'), ['']);
    end(s);
    assert.deepEqual(send(s, 1, 'do 3 move down'), ['warning 3 Cannot move - scared :(']);
    assert.deepEqual(
      send(s, 1, 'do 2 bark', 'do 3 bark', 'do 3 move down'),
      ['', 'warning 3 Cannot bark because fighted by another dog', 'warning 3 Cannot move - scared :('],
      'scared for the rest of the turn',
    );
    end(s);
    assert.deepEqual(send(s, 1, 'do 3 bark'), [''], 'cleared by the ally');
    assert.deepEqual(send(s, 2, 'do 4 bark'), ['']);
    assert.deepEqual(send(s, 1, 'do 2 bark'), ['']);
    end(s);
    assert.deepEqual(send(s, 1, 'do 3 move down'), ['warning 3 Cannot move - scared :(']);
    assert.deepEqual(send(s, 1, 'do 1 move left'), [''], 'dogs of the same player never scare each other');
  });
});
