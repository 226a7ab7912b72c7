/**
 * Sealed `requestState` (spec 2026-07-28 basic/patterns/mrtr, Server Requirements): the
 * state a handler carries to the retry is encrypted and authenticated with AES-GCM under
 * a secret of the Worker, and bound, as additional data, to the method, a digest of the
 * request's salient parameters and the principal; an expiry sits inside. Anything that
 * fails to open is -32602, never a crash.
 */
import { invalidParams, type McpError } from './errors.js';
import { derivedKey, toBase64Url } from './secretKeys.js';
import type { JsonValue } from './types.js';

/** Larger `requestState` strings are refused before any crypto runs. */
export const MAX_REQUEST_STATE_CHARS = 16 * 1024;

const IV_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What the sealed state is bound to: replaying it elsewhere fails to decrypt. */
export interface StateBinding {
  method: string;
  /** The parameters that identify the request (tool name and arguments, prompt, URI). */
  salient: unknown;
  principal?: string;
}

/** The AES-256-GCM key of requestState, under its own label. */
const keyFor = (secret: string) =>
  derivedKey(secret, 'mcp requestState v1', { name: 'AES-GCM', length: 256 }, ['encrypt', 'decrypt']);

export async function sealState(
  secret: string,
  binding: StateBinding,
  state: JsonValue,
  ttlMs: number,
  now = Date.now(),
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const plain = encoder.encode(JSON.stringify({ exp: now + ttlMs, state }));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: await bindingBytes(binding) },
      await keyFor(secret),
      plain,
    ),
  );
  const out = new Uint8Array(IV_BYTES + sealed.byteLength);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return toBase64Url(out);
}

export async function openState(
  secret: string,
  binding: StateBinding,
  sealed: unknown,
  now = Date.now(),
): Promise<JsonValue | McpError> {
  const refuse = invalidParams(
    'requestState is invalid, expired or belongs to another request; start the request again without it',
  );
  if (typeof sealed !== 'string' || sealed.length > MAX_REQUEST_STATE_CHARS) return refuse;
  const bytes = fromBase64Url(sealed);
  if (!bytes || bytes.byteLength <= IV_BYTES) return refuse;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES), additionalData: await bindingBytes(binding) },
      await keyFor(secret),
      bytes.subarray(IV_BYTES),
    );
    const payload = JSON.parse(decoder.decode(plain)) as { exp: number; state: JsonValue };
    return payload.exp > now ? payload.state : refuse;
  } catch {
    return refuse;
  }
}

/** method, SHA-256 of the canonical salient parameters, principal. */
async function bindingBytes({ method, salient, principal }: StateBinding): Promise<ArrayBuffer> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(salient))));
  return new Uint8Array(encoder.encode(`${method}\n${toBase64Url(digest)}\n${principal ?? ''}`)).buffer;
}

/** JSON with object keys sorted, so equal parameters give equal digests whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
