/** What the limiters count under: short hashes of client-chosen strings, and a client's address. */
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/** A short SHA-256 (hex): bounds a client-chosen key, and keeps a secret (an API key) out of Redis and logs. */
export const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** The groups of an IPv6 address, `::` expanded (an embedded IPv4 tail counts as two). */
function ipv6Groups(ip: string): string[] {
  const [head = '', tail] = ip.split('%', 1)[0]!.split('::');
  const parts = (text: string) =>
    text === '' ? [] : text.split(':').flatMap((g) => (g.includes('.') ? ['v4', 'v4'] : [g]));
  const before = parts(head);
  const after = tail === undefined ? [] : parts(tail);
  return [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
}

/**
 * The key a client counts under: its IPv4 address, or the /64 of an IPv6 one (one subscriber's prefix: whoever
 * holds a /64 has 2^64 addresses to rotate through). Behind a proxy, `ip` is what express's `trust proxy` made it.
 */
export function clientKey(ip: string | undefined): string {
  if (ip === undefined) return 'unknown';
  // Most clients are IPv4, which has no colon: node's IPv6 pattern would cost every request
  // (docs/design/performance.md).
  if (!ip.includes(':')) return ip;
  if (ip.startsWith('::ffff:') && isIPv4(ip.slice(7))) return ip.slice(7);
  if (!isIPv6(ip.split('%', 1)[0]!)) return ip;
  const groups = ipv6Groups(ip.toLowerCase())
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16));
  return `${groups.join(':')}::/64`;
}
