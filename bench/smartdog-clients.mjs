// Trivial smart-dog clients for the TCP load benchmark: node smartdog-clients.mjs PORT COUNT HUB
// Each connects, joins, and answers every turn with `end`; the process exits when all are finished.
import { createConnection } from 'node:net';
import { createInterface } from 'node:readline';

const [port, count, hub] = process.argv.slice(2);
let left = Number(count);
for (let i = 0; i < Number(count); i++) {
  const s = createConnection(Number(port), '127.0.0.1');
  s.setNoDelay(true);
  s.on('connect', () => s.write(`join c${i} ${hub}\n`));
  createInterface({ input: s }).on('line', (line) => {
    if (line === 'turn') s.write('end\n');
    else if (line.startsWith('finished ')) {
      s.end();
      if (--left === 0) process.exit(0);
    }
  });
}
