// A Connect Four bot in TypeScript with Botarena's SDK, over stdio: plays the first column, from the
// centre out, that is not full. Run it with:
//   bin/botarena play connect4 "stdio:node --import tsx examples/connect4-ts-sdk/bot.ts" random
// `botarena/sdk` is the installed package's SDK (here, the repository's own build: a package may import itself by name).
import { serveStdio, type ConnectFourAnswer, type ConnectFourMessage, type InitAnswer } from 'botarena/sdk';

await serveStdio((m: ConnectFourMessage): InitAnswer | ConnectFourAnswer => {
  if (m.action === 'init') return { name: 'ts-sdk-example' };
  const top = m.board[m.board.length - 1]!;
  return { play: [3, 2, 4, 1, 5, 0, 6].find((c) => top[c] === '')! };
});
