import { randomInt } from 'node:crypto';
import WebSocket from 'ws';
import { seatContext } from '../arena/seat.js';
import { createTransport, parseBotSpec, schemeOf, type AskMessage, type BotSpec, type BotTransport } from '../bots/index.js';
import { UsageError } from '../core/errors.js';
import type { AnyGame, AskPhase, Phase } from '../core/game.js';
import { games } from '../games/index.js';

// `botarena connect`: the author's side of a bot's link to a server (the server's side: matches/links.ts, the
// protocol: docs/connect.md). One WebSocket out; for each match the server seats the bot in, the local bot (the
// one BOT spec given) is driven through its own transport with the server's wire messages, and its answers go
// back. Only that bot runs here: nothing the server sends is run.

/** How the client runs. */
export interface ConnectOptions {
  /** the server's base URL (http(s)://host:port) */
  server: string;
  botId: string;
  token: string;
  /** the local bot (stdio:…, http://…, a built-in) */
  bot: string;
  /** matches at once this side runs, at most (default: the bot's capacity, which the server says) */
  maxMatches?: number;
  /** the largest message taken from the server (default 16 MiB): a bigger one closes the link */
  maxMessageBytes?: number;
  /** a line for the person (started, ended, link lost) */
  say: (line: string) => void;
  /** stops it (Ctrl-C) */
  signal: AbortSignal;
  /** reconnecting: the first wait and the longest (default 1 s and 30 s) */
  backoff?: { firstMs: number; maxMs: number };
}

/** The most matches this side runs at once whatever the server says: each may start a process. */
export const MAX_LOCAL_MATCHES = 64;

interface Session {
  match: string;
  slot: number;
  transport: BotTransport;
  started: Promise<void>;
  game: AnyGame;
  spec: BotSpec;
  /** the asks of the seat, one after the other */
  chain: Promise<void>;
}

