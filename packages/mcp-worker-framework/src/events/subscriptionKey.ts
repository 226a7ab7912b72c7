/**
 * A webhook subscription's identity (spec extensions/events, Subscription Identity): the key
 * `(principal, delivery.url, name, arguments)`, arguments compared as canonical JSON (keys
 * sorted), and the `id` derived from it, the same across refreshes and restarts. The id is a
 * routing handle, never a capability: no method takes it as input.
 */
import { sha256Hex } from '../mcp/internal.js';

/** JSON with every object's keys sorted, so equal arguments are equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `sub_` and 32 hex digits of SHA-256 over the key. */
export async function subscriptionId(principal: string, url: string, name: string, args: string): Promise<string> {
  return `sub_${(await sha256Hex(JSON.stringify([principal, url, name, args]))).slice(0, 32)}`;
}

/** The name of the Durable Object that holds a principal's subscriptions (its subject, hashed). */
export async function principalObjectName(principal: string): Promise<string> {
  return `principal:${(await sha256Hex(principal)).slice(0, 40)}`;
}
