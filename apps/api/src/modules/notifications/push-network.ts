import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * How the server reaches push services (DECISIONS §12, §21): a push endpoint is a URL a member chose, so the
 * server's request to it must never reach the internal network. What counts is the address the socket connects
 * to, checked at connection time by the agents' `lookup` hook (a host name checked at subscribe time could resolve
 * elsewhere later: DNS rebinding, a short intranet name, a trailing dot). Ranges come from ipaddr.js.
 */

/** The IPv4-compatible IPv6 block (::a.b.c.d, deprecated): not a range of ipaddr.js, refused all the same. */
const V4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * The special range `address` (an IPv4 or IPv6 literal) lies in, as ipaddr.js names it (`loopback`, `private`,
 * `linkLocal`, `carrierGradeNat`, `uniqueLocal`, `reserved`, ...), or null for a public unicast address. IPv4-mapped
 * IPv6 addresses are judged as the IPv4 address they carry. Anything unparsable is `invalid`.
 */
export function specialRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  const range = ip.range();
  if (range !== 'unicast') return range;
  return ip.kind() === 'ipv6' && ip.match(V4_COMPATIBLE) ? 'ipv4Compatible' : null;
}

/** A push endpoint whose host is, or resolves to, an address the server never connects to. */
export class PushAddressRefused extends Error {
  readonly code = 'PUSH_ADDRESS_REFUSED';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`push endpoint host ${host} is ${address} (${range}): refused`);
  }
}

/** Resolves a host name to its addresses (the system resolver in production; tests inject their own). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo: /etc/hosts, search domains, DNS), every address in its order. */
export const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * A `lookup` for net/http agents that resolves with `resolve` and refuses the name (PushAddressRefused) when any of
 * its addresses is special: a name mixing a public and a private address is an attack, not a push service. The
 * socket connects to exactly the addresses checked here (no second resolution between check and connect).
 */
export function guardedLookup(resolve: Resolve): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname).then(
      (found) => {
        for (const a of found) {
          const range = specialRange(a.address);
          if (range) return callback(new PushAddressRefused(hostname, a.address, range), '', 0);
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted ? found.filter((a) => a.family === wanted) : found;
        const first = usable[0];
        if (!first) {
          const err = Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
          return callback(err, '', 0);
        }
        if (options.all) return callback(null, usable);
        return callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/** The agents push requests go out through: each connects only where its `lookup` allowed. */
export interface PushNetwork {
  http: http.Agent;
  https: https.Agent;
}

/** Agents over `lookup` (default: the system resolver behind guardedLookup). */
export function createPushNetwork(lookup: LookupFunction = guardedLookup(systemResolve)): PushNetwork {
  return { http: new http.Agent({ lookup }), https: new https.Agent({ lookup }) };
}

/**
 * Refuses an endpoint URL's host when it is an IP literal in a special range. Sockets skip `lookup` for a literal,
 * so literals are judged here, after WHATWG URL parsing has turned decimal, octal and hex IPv4 forms and IPv6
 * brackets into their canonical text. Throws PushAddressRefused.
 */
export function refuseSpecialLiteral(url: URL): void {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) === 0) return;
  const range = specialRange(host);
  if (range) throw new PushAddressRefused(url.hostname, host, range);
}
