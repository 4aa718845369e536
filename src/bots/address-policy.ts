import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';

/**
 * Which addresses an HTTP(S) bot may be called at. `any`: wherever its URL points (the CLI plays bots on
 * this machine). `public-only`: never loopback, private, link-local, metadata or other non-public
 * addresses, so an arena that lets anyone register a bot by URL cannot be made to call into its own
 * network. The check is on the address actually connected to, at every connect (a name that resolved to a
 * public address when the bot was registered and to 127.0.0.1 now is refused now).
 */
export type AddressPolicy = 'any' | 'public-only';

/** What every refusal ends with, so a person reading a fault knows it is the arena's rule, not the bot's failure. */
export const PUBLIC_ONLY = '(this arena only calls public addresses; its operator may allow others with --allow-private-bots)';

/** Why a connection was not made: the address (or name) is not public. `reason` says which and why. */
export class ForbiddenAddressError extends Error {
  override name = 'ForbiddenAddressError';
  readonly code = 'ERR_FORBIDDEN_ADDRESS';

  constructor(readonly reason: string) {
    super(`${reason} ${PUBLIC_ONLY}`);
  }
}

/** A range of addresses as a prefix (its first address's bits and its length), with what it is. */
interface Range {
  bits: bigint;
  length: number;
  /** what an address of the range is, as in "127.0.0.1 is a loopback address" */
  what: string;
}

const v4 = (cidr: string, what: string): Range => {
  const [ip, len] = cidr.split('/');
  return { bits: ipv4Bits(ip!), length: Number(len), what };
};
const v6 = (cidr: string, what: string): Range => {
  const [ip, len] = cidr.split('/');
  return { bits: ipv6Bits(ip!), length: Number(len), what };
};

/**
 * The IPv4 addresses that are not public (IANA's special-purpose registry, "globally reachable: false",
 * plus multicast). The first match names the reason, so the metadata addresses come before their ranges.
 */
const IPV4_RANGES: readonly Range[] = [
  v4('169.254.169.254/32', 'the cloud metadata address (link-local)'),
  v4('169.254.170.2/32', 'a cloud metadata address (link-local, container credentials)'),
  v4('100.100.100.200/32', 'a cloud metadata address (shared address space)'),
  v4('0.0.0.0/8', "a 'this host' address (0.0.0.0/8 reaches this machine)"),
  v4('127.0.0.0/8', 'a loopback address'),
  v4('10.0.0.0/8', 'a private address'),
  v4('172.16.0.0/12', 'a private address'),
  v4('192.168.0.0/16', 'a private address'),
  v4('169.254.0.0/16', 'a link-local address'),
  v4('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  v4('192.0.0.0/24', 'an IETF protocol address'),
  v4('192.0.2.0/24', 'a documentation address'),
  v4('198.51.100.0/24', 'a documentation address'),
  v4('203.0.113.0/24', 'a documentation address'),
  v4('198.18.0.0/15', 'a benchmarking address'),
  v4('224.0.0.0/4', 'a multicast address'),
  v4('255.255.255.255/32', 'the broadcast address'),
  v4('240.0.0.0/4', 'a reserved address'),
];

/** IPv6 ranges that carry an IPv4 address in their last 32 bits (6to4 is apart: its IPv4 is in bits 16–47). */
const IPV4_CARRIERS: readonly Range[] = [v6('::ffff:0:0/96', 'an IPv4-mapped address'), v6('64:ff9b::/96', 'a NAT64 address')];
const SIX_TO_FOUR = v6('2002::/16', 'a 6to4 address');

/** The IPv6 addresses that are not public; anything outside 2000::/3 not named here is not global unicast either. */
const IPV6_RANGES: readonly Range[] = [
  v6('::/128', 'the unspecified address (it reaches this machine)'),
  v6('::1/128', 'the loopback address'),
  v6('::/96', 'an IPv4-compatible address (deprecated)'),
  v6('64:ff9b:1::/48', 'a local-use NAT64 address'),
  v6('100::/64', 'a discard-only address'),
  v6('2001:db8::/32', 'a documentation address'),
  v6('fd00:ec2::254/128', 'a cloud metadata address (unique local)'),
  v6('fc00::/7', 'a unique local (private) address'),
  v6('fe80::/10', 'a link-local address'),
  v6('fec0::/10', 'a site-local address (deprecated)'),
  v6('ff00::/8', 'a multicast address'),
];
const GLOBAL_UNICAST = v6('2000::/3', 'global unicast');

/**
 * Why an IP address may not be called under `public-only` ("127.0.0.1 is a loopback address"), or null
 * when it is public. IPv6 addresses that carry an IPv4 one (mapped, NAT64, 6to4) are judged by it. Anything
 * that is not an IP address is refused too (this judges addresses, not names).
 */
export function isForbiddenAddress(ip: string): string | null {
  const why = forbidden(ip);
  return why && `${why.addr} is ${why.what}`;
}

/** What a forbidden address is ("a loopback address"), with the address as written (no brackets), or null. */
function forbidden(ip: string): { addr: string; what: string } | null {
  const addr = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const is = (what: string | null) => (what ? { addr, what } : null);
  if (isIPv4(addr)) return is(match(ipv4Bits(addr), 32, IPV4_RANGES));
  const plain = addr.replace(/%.*$/, ''); // a zone (fe80::1%eth0) says which interface, not which address
  if (!isIPv6(plain)) return is('not an IP address');
  const bits = ipv6Bits(plain);
  const carrier = IPV4_CARRIERS.find((r) => inRange(bits, 128, r));
  const embedded = carrier ? bits & 0xffffffffn : inRange(bits, 128, SIX_TO_FOUR) ? (bits >> 80n) & 0xffffffffn : null;
  if (embedded !== null) {
    const hit = match(embedded, 32, IPV4_RANGES);
    return is(hit && `${(carrier ?? SIX_TO_FOUR).what} of ${bitsToIpv4(embedded)}, ${hit}`);
  }
  return is(match(bits, 128, IPV6_RANGES) ?? (inRange(bits, 128, GLOBAL_UNICAST) ? null : 'a reserved address (not global unicast)'));
}

/**
 * Why a host (a URL's hostname, an IP literal with or without brackets) may not be called under
 * `public-only`, judged without DNS: an IP literal by its address, `localhost` and `*.localhost` as the
 * loopback names they are. Null for any other name: it is judged when it is resolved, at connect time.
 */
export function hostRefusal(host: string): string | null {
  const name = host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(name.replace(/%.*$/, ''))) return isForbiddenAddress(name);
  if (name === 'localhost' || name.endsWith('.localhost')) return `${host} is a loopback name`;
  return null;
}

