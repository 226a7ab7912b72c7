import { McpError } from '../../mcp/errors';
import { parseMessage } from '../../mcp/jsonrpc';
import { BATCH_VERSION, serveBatch } from '../batch';
import { readJsonBody } from '../body';
import { HttpContext, type Step } from '../context';

/**
 * JSON-RPC batches, for clients of revision 2025-03-26 only (see `../batch.ts`): a POST whose
 * body is an array, from a client that names that version or none, while legacy clients are
 * served. Each member goes through `perMessage` (from `readMessage` to the core) as if it had
 * been posted alone, as the same caller. Every other request passes untouched: a modern one
 * names its version, so its body is not even read here.
 */
export function answerBatch(perMessage: readonly Step[]): Step {
  return function answerBatch(context: HttpContext) {
    // nothing to do for most requests: answered at once, without a promise
    if (!context.settings.legacyClients || (context.protocolVersionHeader ?? BATCH_VERSION) !== BATCH_VERSION) return undefined;
    return readBatch(context, perMessage);
  };
}

async function readBatch(context: HttpContext, perMessage: readonly Step[]): Promise<Response | undefined> {
  const { request, settings } = context;
  const body = await readJsonBody(request, settings.maxBodyBytes);
  if (body instanceof McpError) return context.fail(null, body);
  // Not a batch: readMessage reads the text already read here.
  if (body.trimStart()[0] !== '[') {
    context.body = body;
    return undefined;
  }
  const parsed = parseMessage(body);
  const batch = parsed.error ? parsed.batch : undefined;
  if (!batch) {
    context.body = body; // not a JSON array after all: readMessage answers what it is
    return undefined;
  }
  context.batchSize = batch.length;
  const answer = await serveBatch(batch, request, (member) => context.member(member).run(perMessage));
  return answer instanceof McpError ? context.fail(null, answer) : answer;
}
