/**
 * Reading a POST body safely: JSON media type only (415), a size cap (413), strict UTF-8
 * (-32700). Nothing past the cap is buffered.
 */
import { bodyTooLarge, type McpError, parseError, unsupportedMediaType } from '../../mcp/internal.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** `application/json`, with or without parameters such as `charset`. */
function isJson(contentType: string | null): boolean {
  if (contentType === null) return false;
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase() === 'application/json';
}

export async function readJsonBody(request: Request, limit: number): Promise<string | McpError> {
  if (!isJson(request.headers.get('Content-Type'))) return unsupportedMediaType();
  const declared = request.headers.get('Content-Length');
  if (declared !== null && Number(declared) > limit) return bodyTooLarge(limit);
  const bytes = declared !== null ? await request.arrayBuffer() : await readCapped(request.body, limit);
  if (bytes === undefined || bytes.byteLength > limit) return bodyTooLarge(limit);
  try {
    return utf8.decode(bytes);
  } catch {
    return parseError('body is not valid UTF-8');
  }
}

/** Reads a body of unknown length, giving up (undefined) as soon as it passes `limit`. */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(next.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
