import { McpError, parseMessage } from '../../mcp/internal.js';
import { BATCH_VERSION, serveBatch } from '../transport/batch.js';
import type { HttpContext, Step } from '../context.js';

/** The chain one message of a batch goes through: `perMessage`, in an itty-router of its own (`router.ts`). */
interface MessageChain {
  fetch(context: HttpContext): Promise<Response>;
}

/**
 * JSON-RPC batches, for clients of revision 2025-03-26 only (see `../transport/batch.ts`): a POST whose
 * body is an array, from a client that names that version or none, while legacy clients are
 * served. Each member goes through `oneMessage` (the steps from `readMessage` to the core) as
 * if it had been posted alone, as the same caller. Every other request passes untouched: a
 * modern one names its version, so its body is not even read here.
 */
export function answerBatch(oneMessage: MessageChain): Step {
  return function answerBatch(context: HttpContext) {
    // nothing to do for most requests: answered at once, without a promise
    if (!context.settings.legacyClients || (context.protocolVersionHeader ?? BATCH_VERSION) !== BATCH_VERSION)
      return undefined;
    return readBatch(context, oneMessage);
  };
}

async function readBatch(context: HttpContext, oneMessage: MessageChain): Promise<Response | undefined> {
  const body = await context.body();
  if (body instanceof McpError) return context.fail(null, body);
  // Not a batch: readMessage reads the same text (`context.body` reads it once).
  if (body.trimStart()[0] !== '[') return undefined;
  const parsed = parseMessage(body);
  const batch = parsed.error ? parsed.batch : undefined;
  if (!batch) return undefined; // not a JSON array after all: readMessage answers what it is
  context.batchSize = batch.length;
  const answer = await serveBatch(batch, context.request, (member) => oneMessage.fetch(context.member(member)));
  return answer instanceof McpError ? context.fail(null, answer) : answer;
}
