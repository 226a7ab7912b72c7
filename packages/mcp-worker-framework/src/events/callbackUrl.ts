/**
 * Which callback URLs a webhook subscription may name (spec extensions/events, Webhook Security:
 * TLS requirement, SSRF prevention): `https` only, used exactly as given (its query string is part
 * of the subscription's key), no credentials in it, and no IP literal outside the globally
 * routable ranges of the IANA special-purpose registries. A host name is resolved by the platform
 * at each delivery, never here: the Worker's `global_fetch_strictly_public` flag keeps every fetch
 * on the public Internet, and no redirect is followed (`redirect: 'manual'`).
 *
 * For local development only, `EVENTS_LOOPBACK_CALLBACKS = "on"` also accepts `http` and `https`
 * on loopback (`localhost`, 127.0.0.0/8, `[::1]`); `mcp-worker check` refuses it in a deploy.
 */

/** The URL, or why it is refused (a -32602). */
export function callbackRefusal(value: unknown, maxChars: number, loopbackAllowed: boolean): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return 'delivery.url must be an absolute URL';
  if (value.length > maxChars) return `delivery.url is longer than ${maxChars} characters`;
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return 'delivery.url must not carry credentials';
  const loopback = isLoopback(url.hostname);
  if (loopback && loopbackAllowed)
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'delivery.url must be https';
  if (url.protocol !== 'https:') return 'delivery.url must be https';
  if (loopback || !isGlobal(url.hostname))
    return 'delivery.url must be at a public address: an IP literal outside the global ranges, or localhost, is refused';
  return undefined;
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  const v4 = ipv4(host);
  return v4 !== undefined && v4[0] === 127;
}

/** False for an IP literal in a special-purpose range that is not globally reachable; true for a host name. */
function isGlobal(host: string): boolean {
  const v4 = ipv4(host);
  if (v4) return isGlobalV4(v4);
  if (host.startsWith('[')) {
    const v6 = ipv6(host.slice(1, -1));
    return v6 !== undefined && isGlobalV6(v6);
  }
  return true;
}

/** The four bytes of a dotted quad (the URL parser writes every IPv4 form as one). */
function ipv4(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

/** IANA IPv4 Special-Purpose Address Registry: the ranges not globally reachable, as [address, prefix length]. */
const V4_NOT_GLOBAL: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function toInt(bytes: number[]): number {
  return ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
}

function isGlobalV4(bytes: number[]): boolean {
  const address = toInt(bytes);
  return !V4_NOT_GLOBAL.some(([network, bits]) => address >>> (32 - bits) === toInt(ipv4(network)!) >>> (32 - bits));
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (compressed, lower case, maybe a dotted tail). */
function ipv6(text: string): number[] | undefined {
  const [head = '', tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const expand = (parts: string[]) =>
    parts.flatMap((part) => {
      const v4 = ipv4(part);
      return v4 ? [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!] : [Number.parseInt(part, 16)];
    });
  const front = expand(groups(head));
  const back = expand(groups(tail));
  const missing = 8 - front.length - back.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  const all = [...front, ...Array(missing).fill(0), ...back];
  return all.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? all : undefined;
}

/** Global unicast (2000::/3) less documentation, 2001::/23 and 6to4; an IPv4-mapped address is its IPv4's. */
function isGlobalV6(groups: number[]): boolean {
  const [a = 0, b = 0] = groups;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return isGlobalV4([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff]);
  if (a >> 13 !== 0b001) return false;
  if (a === 0x2001 && (b === 0x0db8 || b < 0x0200)) return false;
  return a !== 0x2002;
}
