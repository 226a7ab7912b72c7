/**
 * JSON-RPC batches, for clients of revision 2025-03-26 only: that revision let a POST carry an
 * array of requests and notifications, and said servers MUST support receiving one; later
 * revisions (2025-06-18 on, and 2026-07-28) allow one message per POST. Each member is served
 * exactly as if it had been posted alone, and the answers are gathered into one JSON array.
 */
import { invalidRequest, type McpError } from '../../mcp/internal.js';
import { NO_STORE, replyJson } from './responses.js';

/** Members per batch: enough for any client, small enough that a POST cannot fan out without bound. */
const MAX_BATCH = 32;

/** The only revision with batches; a request without MCP-Protocol-Version is read as it. */
export const BATCH_VERSION = '2025-03-26';

/** Serves `members` through `serveOne` (the endpoint, for one message) and answers them together; refuses a batch it cannot serve. */
export async function serveBatch(
  members: readonly unknown[],
  request: Request,
  serveOne: (request: Request) => Promise<Response>,
): Promise<Response | McpError> {
  // JSON-RPC 2.0, Batch: an empty array is one Invalid Request error, not an empty answer.
  if (members.length === 0) return invalidRequest('an empty batch');
  if (members.length > MAX_BATCH) return invalidRequest(`a batch may hold at most ${MAX_BATCH} messages`);
  const headers = new Headers(request.headers);
  headers.delete('Content-Length');
  const answers = await Promise.all(
    members.map(async (member) => {
      if (Array.isArray(member)) return replyJson(null, { error: invalidRequest('a batch cannot contain a batch') });
      const response = await serveOne(
        new Request(request.url, { method: 'POST', headers, body: JSON.stringify(member), signal: request.signal }),
      );
      if (response.status === 202) return undefined; // a notification: no answer
      const text = await response.text();
      return response.headers.get('Content-Type') === 'text/event-stream' ? finalMessage(text) : text;
    }),
  );
  const replies = answers.filter((answer): answer is string => answer !== undefined);
  // Only notifications: nothing to answer (spec 2025-03-26 basic/transports: 202 Accepted).
  if (replies.length === 0) return new Response(null, { status: 202 });
  return new Response(`[${replies.join(',')}]`, {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': NO_STORE },
  });
}

/** The response that ends an SSE answer: its last `data:` line (progress and log notifications before it are dropped). */
function finalMessage(stream: string): string {
  const last = stream.lastIndexOf('\ndata: ');
  const start = last === -1 ? stream.indexOf('data: ') : last + 1;
  const end = stream.indexOf('\n', start);
  return stream.slice(start + 6, end === -1 ? undefined : end);
}
