/**
 * One POST to a callback, as every webhook delivery and verification goes out (spec
 * extensions/events, Webhook Security, Delivery profile): JSON, signed afresh at each attempt
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`, and `X-MCP-Subscription-Id`), no
 * redirect followed, given up after a time limit. What the receiver answered is reduced to a
 * category (`lastError`): never its body, headers or status line, so a callback URL an attacker
 * chose is no oracle.
 */
import { signatures } from './webhookSecret.js';

/** The sketch's `lastError` categories, and `data.reason` of -32015. */
export type LastError = 'connection_refused' | 'timeout' | 'tls_error' | 'http_4xx' | 'http_5xx' | 'challenge_failed';

interface SignedPost {
  url: string;
  subscriptionId: string;
  /** The `eventId` of an event, `msg_<type>_<random>` of a control envelope. */
  webhookId: string;
  body: string;
  /** The current secret first; the previous one too during a rotation's grace. */
  secrets: readonly string[];
  timeoutMs: number;
}

export type PostOutcome =
  | { ok: true; status: number; text?: string }
  | { ok: false; error: LastError; status?: number; retry: boolean };

/** What a verification answer may hold: `{"challenge": "<nonce>"}` needs far less. */
const ANSWER_BYTES = 4096;

/** Sends `post`; `readAnswer` keeps up to 4 KiB of a 2xx answer's body (the verification echo). */
export async function postSigned(post: SignedPost, readAnswer = false): Promise<PostOutcome> {
  const timestamp = Math.floor(Date.now() / 1000);
  let response: Response;
  try {
    response = await fetch(post.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(post.timeoutMs),
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': post.webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': await signatures(post.secrets, post.webhookId, timestamp, post.body),
        'X-MCP-Subscription-Id': post.subscriptionId,
      },
      body: post.body,
    });
  } catch (error) {
    return { ok: false, error: failureOf(error), retry: true };
  }
  const { status } = response;
  if (status >= 200 && status < 300) {
    const text = readAnswer ? await readAtMost(response, ANSWER_BYTES) : (await response.body?.cancel(), undefined);
    return { ok: true, status, ...(text !== undefined ? { text } : {}) };
  }
  await response.body?.cancel();
  // 413: too large for the receiver; 410: it wants no retry of this delivery (spec: Delivery
  // profile, Webhook Event Delivery). A redirect is a failure: it is never followed.
  return { ok: false, status, error: status >= 500 ? 'http_5xx' : 'http_4xx', retry: status !== 410 && status !== 413 };
}

function failureOf(error: unknown): LastError {
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timeout';
  const message = String((error as Error | undefined)?.message ?? error).toLowerCase();
  if (/tls|ssl|certificate|handshake/.test(message)) return 'tls_error';
  return 'connection_refused';
}

/** The body as text, at most `limit` bytes of it (the rest is not read); undefined when it is longer. */
async function readAtMost(response: Response, limit: number): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
