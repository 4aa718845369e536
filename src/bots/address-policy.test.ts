import assert from 'node:assert/strict';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { describe, it } from 'node:test';
import { ForbiddenAddressError, hostRefusal, isForbiddenAddress, publicOnlyLookup, urlRefusal, type Resolve } from './address-policy.js';

/**
 * Each range: addresses at both edges (forbidden, with the words its reason must have) and just outside
 * (public, or forbidden for another reason: then the words of that one).
 */
const RANGES: { range: string; inside: [string, string][]; outside: [string, string | null][] }[] = [
  {
    range: '0.0.0.0/8',
    inside: [
      ['0.0.0.0', "'this host'"],
      ['0.255.255.255', "'this host'"],
    ],
    outside: [['1.0.0.0', null]],
  },
  {
    range: '10.0.0.0/8',
    inside: [
      ['10.0.0.0', 'private'],
      ['10.255.255.255', 'private'],
    ],
    outside: [
      ['9.255.255.255', null],
      ['11.0.0.0', null],
    ],
  },
  {
    range: '100.64.0.0/10',
    inside: [
      ['100.64.0.0', 'carrier-grade NAT'],
      ['100.127.255.255', 'carrier-grade NAT'],
    ],
    outside: [
      ['100.63.255.255', null],
      ['100.128.0.0', null],
    ],
  },
  {
    range: '127.0.0.0/8',
    inside: [
      ['127.0.0.0', 'loopback'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.255', 'loopback'],
    ],
    outside: [
      ['126.255.255.255', null],
      ['128.0.0.0', null],
    ],
  },
  {
    range: '169.254.0.0/16',
    inside: [
      ['169.254.0.0', 'link-local'],
      ['169.254.255.255', 'link-local'],
    ],
    outside: [
      ['169.253.255.255', null],
      ['169.255.0.0', null],
    ],
  },
  {
    range: '172.16.0.0/12',
    inside: [
      ['172.16.0.0', 'private'],
      ['172.31.255.255', 'private'],
    ],
    outside: [
      ['172.15.255.255', null],
      ['172.32.0.0', null],
    ],
  },
  {
    range: '192.0.0.0/24',
    inside: [
      ['192.0.0.0', 'IETF protocol'],
      ['192.0.0.255', 'IETF protocol'],
    ],
    outside: [
      ['191.255.255.255', null],
      ['192.0.1.0', null],
    ],
  },
  {
    range: '192.0.2.0/24',
    inside: [
      ['192.0.2.0', 'documentation'],
      ['192.0.2.255', 'documentation'],
    ],
    outside: [
      ['192.0.1.255', null],
      ['192.0.3.0', null],
    ],
  },
  {
    range: '192.168.0.0/16',
    inside: [
      ['192.168.0.0', 'private'],
      ['192.168.255.255', 'private'],
    ],
    outside: [
      ['192.167.255.255', null],
      ['192.169.0.0', null],
    ],
  },
  {
    range: '198.18.0.0/15',
    inside: [
      ['198.18.0.0', 'benchmarking'],
      ['198.19.255.255', 'benchmarking'],
    ],
    outside: [
      ['198.17.255.255', null],
      ['198.20.0.0', null],
    ],
  },
  {
    range: '198.51.100.0/24',
    inside: [
      ['198.51.100.0', 'documentation'],
      ['198.51.100.255', 'documentation'],
    ],
    outside: [
      ['198.51.99.255', null],
      ['198.51.101.0', null],
    ],
  },
  {
    range: '203.0.113.0/24',
    inside: [
      ['203.0.113.0', 'documentation'],
      ['203.0.113.255', 'documentation'],
    ],
    outside: [
      ['203.0.112.255', null],
      ['203.0.114.0', null],
    ],
  },
  {
    range: '224.0.0.0/4',
    inside: [
      ['224.0.0.0', 'multicast'],
      ['239.255.255.255', 'multicast'],
    ],
    outside: [
      ['223.255.255.255', null],
      ['240.0.0.0', 'reserved'],
    ],
  },
  {
    range: '240.0.0.0/4',
    inside: [
      ['240.0.0.0', 'reserved'],
      ['255.255.255.254', 'reserved'],
    ],
    outside: [
      ['239.255.255.255', 'multicast'],
      ['255.255.255.255', 'broadcast'],
    ],
  },
  { range: '255.255.255.255/32', inside: [['255.255.255.255', 'the broadcast address']], outside: [['255.255.255.254', 'reserved']] },
  {
    range: 'metadata (169.254.169.254, 169.254.170.2, 100.100.100.200)',
    inside: [
      ['169.254.169.254', 'cloud metadata'],
      ['169.254.170.2', 'cloud metadata'],
      ['100.100.100.200', 'cloud metadata'],
    ],
    outside: [
      ['169.254.169.253', 'link-local'],
      ['169.254.169.255', 'link-local'],
      ['100.100.100.199', 'carrier-grade NAT'],
    ],
  },
  { range: '::/128', inside: [['::', 'unspecified']], outside: [['::1', 'loopback']] },
  {
    range: '::1/128',
    inside: [
      ['::1', 'the loopback address'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
    ],
    outside: [
      ['::2', 'IPv4-compatible'],
      ['::', 'unspecified'],
    ],
  },
  {
    range: '::/96 (IPv4-compatible)',
    inside: [
      ['::2', 'IPv4-compatible'],
      ['::ffff:ffff', 'IPv4-compatible'],
      ['::8.8.8.8', 'IPv4-compatible'],
    ],
    outside: [['::1:0:0', 'not global unicast']],
  },
  {
    range: '::ffff:0:0/96 (IPv4-mapped)',
    inside: [
      ['::ffff:0.0.0.0', "IPv4-mapped address of 0.0.0.0, a 'this host'"],
      ['::ffff:127.0.0.1', 'IPv4-mapped address of 127.0.0.1, a loopback address'],
      ['::ffff:7f00:1', 'IPv4-mapped address of 127.0.0.1, a loopback'],
      ['::ffff:10.0.0.1', 'of 10.0.0.1, a private'],
      ['::ffff:a9fe:a9fe', 'of 169.254.169.254, the cloud metadata'],
      ['::ffff:255.255.255.255', 'broadcast'],
    ],
    outside: [
      ['::ffff:8.8.8.8', null],
      ['::fffe:ffff:ffff', 'not global unicast'],
      ['::1:0:0:0', 'not global unicast'],
    ],
  },
  {
    range: '64:ff9b::/96 (NAT64)',
    inside: [
      ['64:ff9b::127.0.0.1', 'NAT64 address of 127.0.0.1, a loopback'],
      ['64:ff9b::a00:1', 'of 10.0.0.1, a private'],
      ['64:ff9b::', "of 0.0.0.0, a 'this host'"],
      ['64:ff9b::ffff:ffff', 'broadcast'],
    ],
    outside: [
      ['64:ff9b::8.8.8.8', null],
      ['64:ff9b::1:0:0', 'not global unicast'],
      ['64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff', 'not global unicast'],
    ],
  },
  {
    range: '64:ff9b:1::/48 (local-use NAT64)',
    inside: [
      ['64:ff9b:1::', 'local-use NAT64'],
      ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-use NAT64'],
    ],
    outside: [['64:ff9b:2::', 'not global unicast']],
  },
  {
    range: '2002::/16 (6to4)',
    inside: [
      ['2002:7f00:1::', '6to4 address of 127.0.0.1, a loopback'],
      ['2002:c0a8:101::1', 'of 192.168.1.1, a private'],
      ['2002::', "of 0.0.0.0, a 'this host'"],
      ['2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'broadcast'],
    ],
    outside: [
      ['2002:808:808::1', null],
      ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
      ['2003::', null],
    ],
  },
  {
    range: '2001:db8::/32',
    inside: [
      ['2001:db8::', 'documentation'],
      ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    ],
    outside: [
      ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', null],
      ['2001:db9::', null],
    ],
  },
  {
    range: '100::/64',
    inside: [
      ['100::', 'discard-only'],
      ['100::ffff:ffff:ffff:ffff', 'discard-only'],
    ],
    outside: [['100:0:0:1::', 'not global unicast']],
  },
  {
    range: 'fc00::/7 (unique local)',
    inside: [
      ['fc00::', 'unique local'],
      ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique local'],
      ['fd00:ec2::254', 'cloud metadata'],
    ],
    outside: [
      ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'not global unicast'],
      ['fe00::', 'not global unicast'],
    ],
  },
  {
    range: 'fe80::/10 (link-local)',
    inside: [
      ['fe80::', 'link-local'],
      ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
    ],
    outside: [
      ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'not global unicast'],
      ['fec0::', 'site-local'],
    ],
  },
  {
    range: 'fec0::/10 (site-local)',
    inside: [
      ['fec0::', 'site-local'],
      ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'site-local'],
    ],
    outside: [['ff00::', 'multicast']],
  },
  {
    range: 'ff00::/8 (multicast)',
    inside: [
      ['ff00::', 'multicast'],
      ['ff02::1', 'multicast'],
      ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
    ],
    outside: [['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'site-local']],
  },
  {
    range: '2000::/3 (global unicast)',
    inside: [
      ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'not global unicast'],
      ['4000::', 'not global unicast'],
    ],
    outside: [
      ['2000::', null],
      ['3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
    ],
  },
];

describe('isForbiddenAddress', () => {
  for (const { range, inside, outside } of RANGES) {
    it(`${range}: both edges refused with the reason, just outside judged apart`, () => {
      for (const [ip, words] of inside) {
        const why = isForbiddenAddress(ip);
        assert.ok(why?.includes(words), `${ip}: ${why} (expected "${words}")`);
        assert.ok(why!.startsWith(`${ip} is `), `${ip}: the reason names the address: ${why}`);
      }
      for (const [ip, words] of outside) {
        const why = isForbiddenAddress(ip);
        if (words === null) assert.equal(why, null, `${ip} is public`);
        else assert.ok(why?.includes(words), `${ip}: ${why} (expected "${words}")`);
      }
    });
  }

  it('says it plainly: loopback, and "metadata" for the cloud metadata address', () => {
    assert.equal(isForbiddenAddress('127.0.0.1'), '127.0.0.1 is a loopback address');
    assert.equal(isForbiddenAddress('169.254.169.254'), '169.254.169.254 is the cloud metadata address (link-local)');
    assert.equal(isForbiddenAddress('::ffff:127.0.0.1'), '::ffff:127.0.0.1 is an IPv4-mapped address of 127.0.0.1, a loopback address');
    assert.equal(isForbiddenAddress('[::1]'), '::1 is the loopback address');
  });

  it('lets public addresses through, IPv4 and IPv6', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e'])
      assert.equal(isForbiddenAddress(ip), null, ip);
  });

  it('refuses what is not an IP address', () => {
    assert.equal(isForbiddenAddress('example.com'), 'example.com is not an IP address');
    assert.ok(isForbiddenAddress('1.2.3'));
    assert.ok(isForbiddenAddress(''));
  });
});

describe('hostRefusal (no DNS)', () => {
  it('judges IP literals (with or without brackets) and the localhost names; other names wait for their addresses', () => {
    assert.equal(hostRefusal('127.0.0.1'), '127.0.0.1 is a loopback address');
    assert.equal(hostRefusal('[::1]'), '::1 is the loopback address');
    assert.equal(hostRefusal('::1'), '::1 is the loopback address');
    assert.equal(hostRefusal('localhost'), 'localhost is a loopback name');
    assert.equal(hostRefusal('LocalHost'), 'LocalHost is a loopback name');
    assert.equal(hostRefusal('localhost.'), 'localhost. is a loopback name');
    assert.equal(hostRefusal('bot.localhost'), 'bot.localhost is a loopback name');
    for (const host of ['example.com', 'localhost.example.com', 'mylocalhost', '8.8.8.8', '[2606:4700:4700::1111]'])
      assert.equal(hostRefusal(host), null, host);
  });
});

describe('urlRefusal', () => {
  const never: Resolve = () => Promise.reject(new Error('DNS must not be asked'));
  it('judges a literal host directly, after WHATWG URL normalisation (hex, one number, mapped), without DNS', async () => {
    assert.equal(new URL('http://0x7f.1:8080/').hostname, '127.0.0.1');
    assert.equal(new URL('http://2130706433:8080/').hostname, '127.0.0.1');
    assert.equal(await urlRefusal('http://0x7f.1:8080/', never), '127.0.0.1 is a loopback address');
    assert.equal(await urlRefusal('http://2130706433/', never), '127.0.0.1 is a loopback address');
    assert.equal(await urlRefusal('http://017700000001/', never), '127.0.0.1 is a loopback address');
    assert.equal(await urlRefusal('https://[::ffff:127.0.0.1]/', never), '::ffff:7f00:1 is an IPv4-mapped address of 127.0.0.1, a loopback address');
    assert.equal(await urlRefusal('http://169.254.169.254/latest/meta-data/', never), '169.254.169.254 is the cloud metadata address (link-local)');
    assert.equal(await urlRefusal('http://localhost:3000/', never), 'localhost is a loopback name');
    assert.equal(await urlRefusal('http://8.8.8.8/', never), null);
  });

  it('resolves a name and refuses it when any of its addresses is forbidden', async () => {
    const answers =
      (...ips: string[]): Resolve =>
      () =>
        Promise.resolve(ips.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    assert.equal(await urlRefusal('http://bot.example/', answers('93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946')), null);
    assert.equal(await urlRefusal('http://bot.example/', answers('93.184.216.34', '10.0.0.7')), 'bot.example resolves to 10.0.0.7, a private address');
    assert.equal(await urlRefusal('http://bot.example/', answers()), 'bot.example resolves to no address');
    await assert.rejects(
      urlRefusal('http://bot.example/', () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND bot.example'), { code: 'ENOTFOUND' }))),
      /ENOTFOUND/,
    );
  });
});

describe('publicOnlyLookup', () => {
  /** Calls the lookup as net.connect does, and returns what it answered. */
  const call = (resolve: Resolve, host: string, options: LookupOptions) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>((done) =>
      publicOnlyLookup(resolve)(host, options, (err, address, family) => done({ err, address, family })),
    );
  const answers =
    (...ips: string[]): Resolve =>
    () =>
      Promise.resolve(ips.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

  it('answers a public name as asked: every address (happy eyeballs) or the first one', async () => {
    const all = await call(answers('93.184.216.34', '2606:2800:220:1::1'), 'bot.example', { all: true });
    assert.equal(all.err, null);
    assert.deepEqual(all.address, [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    const one = await call(answers('93.184.216.34'), 'bot.example', { family: 4 });
    assert.deepEqual([one.err, one.address, one.family], [null, '93.184.216.34', 4]);
  });

  it('refuses when ANY address is forbidden, with the reason', async () => {
    const r = await call(answers('93.184.216.34', '127.0.0.1'), 'bot.example', { all: true });
    assert.ok(r.err instanceof ForbiddenAddressError);
    assert.equal(
      r.err.message,
      'bot.example resolves to 127.0.0.1, a loopback address (this arena only calls public addresses; its operator may allow others with --allow-private-bots)',
    );
    assert.equal(r.err.code, 'ERR_FORBIDDEN_ADDRESS');
  });

  it('refuses localhost names without resolving them, and passes a resolver failure on', async () => {
    let asked = 0;
    const counting: Resolve = () => (asked++, Promise.resolve([{ address: '8.8.8.8', family: 4 }]));
    const r = await call(counting, 'api.localhost', { all: true });
    assert.equal((r.err as ForbiddenAddressError).reason, 'api.localhost is a loopback name');
    assert.equal(asked, 0);
    const failed = await call(
      () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' })),
      'nowhere.example',
      { all: true },
    );
    assert.equal(failed.err?.code, 'ENOTFOUND');
  });

  it('asks the resolver again at every connection: a name that rebinds to 127.0.0.1 is refused then', async () => {
    let asked = 0;
    const rebinding: Resolve = () => Promise.resolve([{ address: asked++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }]);
    const first = await call(rebinding, 'rebind.example', { all: true });
    assert.equal(first.err, null);
    const second = await call(rebinding, 'rebind.example', { all: true });
    assert.equal((second.err as ForbiddenAddressError).reason, 'rebind.example resolves to 127.0.0.1, a loopback address');
    assert.equal(asked, 2);
  });
});
