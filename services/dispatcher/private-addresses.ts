/**
 * Receivers are untrusted: a webhook URL must not reach into our own network. Checked when a URL is saved (a
 * friendly 400) and again when connecting (DNS answers can change), by a lookup that refuses private answers, so
 * there is no gap between the check and the connect.
 */
import { lookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
// IPv4-mapped addresses (::ffff:a.b.c.d) are matched against the IPv4 rules by BlockList itself. The prefixes that
// embed an IPv4 address in other ways (NAT64, 6to4, Teredo, IPv4-compatible) are refused whole.
for (const [net, prefix] of [
  ['::', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** Loopback, link-local, private, unique-local, multicast or otherwise not a public unicast address. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  return blocked.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_PRIVATE_ADDRESS';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a loopback, link-local or private address`);
  }
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** The refused address of an IP-literal URL host, else null (names are checked by `guardedLookup`). */
export function refusedLiteral(url: URL): string | null {
  const host = bare(url.hostname);
  return isIP(host) && isPrivateAddress(host) ? host : null;
}

/** Why an IP-literal URL host is refused, else null. */
export const literalRefusal = (url: URL): string | null =>
  (refusedLiteral(url) ? `${bare(url.hostname)} is a loopback, link-local or private address` : null);

/** How long saving a URL waits for its name to resolve (a slow resolver must not hold up the request). */
const SAVE_LOOKUP_MS = 2000;

/**
 * For saving a URL: null when it may be used, else why not. A name that does not resolve, or not within
 * SAVE_LOOKUP_MS, is accepted (it may resolve later; the send-time check still applies).
 */
export async function whyRefused(rawUrl: string): Promise<string | null> {
  const url = new URL(rawUrl);
  const host = bare(url.hostname);
  const literal = literalRefusal(url);
  if (literal) return literal;
  if (isIP(host)) return null;
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    const timer = setTimeout(() => resolve([]), SAVE_LOOKUP_MS);
    lookup(host, { all: true, verbatim: true }, (err, found) => {
      clearTimeout(timer);
      resolve(err ? [] : found);
    });
  });
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  return bad ? new RefusedAddressError(host, bad.address).message : null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that fails instead of answering a private address. */
export function guardedLookup(hostname: string, options: LookupAllOptions | object, callback: LookupCallback): void {
  const wantsAll = (options as { all?: boolean }).all === true;
  lookup(hostname, { ...(options as object), all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad || addresses.length === 0) return callback(new RefusedAddressError(hostname, bad?.address ?? 'nothing'), []);
    if (wantsAll) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
}
