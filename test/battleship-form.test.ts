import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { request } from 'undici';
import { runMatch } from '../src/arena/run-match.js';
import { verifyReplay } from '../src/core/replay.js';
import { getGame } from '../src/games/index.js';

describe('Battleship over the 2015 form dialect', () => {
  it('plays a whole match with a form-encoded bot (http+form://) against a JSON one', async () => {
    const server = spawn(process.execPath, ['test/fixtures/battleship/form-bot.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [port] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
      const { replay } = await runMatch({ game: 'battleship', seed: 828, seats: [{ bot: `http+form://127.0.0.1:${port}/` }, { bot: 'random' }] });
      assert.deepEqual(replay.result.faults, [null, null]);
      assert.equal(replay.result.winner, 0, replay.result.reason); // the sweep finds every ship before random does
      verifyReplay(getGame('battleship'), replay);
      const seen = JSON.parse(await (await request(`http://127.0.0.1:${port}/seen`)).body.text()) as { contentType: string; fields: Record<string, string> }[];
      assert.equal(seen[0]!.contentType, 'application/x-www-form-urlencoded');
      assert.deepEqual(seen[0]!.fields, {
        game: 'Battleship',
        match_id: '828-1',
        act: 'init',
        opponent: 'random',
        width: '10',
        height: '10',
        ship1: '0',
        ship2: '1',
        ship3: '2',
        ship4: '1',
        ship5: '1',
        ship6: '0',
      });
      assert.equal(seen[1]!.fields.act, 'fight');
      assert.equal(seen[1]!.fields.your_strikes, '[]');
      assert.equal(JSON.parse(seen[2]!.fields.your_strikes!)[0].target, '0,0');
      const shots = replay.turns.filter((t) => t.phase === 'play' && t.moves[0]!.slot === 0).length;
      assert.equal(seen.length, 1 + shots, 'one init and one request per shot');
    } finally {
      server.kill();
    }
  });
});