/** Resolves a name to every address it has (IPv4 and IPv6), as `dns.lookup` does: the hosts file, then DNS. */
export type Resolve = (hostname: string, family: 0 | 4 | 6, hints?: number) => Promise<LookupAddress[]>;

export const resolveAll: Resolve = (hostname, family, hints) => dnsLookup(hostname, { all: true, family, hints });

/**
 * Why a URL may not be called under `public-only`, or null: a literal or loopback host is judged directly,
 * a name by every address it resolves to now. For a check before a bot is accepted; the connect-time check
 * (`publicOnlyLookup`) still runs at every connection, since a name may resolve elsewhere later. A name that
 * does not resolve rejects with the resolver's error (an invalid URL, with the URL parser's).
 */
export async function urlRefusal(url: string, resolve: Resolve = resolveAll): Promise<string | null> {
  const host = new URL(url).hostname;
  const direct = hostRefusal(host);
  if (direct || isIP(host.replace(/^\[(.*)\]$/, '$1'))) return direct;
  return addressesRefusal(host, await resolve(host, 0));
}

/** The refusal for a name's resolved addresses: the first forbidden one's (or an empty answer's). */
function addressesRefusal(host: string, addresses: LookupAddress[]): string | null {
  if (!addresses.length) return `${host} resolves to no address`;
  for (const a of addresses) {
    const why = forbidden(a.address);
    if (why) return `${host} resolves to ${why.addr}, ${why.what}`;
  }
  return null;
}

/**
 * A `lookup` for `net.connect` / `tls.connect` that lets a connection go only to public addresses: the name
 * is resolved (`resolve`, injectable for tests), and the connection is refused with a `ForbiddenAddressError`
 * when ANY of its addresses is forbidden. Picking only the public ones would also keep this connection off
 * the private ones, but a name that answers both is a rebinding trick or a misconfiguration, and refusing
 * makes the outcome the same whichever address the connection would have tried first (with Node's
 * happy-eyeballs family selection it may try several). The socket then connects to exactly the addresses
 * checked here, never resolving again.
 *
 * `net.connect` does not call `lookup` for an IP literal: check those with `hostRefusal` before connecting.
 */
export function publicOnlyLookup(resolve: Resolve = resolveAll): LookupFunction {
  return (hostname, options, callback) => {
    const fail = (err: NodeJS.ErrnoException) => process.nextTick(() => callback(err, ''));
    const named = hostRefusal(hostname);
    if (named) return fail(new ForbiddenAddressError(named));
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    resolve(hostname, family, options.hints).then((addresses) => {
      const why = addressesRefusal(hostname, addresses);
      if (why) callback(new ForbiddenAddressError(why), '');
      else if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    }, fail);
  };
}

/** The first range an address is in, as its description. */
function match(bits: bigint, width: number, ranges: readonly Range[]): string | null {
  return ranges.find((r) => inRange(bits, width, r))?.what ?? null;
}

function inRange(bits: bigint, width: number, r: Range): boolean {
  const shift = BigInt(width - r.length);
  return bits >> shift === r.bits >> shift;
}

function ipv4Bits(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function bitsToIpv4(bits: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((bits >> s) & 0xffn)).join('.');
}

/** The 128 bits of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read as its two words). */
function ipv6Bits(ip: string): bigint {
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  const text = tail ? `${tail[1]}${(ipv4Bits(tail[2]!) >> 16n).toString(16)}:${(ipv4Bits(tail[2]!) & 0xffffn).toString(16)}` : ip;
  const [head, rest] = text.split('::') as [string, string | undefined];
  const words = (s: string) => (s ? s.split(':') : []);
  const h = words(head);
  const t = rest === undefined ? [] : words(rest);
  const all = rest === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return all.reduce((acc, w) => (acc << 16n) | BigInt(parseInt(w, 16)), 0n);
}
