import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tictactoe } from '../games/tictactoe/index.js';
import { defaultBotName, parseBotSpec } from './schemes.js';

describe('bot specs', () => {
  it('reads every form', () => {
    assert.deepEqual(parseBotSpec('http://127.0.0.1:8080/bot', tictactoe), {
      transport: 'http',
      url: 'http://127.0.0.1:8080/bot',
      dialect: 'json',
      raw: 'http://127.0.0.1:8080/bot',
    });
    assert.equal(parseBotSpec('HTTPS://example.org/', tictactoe).transport, 'http');
    assert.deepEqual(parseBotSpec('stdio:python3 bot.py --fast', tictactoe), {
      transport: 'stdio',
      command: 'python3 bot.py --fast',
      dialect: 'json',
      raw: 'stdio:python3 bot.py --fast',
    });
    assert.deepEqual(parseBotSpec('exec:./bot', tictactoe), { transport: 'exec', command: './bot', dialect: 'json', raw: 'exec:./bot' });
    assert.deepEqual(parseBotSpec('file://./bot.sh', tictactoe), { transport: 'exec', command: './bot.sh', dialect: 'json', raw: 'file://./bot.sh' });
    assert.deepEqual(parseBotSpec('builtin:minimax', tictactoe), { transport: 'builtin', name: 'minimax', raw: 'builtin:minimax' });
    assert.deepEqual(parseBotSpec('random', tictactoe), { transport: 'builtin', name: 'random', raw: 'random' });
    assert.deepEqual(parseBotSpec('human', tictactoe), { transport: 'human', raw: 'human' });
  });

  it('explains what is wrong', () => {
    assert.throws(() => parseBotSpec('http+form://x/', tictactoe), /tictactoe has no wire dialect "form"; it has: json/);
    assert.throws(() => parseBotSpec('stdio:', tictactoe), /has no command after the colon/);
    assert.throws(() => parseBotSpec('http://exa mple:99999/', tictactoe), /is not a valid URL/);
    assert.throws(() => parseBotSpec('alphabeta', tictactoe), /no built-in bot "alphabeta"; its built-in bots are: random, minimax/);
    assert.throws(() => parseBotSpec('python3 bot.py', tictactoe), /write stdio:python3 bot\.py or exec:python3 bot\.py[\s\S]*bot specs:/);
  });

  it('names seats after what they run', () => {
    const name = (s: string) => defaultBotName(parseBotSpec(s, tictactoe));
    assert.equal(name('minimax'), 'minimax');
    assert.equal(name('stdio:python3 ./my_bot.py'), 'my_bot');
    assert.equal(name('stdio:python3 examples/tictactoe-python/bot.py'), 'tictactoe-python');
    assert.equal(name('exec:./alpha'), 'alpha');
    // Quoted words lose their quotes (the name used to be "tictactoe-python'"), and a quoted path keeps its spaces.
    assert.equal(name("stdio:cd 'examples/tictactoe-python' && python3 bot.py"), 'tictactoe-python');
    assert.equal(name('stdio:cd "my bots/fast" && node bot.mjs'), 'fast');
    assert.equal(name("stdio:python3 'my folder/my bot.py'"), 'my bot');
    assert.equal(name('http://127.0.0.1:8123/'), '127.0.0.1:8123');
  });
});
