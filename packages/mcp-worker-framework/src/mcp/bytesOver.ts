/**
 * The size of a JSON text in UTF-8 when that is over `limit` bytes, else undefined: what a task's
 * row or an event's body may hold is counted in bytes. A text of at most a third of `limit`
 * characters is under it whatever it holds, and is not encoded.
 */
const encoder = new TextEncoder();

export function bytesOver(json: string, limit: number): number | undefined {
  if (json.length * 3 <= limit) return undefined;
  const bytes = encoder.encode(json).byteLength;
  return bytes > limit ? bytes : undefined;
}
