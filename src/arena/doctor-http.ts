// The doctor's HTTP checks: two requests of the first message on one connection (status, content type,
// keep-alive), beside the feed that judged the answers (doctor.ts).
import { ForbiddenAddressError, hostRefusal, publicOnlyLookup, type AddressPolicy } from '../bots/index.js';
import { MatchEngine } from '../core/engine.js';
import { QUOTED_CHARS, type AnyGame, type WireDialect } from '../core/game.js';
import type { Replay } from '../core/replay.js';
import { clip, type DoctorCheck } from './doctor-report.js';
import { deadlineFor } from './seat.js';

/** HTTP specifics, from two requests of the first message on one connection: status, content type, keep-alive. */
export async function httpChecks(
  url: string,
  dialect: WireDialect<unknown, unknown, unknown>,
  game: AnyGame,
  replay: Replay,
  policy: AddressPolicy = 'any',
): Promise<DoctorCheck[]> {
  // node:https for https:// bots: the same requests over TLS (the request and agent APIs are the same).
  const http = new URL(url).protocol === 'https:' ? await import('node:https') : await import('node:http');
  // Its own connections follow the seat's address policy too (a name may resolve elsewhere since the feed).
  const publicOnly = policy === 'public-only';
  const refused = publicOnly ? hostRefusal(new URL(url).hostname) : null;
  const engine = new MatchEngine(game, { config: replay.config, seed: replay.seed, players: replay.seats.length });
  const d = engine.decision()!;
  const text = dialect.encode(engine.state, d.seats[0]!, { matchId: replay.matchId, names: replay.seats.map((s) => s.name), phase: d.phase });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = () =>
    new Promise<{ status: number; type: string | undefined; reused: boolean; connection: string | undefined }>((resolve, reject) => {
      if (refused) return reject(new ForbiddenAddressError(refused));
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          lookup: publicOnly ? publicOnlyLookup() : undefined,
          headers: { 'content-type': dialect.contentType },
          timeout: deadlineFor(d, replay.timeouts),
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], reused: req.reusedSocket, connection: res.headers.connection }),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error('no answer within the deadline')));
      req.on('error', reject);
      req.end(text);
    });
  try {
    const one = await post();
    const two = await post();
    const checks: DoctorCheck[] = [];
    checks.push(
      one.status === 200
        ? { name: 'HTTP status', status: 'pass', detail: '200' }
        : {
            name: 'HTTP status',
            status: 'warn',
            detail: `${one.status}: Botarena reads the body whatever the status, but proxies and other arenas may not`,
            fix: 'answer with status 200 and the move as the body',
          },
    );
    checks.push(
      one.type
        ? { name: 'HTTP content type', status: 'pass', detail: clip(one.type, QUOTED_CHARS) } // the report is public: a header is quoted as an answer is
        : {
            name: 'HTTP content type',
            status: 'warn',
            detail: 'the answer has no Content-Type',
            fix: 'send Content-Type: application/json (or text/plain for a bare answer)',
          },
    );
    checks.push(
      two.reused
        ? { name: 'HTTP keep-alive', status: 'pass', detail: 'the connection is kept between messages' }
        : {
            name: 'HTTP keep-alive',
            status: 'warn',
            detail: `each message needs a new connection${one.connection ? ` (Connection: ${clip(one.connection, QUOTED_CHARS)})` : ''}: a connect per turn adds to every answer's time`,
            fix: 'keep connections open (HTTP/1.1 keep-alive is the default of most servers: do not send Connection: close)',
          },
    );
    return checks;
  } catch (err) {
    return [
      {
        name: 'HTTP',
        status: 'fail',
        detail: `a direct request of the first message failed: ${(err as Error).message}`,
        fix: 'answer POST requests at that URL',
      },
    ];
  } finally {
    agent.destroy();
  }
}
