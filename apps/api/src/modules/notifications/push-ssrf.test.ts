import { createECDH, randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { checkEndpoint, sendPush, type VapidKeys } from './push.ts';
import {
  createPushNetwork,
  guardedLookup,
  type Resolve,
  specialRange,
  systemResolve,
} from './push-network.ts';

/**
 * Push endpoints are judged by the address the socket would connect to, at connection time (DECISIONS §21):
 * real sockets against a local "internal service" listening on every local address (IPv4 and IPv6), which
 * must never receive a byte, whatever form the endpoint's host takes. Names resolve through a resolver the
 * test controls (a DNS name pointing at 127.0.0.1 needs no DNS server), falling back to the system resolver
 * (which knows `localhost` from /etc/hosts: a real short name).
 */

/** example.com's address: public, never dialled (the stand-in network routes it to the local server). */
const PUBLIC_ADDRESS = '93.184.215.14';

const names: Record<string, LookupAddress[]> = {
  'localhost.': [{ address: '127.0.0.1', family: 4 }],
  intranet: [{ address: '10.20.30.40', family: 4 }],
  'rebind.example.com': [{ address: '127.0.0.1', family: 4 }],
  'mixed.example.com': [
    { address: PUBLIC_ADDRESS, family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'metadata.example.com': [{ address: 'fd00:ec2::254', family: 6 }],
  'v6-mapped.example.com': [{ address: '::ffff:169.254.169.254', family: 6 }],
  'push.example.com': [{ address: PUBLIC_ADDRESS, family: 4 }],
};
const testResolve: Resolve = async (hostname) => names[hostname] ?? systemResolve(hostname);

const received: string[] = [];
const internal = createServer((req, res) => {
  received.push(req.url ?? '');
  req.resume();
  res.statusCode = 201;
  res.end();
});
let port = 0;
let keys: VapidKeys;
let target: (endpoint: string) => { endpoint: string; p256dh: string; auth: string };

beforeAll(async () => {
  // '::' accepts IPv4 too (dual stack): 127.0.0.1, ::1, ::ffff:127.0.0.1 and 0.0.0.0 all reach it.
  await new Promise<void>((r) => internal.listen(0, '::', r));
  port = (internal.address() as AddressInfo).port;
  keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.com' };
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const p256dh = ecdh.getPublicKey().toString('base64url');
  const auth = randomBytes(16).toString('base64url');
  target = (endpoint) => ({ endpoint, p256dh, auth });
});
afterAll(() => new Promise((r) => internal.close(r)));

describe('push endpoints are checked by the address they connect to (DECISIONS §21)', () => {
  it('classifies addresses with ipaddr.js: only public unicast passes', () => {
    expect(specialRange(PUBLIC_ADDRESS)).toBeNull();
    expect(specialRange('2606:4700:4700::1111')).toBeNull();
    expect(
      Object.fromEntries(
        [
          '127.0.0.1',
          '10.1.2.3',
          '172.16.0.1',
          '192.168.0.1',
          '169.254.169.254',
          '100.64.0.1',
          '0.0.0.0',
          '255.255.255.255',
          '224.0.0.1',
          '192.0.2.1',
          '::1',
          '::',
          'fe80::1',
          'fd00:ec2::254',
          'fc00::1',
          '::ffff:127.0.0.1',
          '::ffff:10.0.0.1',
          '::7f00:1',
          'ff02::1',
          '64:ff9b::a00:1',
          'not-an-address',
        ].map((a) => [a, specialRange(a)]),
      ),
    ).toEqual({
      '127.0.0.1': 'loopback',
      '10.1.2.3': 'private',
      '172.16.0.1': 'private',
      '192.168.0.1': 'private',
      '169.254.169.254': 'linkLocal',
      '100.64.0.1': 'carrierGradeNat',
      '0.0.0.0': 'unspecified',
      '255.255.255.255': 'broadcast',
      '224.0.0.1': 'multicast',
      '192.0.2.1': 'reserved',
      '::1': 'loopback',
      '::': 'unspecified',
      'fe80::1': 'linkLocal',
      'fd00:ec2::254': 'uniqueLocal',
      'fc00::1': 'uniqueLocal',
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:10.0.0.1': 'private',
      '::7f00:1': 'ipv4Compatible',
      'ff02::1': 'multicast',
      '64:ff9b::a00:1': 'rfc6052',
      'not-an-address': 'invalid',
    });
  });

  it('refuses every form of an internal host before a byte is sent', async () => {
    const network = createPushNetwork(guardedLookup(testResolve));
    const cases: Array<[string, string]> = [
      [`http://localhost.:${port}/trailing-dot`, 'loopback'],
      [`http://localhost:${port}/short-name`, 'loopback'],
      [`http://intranet:${port}/intranet-name`, 'private'],
      [`http://rebind.example.com:${port}/dns-name`, 'loopback'],
      [`http://mixed.example.com:${port}/mixed-answer`, 'loopback'],
      [`http://metadata.example.com:${port}/metadata-name`, 'uniqueLocal'],
      [`http://v6-mapped.example.com:${port}/mapped-name`, 'linkLocal'],
      [`http://[::1]:${port}/v6-loopback`, 'loopback'],
      [`http://[::ffff:127.0.0.1]:${port}/v4-mapped`, 'loopback'],
      [`http://[::ffff:7f00:1]:${port}/v4-mapped-hex`, 'loopback'],
      [`http://[::127.0.0.1]:${port}/v4-compatible`, 'ipv4Compatible'],
      [`http://[::]:${port}/v6-unspecified`, 'unspecified'],
      [`http://2130706433:${port}/decimal`, 'loopback'],
      [`http://0x7f.1:${port}/hex`, 'loopback'],
      [`http://017700000001:${port}/octal`, 'loopback'],
      [`http://127.1:${port}/short-dotted`, 'loopback'],
      [`http://0.0.0.0:${port}/unspecified`, 'unspecified'],
      ['http://169.254.169.254/latest/meta-data/', 'linkLocal'],
      ['http://[fd00:ec2::254]/latest/meta-data/', 'uniqueLocal'],
      ['http://100.64.0.1/cgnat', 'carrierGradeNat'],
      ['https://10.0.0.1/private', 'private'],
      ['https://[fe80::1]/link-local', 'linkLocal'],
    ];
    const refused: Record<string, unknown> = {};
    for (const [endpoint] of cases) {
      refused[endpoint] = await sendPush(keys, target(endpoint), 'x', network).then(
        (status) => `sent (${status})`,
        (err: { code?: string; range?: string }) => `${err.code} ${err.range}`,
      );
    }
    expect(refused).toEqual(
      Object.fromEntries(cases.map(([endpoint, range]) => [endpoint, `PUSH_ADDRESS_REFUSED ${range}`])),
    );
    expect(received).toEqual([]);
  });

  it('sends to a name that resolves to a public address (a local server stands in for it)', async () => {
    const dialled: string[] = [];
    const guarded = guardedLookup(testResolve);
    // After the guard allowed the public address, the test's network routes it to the local server.
    const standIn = createPushNetwork((hostname, options, callback) =>
      guarded(hostname, options, (err, address) => {
        if (err) return callback(err, '', 0);
        dialled.push(...(Array.isArray(address) ? address.map((a) => a.address) : [address]));
        if (options.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
        return callback(null, '127.0.0.1', 4);
      }),
    );
    const status = await sendPush(keys, target(`http://push.example.com:${port}/public`), 'hi', standIn);
    expect(status).toBe(201);
    expect(dialled).toEqual([PUBLIC_ADDRESS]);
    expect(received).toEqual(['/public']);
  });

  it('keeps the cheap check at subscribe time: production refuses local-looking hosts at once', () => {
    const refused = (endpoint: string) => {
      try {
        checkEndpoint(endpoint, true);
        return false;
      } catch {
        return true;
      }
    };
    for (const endpoint of [
      'https://localhost./x',
      'https://intranet/x',
      'https://printer.local/x',
      'https://metadata.google.internal/x',
      'https://2130706433/x',
      'https://[::1]/x',
      'https://93.184.215.14/x',
      'http://push.example.com/x',
    ]) {
      expect(refused(endpoint), endpoint).toBe(true);
    }
    expect(refused('https://fcm.googleapis.com/fcm/send/abc:def')).toBe(false);
    expect(refused('https://updates.push.services.mozilla.com/wpush/v2/gAAAA')).toBe(false);
  });
});
