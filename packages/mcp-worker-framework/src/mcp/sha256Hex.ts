/**
 * SHA-256 of a text, as 64 hex digits: a name of one size for a value of any length (an
 * assertion's object, a subscription's id, a cache key for a token that is never kept itself).
 */
const encoder = new TextEncoder();

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
