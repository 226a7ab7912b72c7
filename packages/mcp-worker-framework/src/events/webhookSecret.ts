/**
 * Standard Webhooks signatures (spec extensions/events, Webhook Security, Signature scheme): the
 * client's `whsec_` secret, base64 of 24 to 64 bytes, and `v1,<base64 HMAC-SHA256(secret,
 * id.timestamp.body)>` over the body exactly as sent. During a rotation a delivery carries one
 * signature per secret, space-separated; the receiver accepts any that verifies.
 */

const PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SECRET_BYTES = { min: 24, max: 64 } as const;

/** Why `value` is no `whsec_` secret of 24 to 64 bytes, or undefined when it is one. */
export function secretRefusal(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith(PREFIX))
    return 'delivery.secret must be "whsec_" followed by base64 (Standard Webhooks)';
  const encoded = value.slice(PREFIX.length);
  if (encoded.length > 128 || !BASE64.test(encoded)) return 'delivery.secret after "whsec_" must be base64';
  const bytes = atob(encoded).length;
  if (bytes < SECRET_BYTES.min || bytes > SECRET_BYTES.max)
    return `delivery.secret must decode to ${SECRET_BYTES.min} to ${SECRET_BYTES.max} bytes, not ${bytes}`;
  return undefined;
}

const encoder = new TextEncoder();

/**
 * Each secret's key, imported once per isolate rather than at each delivery (an import costs about
 * what the HMAC does): at most `KEYS`, the oldest dropped first.
 */
const keys = new Map<string, Promise<CryptoKey>>();
const KEYS = 1024;

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const raw = Uint8Array.from(atob(secret.slice(PREFIX.length)), (c) => c.charCodeAt(0));
    key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    if (keys.size >= KEYS) keys.delete(keys.keys().next().value!);
    keys.set(secret, key);
  }
  return key;
}

/** The `webhook-signature` header: one `v1,` signature per secret (the current first). */
export async function signatures(
  secrets: readonly string[],
  webhookId: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const signed = encoder.encode(`${webhookId}.${timestamp}.${body}`);
  const all = await Promise.all(
    secrets.map(async (secret) => {
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await keyOf(secret), signed));
      return `v1,${btoa(String.fromCharCode(...mac))}`;
    }),
  );
  return all.join(' ');
}
