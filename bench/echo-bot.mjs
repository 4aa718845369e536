// Trivial bots for the transport benchmarks; each answers with the message itself, so what is measured
// is the arena's side of the transport plus the least a bot can do.
//   node echo-bot.mjs                 stdio: echoes every chunk of stdin (lines come back as sent)
//   node echo-bot.mjs --http PORT     a node:http server echoing POST bodies
//   node echo-bot.mjs --raw-http PORT a minimal keep-alive HTTP/1.1 responder on a raw socket
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';

const mode = process.argv[2];
const ready = (server) => server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));

if (mode === '--http') {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(Buffer.concat(chunks));
    });
  });
  server.keepAliveTimeout = 60_000;
  ready(server);
} else if (mode === '--raw-http') {
  ready(
    createTcpServer((socket) => {
      socket.setNoDelay(true);
      let buf = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        buf = Buffer.concat([buf, chunk]);
        for (;;) {
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          const length = Number(/content-length:\s*(\d+)/i.exec(buf.subarray(0, end).toString())?.[1] ?? 0);
          if (buf.length < end + 4 + length) return;
          const body = buf.subarray(end + 4, end + 4 + length);
          socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`);
          socket.write(body);
          buf = buf.subarray(end + 4 + length);
        }
      });
    }),
  );
} else {
  process.stdin.on('data', (chunk) => process.stdout.write(chunk));
}
