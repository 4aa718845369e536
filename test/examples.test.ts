import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { ROOT, runCli, withConnectingClient } from './run-cli.js';

interface JsonResult {
  winner: number | null;
  draw: boolean;
  players: { fault: unknown; rank: number }[];
}

async function play(args: string[]): Promise<JsonResult> {
  const r = await runCli(['play', ...args, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as JsonResult;
}

describe('examples, run the way their READMEs say', () => {
  const servers: ChildProcess[] = [];
  after(() => servers.forEach((s) => s.kill()));

  it('the Python tic-tac-toe bot over stdio never loses to random and never faults', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const asX = await play(['tictactoe', 'stdio:python3 examples/tictactoe-python/bot.py', 'random', '--seed', String(seed)]);
      assert.deepEqual(
        asX.players.map((p) => p.fault),
        [null, null],
      );
      assert.equal(asX.players[0]!.rank, 1, `lost as X with seed ${seed}`);
    }
    const vsPerfect = await play(['tictactoe', 'random', 'stdio:python3 examples/tictactoe-python/bot.py', '--seed', '9']);
    assert.equal(vsPerfect.players[1]!.fault, null);
  });

  it('the Node Connect Four bot over HTTP beats random', async () => {
    const server = spawn(process.execPath, ['examples/connect4-node-http/bot.mjs', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    servers.push(server);
    const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
    const url = /listening on (http:\S+)/.exec(line)![1]!;
    let wins = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = await play(['connect4', url, 'random', '--seed', String(seed)]);
      assert.equal(r.players[0]!.fault, null);
      wins += Number(r.winner === 0);
    }
    assert.ok(wins >= 4, `won ${wins} of 5`);
  });

  it('the Python lighthouses bot over stdio beats random on the default map', async () => {
    for (const seed of [1, 3]) {
      const r = await play(['lighthouses', 'stdio:python3 examples/lighthouses-python/bot.py', 'random', '--seed', String(seed)]);
      assert.equal(r.winner, 0, `seed ${seed}`);
    }
  });

  it('the smart-dog starter client joins over TCP and plays a whole game without a fault', async () => {
    const { run, clientCode } = await withConnectingClient(['play', 'smartdog', 'tcp', 'herder', '--json'], 'examples/smartdog-node/client.mjs');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(clientCode, 0, 'the client exits by itself after "finished"');
    const j = JSON.parse(run.stdout) as { turns: number; players: { name: string; fault: unknown }[] };
    assert.equal(j.turns, 100);
    assert.deepEqual([j.players[0]!.name, j.players[0]!.fault], ['starter', null]);
  });

  it('the TypeScript SDK bot over stdio plays a whole game', async () => {
    const r = await play(['connect4', 'stdio:node --import tsx examples/connect4-ts-sdk/bot.ts', 'random', '--seed', '3']);
    assert.equal(r.players[0]!.fault, null);
  });
});
