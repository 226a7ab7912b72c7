/**
 * Workers Rate Limiting bindings (wrangler.toml `[[ratelimits]]`), shared by the steps that
 * use them (`limitByAddress`, `limitByCaller`). Over the limit: 429 with Retry-After and a
 * JSON-RPC error.
 */
import { rateLimited } from '../mcp/internal.js';
import type { HttpContext } from './context.js';

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const GROUP = /^[0-9a-f]{1,4}$/;

/**
 * The key an anonymous client is counted by: its address as Cloudflare saw it
 * (`CF-Connecting-IP`), an IPv4 address as it is, an IPv6 address by its /64. One subscriber
 * is usually given a whole /64, so keying on the full address would give each of its 2^64
 * addresses a budget of its own. An IPv4-mapped IPv6 address counts as its IPv4 address.
 * Anything else (no header, not an address) is `ip:unknown`: bounded, whatever was sent.
 */
export function addressKey(request: Request): string {
  const address = request.headers.get('CF-Connecting-IP');
  if (address === null || address.length > 45) return 'ip:unknown';
  if (IPV4.test(address)) return `ip:${address}`;
  const groups = ipv6Groups(address.toLowerCase());
  if (!groups) return 'ip:unknown';
  if (groups.mapped) return `ip:${groups.mapped}`;
  return `ip:${groups.hex.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address (leading zeros dropped), or undefined when it is none (RFC 4291 2.2). */
function ipv6Groups(address: string): { hex: string[]; mapped?: string } | undefined {
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const parts = halves.map((half) => (half === '' ? [] : half.split(':')));
  const last = parts[parts.length - 1] ?? [];
  // An embedded IPv4 address stands for the last two groups.
  const v4 = last.length > 0 && last[last.length - 1]!.includes('.') ? last.pop()! : undefined;
  if (v4 !== undefined && !IPV4.test(v4)) return undefined;
  const width = 8 - (v4 === undefined ? 0 : 2);
  const given = parts.reduce((sum, part) => sum + part.length, 0);
  if (parts.some((part) => part.some((group) => !GROUP.test(group)))) return undefined;
  if (halves.length === 1 ? given !== width : given >= width) return undefined;
  const hex = [
    ...(parts[0] ?? []),
    ...Array<string>(width - given).fill('0'),
    ...(halves.length === 2 ? (parts[1] ?? []) : []),
  ].map((group) => group.replace(/^0+(?=.)/, ''));
  if (v4 !== undefined) {
    // ::ffff:a.b.c.d is an IPv4 client reached over IPv6.
    if (hex.slice(0, 5).every((group) => group === '0') && hex[5] === 'ffff') return { hex, mapped: v4 };
    hex.push('0', '0');
  }
  return { hex };
}

/** Who a per-caller limit counts: the caller's subject, else (anonymous) the client address. */
export const callerKey = ({ caller, request }: HttpContext) =>
  caller ? `principal:${caller.subject}` : addressKey(request);

export async function overLimit(context: HttpContext, limiter: RateLimit, key: string): Promise<Response | undefined> {
  const { success } = await limiter.limit({ key });
  if (success) return undefined;
  return context.fail(null, rateLimited());
}