/** The server's URL for a bot's link: ws(s)://host/api/bots/ID/connect. */
export function linkUrl(server: string, botId: string): string {
  let u: URL;
  try {
    u = new URL(server);
  } catch {
    throw new UsageError(`SERVER ${JSON.stringify(server)} is not a URL: give the server's address, e.g. https://arena.example.org or http://127.0.0.1:8080`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'ws:' && u.protocol !== 'wss:')
    throw new UsageError(`SERVER ${JSON.stringify(server)}: expected an http(s):// address`);
  const ws = u.protocol === 'https:' || u.protocol === 'wss:' ? 'wss:' : 'ws:';
  const base = u.pathname.replace(/\/(api\/)?bots\/[^/]+\/?(connect\/?)?$/, '').replace(/\/+$/, '');
  return `${ws}//${u.host}${base}/api/bots/${encodeURIComponent(botId)}/connect`;
}

/** The bot id named in SERVER (…/bots/ID or …/api/bots/ID), when it names one. */
export function botIdIn(server: string): string | null {
  try {
    return /\/(?:api\/)?bots\/([^/]+)\/?(?:connect\/?)?$/.exec(new URL(server).pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * Links the bot and plays until `signal` aborts: reconnects with backoff after a drop (1 s, doubling up to 30 s;
 * back to 1 s after a link that said hello). Resolves when stopped; rejects with a UsageError when the server
 * refuses for good (a wrong token, no such bot, not a `connect:` bot) or the BOT spec is not one of the game's.
 */
export async function runConnect(o: ConnectOptions): Promise<void> {
  const url = linkUrl(o.server, o.botId);
  const backoff = o.backoff ?? { firstMs: 1000, maxMs: 30_000 };
  let wait = backoff.firstMs;
  while (!o.signal.aborted) {
    const outcome = await linkOnce(url, o);
    if (outcome.fatal) throw new UsageError(outcome.fatal);
    if (o.signal.aborted) break;
    if (outcome.helloed) wait = backoff.firstMs;
    o.say(`link lost (${outcome.why}); connecting again in ${(wait / 1000).toFixed(wait < 1000 ? 1 : 0)} s`);
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, wait);
      o.signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
    wait = Math.min(wait * 2, backoff.maxMs);
  }
}

/** One link, from connecting to its end: why it ended, whether it said hello, or why not to try again. */
function linkOnce(url: string, o: ConnectOptions): Promise<{ why: string; helloed: boolean; fatal?: string }> {
  return new Promise((resolve) => {
    const sessions = new Map<string, Session>();
    let helloed = false;
    let game: AnyGame | null = null;
    let spec: BotSpec | null = null;
    let capacity = 1;
    let pingMs = 20_000;
    let said: string | null = null;
    let fatal: string | undefined;
    let settled = false;
    const maxPayload = o.maxMessageBytes ?? 16 * 1024 * 1024;
    const ws = new WebSocket(url, {
      headers: { authorization: `Bearer ${o.token}` },
      maxPayload,
      handshakeTimeout: 15_000,
    });
    // The server pings every pingMs; silence for twice that and more means the link is dead (a cut network).
    let silence: NodeJS.Timeout | null = null;
    const heard = () => {
      if (silence) clearTimeout(silence);
      silence = setTimeout(() => ws.terminate(), 2 * pingMs + 5000);
      silence.unref();
    };
    const send = (m: Record<string, unknown>) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
    };
    const finish = (why: string) => {
      if (settled) return;
      settled = true;
      if (silence) clearTimeout(silence);
      o.signal.removeEventListener('abort', onAbort);
      for (const s of sessions.values()) void s.transport.close(false).catch(() => {});
      for (const s of sessions.values()) o.say(`match ${s.match} ended: the link was lost, so the server ends it by the game's fault rule`);
      sessions.clear();
      resolve({ why: said ?? why, helloed, fatal });
    };
    const onAbort = () => ws.close(1000, 'the author stopped botarena connect');
    o.signal.addEventListener('abort', onAbort, { once: true });

    ws.on('unexpected-response', (_req, res) => {
      // Refused before the upgrade: the server's JSON error says why (read capped).
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        if (body.length < 4096) body += d;
      });
      res.on('end', () => {
        let message = body.slice(0, 1000);
        try {
          message = (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? message;
        } catch {
          // not JSON: said as it is
        }
        const status = res.statusCode ?? 0;
        // A wrong token, no such bot, a bot that is not `connect:`: trying again changes nothing.
        if ([400, 401, 403, 404, 409].includes(status)) fatal = `the server refused the link (${status}): ${message}`;
        finish(`the server answered ${status}: ${message}`);
        ws.terminate();
      });
    });
    let opened = false;
    ws.on('open', () => ((opened = true), heard()));
    ws.on('ping', heard);
    ws.on('error', (err: Error & { code?: string }) =>
      finish(
        err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
          ? `the server sent a message over ${maxPayload} bytes, the most this client takes`
          : opened
            ? `link error: ${err.message}`
            : `cannot reach ${url}: ${err.message}`,
      ),
    );
    ws.on('close', (code, reason) => finish(`closed by the server: ${code}${reason.length ? ` ${reason.toString()}` : ''}`));
    ws.on('message', (data, isBinary) => {
      heard();
      if (isBinary) return;
      let m: Record<string, unknown>;
      try {
        m = JSON.parse(String(data)) as Record<string, unknown>;
      } catch {
        return;
      }
      if (m === null || typeof m !== 'object') return;
      switch (m.type) {
        case 'hello': {
          const bot = m.bot as { id?: string; name?: string; game?: string } | undefined;
          const g = typeof bot?.game === 'string' && Object.hasOwn(games, bot.game) ? games[bot.game]! : null;
          if (!g) {
            fatal = `the server's bot plays ${JSON.stringify(bot?.game)}, a game this botarena does not know (update botarena?)`;
            return ws.close(1000, 'unknown game');
          }
          try {
            spec = parseBotSpec(o.bot, g);
          } catch (err) {
            fatal = `BOT ${JSON.stringify(o.bot)} for ${g.id}: ${(err as Error).message}`;
            return ws.close(1000, 'bad bot spec');
          }
          if (schemeOf(spec).fromConnection || spec.transport === 'human') {
            fatal = `BOT ${JSON.stringify(o.bot)}: give the bot this machine runs (stdio:COMMAND, http://localhost:…, a built-in)`;
            return ws.close(1000, 'bad bot spec');
          }
          game = g;
          helloed = true;
          const cap = Number(m.capacity);
          capacity = Math.min(o.maxMatches ?? (Number.isSafeInteger(cap) && cap > 0 ? cap : 1), MAX_LOCAL_MATCHES);
          const p = Number(m.pingMs);
          if (Number.isFinite(p) && p >= 100 && p <= 600_000) pingMs = p;
          heard();
          o.say(`linked as ${String(bot?.name)} (${g.id}) to ${o.server}: playing ${o.bot}, ${capacity} match${capacity === 1 ? '' : 'es'} at once at most`);
          return;
        }
        case 'refused':
        case 'cut':
          said = String(m.message).slice(0, 1000);
          o.say(`the server: ${said}`);
          return;
        case 'start':
          return start(m);
        case 'ask':
          return ask(m);
        case 'tell': {
          const s = sessions.get(key(m));
          if (!s || typeof m.message !== 'string') return;
          const text = m.message;
          s.chain = s.chain.then(() =>
            s.transport.tell({ phase: String(m.phase) as Phase, turn: Number(m.turn) || 0, view: tryJson(text), text, contentType: 'application/json' }, 1000),
          );
          return;
        }
        case 'end': {
          const s = sessions.get(key(m));
          if (!s) return;
          sessions.delete(key(m));
          void s.chain.then(() => s.transport.close(true)).catch(() => {});
          o.say(`match ${s.match} ended: ${ending(m, s.slot)}`);
          return;
        }
        default:
          return; // a message of a later protocol: ignored
      }
    });

    function start(m: Record<string, unknown>): void {
      if (!game || !spec || typeof m.match !== 'string' || !Number.isSafeInteger(m.slot)) return;
      const k = key(m);
      if (sessions.has(k)) return;
      if (sessions.size >= capacity) {
        // A server asking past the capacity gets faults for that match's asks; nothing more is started here.
        o.say(`match ${m.match} refused: ${sessions.size} matches run here already, the most at once (${capacity})`);
        return;
      }
      if (m.game !== game.id) return;
      const slot = m.slot as number;
      const players = Number.isSafeInteger(m.players) ? (m.players as number) : game.players.min;
      const config = m.config !== null && typeof m.config === 'object' && !Array.isArray(m.config) ? (m.config as Record<string, unknown>) : {};
      // The match's own seed stays on the server; a built-in bot gets one of its own here.
      const ctx = seatContext(game, { slot, players, config, seed: randomInt(2 ** 31), name: String(m.name ?? 'bot'), log: () => {} });
      const transport = createTransport(spec, ctx);
      const s: Session = { match: m.match, slot, transport, started: transport.start(), game, spec, chain: Promise.resolve() };
      s.chain = s.started;
      sessions.set(k, s);
      const dialect = typeof m.dialect === 'string' ? m.dialect : 'json';
      const mine = 'dialect' in spec ? spec.dialect : 'json';
      o.say(
        `match ${m.match} started: ${game.id}, seat ${slot} of ${players}${dialect !== mine ? ` (the server writes the ${dialect} dialect, and ${o.bot} speaks ${mine}: its answers may not be read)` : ''}`,
      );
    }

    function ask(m: Record<string, unknown>): void {
      const s = sessions.get(key(m));
      const n = m.n;
      if (!Number.isSafeInteger(n)) return;
      const reply = (r: Record<string, unknown>) => send({ match: m.match, slot: m.slot, n, ...r });
      if (!s) {
        if (typeof m.match === 'string' && Number.isSafeInteger(m.slot))
          reply({ type: 'fault', kind: 'transport', detail: 'this client runs no such match (it was refused here: past its matches at once)' });
        return;
      }
      if (typeof m.message !== 'string') return;
      const text = m.message;
      const timeoutMs = Math.min(Math.max(Number(m.timeoutMs) || 1000, 1), 3_600_000);
      const values = s.transport.capabilities.values;
      const msg: AskMessage = {
        phase: String(m.phase) as AskPhase,
        turn: Number(m.turn) || 0,
        view: values ? tryJson(text) : null,
        text,
        contentType: 'application/json',
      };
      s.chain = s.chain.then(async () => {
        const r = await s.transport
          .ask(msg, timeoutMs)
          .catch((err: unknown) => ({ kind: 'fault' as const, fault: { kind: 'crash' as const, detail: String(err) }, ms: 0 }));
        if (r.kind === 'text') reply({ type: 'answer', text: r.text });
        else if (r.kind === 'value') reply({ type: 'answer', text: JSON.stringify(r.value) ?? 'null' });
        else reply({ type: 'fault', kind: r.fault.kind, detail: r.fault.detail });
      });
    }
  });
}

function key(m: Record<string, unknown>): string {
  return `${String(m.match)}:${String(m.slot)}`;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The end of a match in words, for the seat `slot`: its rank, its score, its fault. */
function ending(m: Record<string, unknown>, slot: number): string {
  const r = m.result as
    | { draw?: boolean; players?: { slot: number; name: string; rank: number; score: number | null; fault: { kind: string; detail: string } | null }[] }
    | undefined;
  const me = r?.players?.find((p) => p.slot === slot);
  if (!r || !me) return String(m.reason ?? 'over');
  const n = r.players!.length;
  const how = r.draw ? 'draw' : me.rank === 1 ? 'won' : 'lost';
  const others = r
    .players!.filter((p) => p.slot !== slot)
    .map((p) => p.name)
    .join(', ');
  return `${how} (rank ${me.rank} of ${n}${me.score !== null ? `, score ${me.score}` : ''}) against ${others}${me.fault ? `; its fault: ${me.fault.kind}: ${me.fault.detail}` : ''}`;
}
