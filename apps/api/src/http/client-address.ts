/**
 * proxy-addr's trust function for `hops` proxies of ours in front (DECISIONS §21): the socket's peer and the
 * `hops - 1` rightmost X-Forwarded-For entries are our proxies, so the entry `hops` places from the right is
 * the client. Only sound when the API cannot be reached except through those proxies (docs/operations.md).
 */
export function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
