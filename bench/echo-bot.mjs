// A trivial bot for transport benchmarks: over stdio it echoes each line; with --http PORT it serves
// POST bodies back. Either way the answer is the message itself, so only the transport is measured.
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

if (process.argv[2] === '--http') {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(Buffer.concat(chunks));
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
    process.stdout.write(`${server.address().port}\n`);
  });
} else {
  createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(line + '\n'));
}
