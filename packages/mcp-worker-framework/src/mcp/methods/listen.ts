/**
 * `subscriptions/listen` (spec 2026-07-28 basic/patterns/subscriptions): acknowledge first with
 * the honoured subset of the filter, tag every message with the subscription id (the request
 * id). Nothing this Worker serves changes while a client listens, so no notification type is
 * honoured here; an extension may honour its own (the Tasks extension: task status).
 */
import { invalidParams } from '../errors.js';
import { isObject, RawJson } from '../json.js';
import { MetaKey } from '../meta.js';
import type { CompiledDefinition } from '../compiledDefinition.js';
import type { Method } from '../request.js';
import { resultJson } from '../resultJson.js';
import type { RequestId } from '../types.js';

/**
 * The longest id, in characters of JSON, of a request whose answer echoes it in every message of a
 * stream: a `subscriptions/listen` tags the acknowledgement, each notification (task status ones
 * included) and the closing result with it, and names it in `notifications/cancelled`. JSON-RPC
 * bounds no id, so a multi-megabyte one would make every event of the stream that large, held in
 * this isolate while the client does not read. 256 characters is seven UUIDs; a longer id is
 * refused with -32602 (HTTP 400) before any stream opens (docs/notifications.md, "Limits").
 */
const MAX_STREAM_ID_CHARS = 256;

/** Whether `id` is longer than `MAX_STREAM_ID_CHARS` as JSON (a long string is not serialized to find out). */
const tooLong = (id: RequestId) =>
  (typeof id === 'string' && id.length > MAX_STREAM_ID_CHARS) || JSON.stringify(id).length > MAX_STREAM_ID_CHARS;

export function listen(compiled: CompiledDefinition): Method {
  return (request) => {
    const { id, method, params } = request.message;
    if (tooLong(id))
      return {
        error: invalidParams(
          `the id of a ${method} request must be at most ${MAX_STREAM_ID_CHARS} characters of JSON: every message of the stream echoes it`,
        ),
      };
    if (!isObject(params?.notifications)) return { error: invalidParams('params.notifications must be an object') };
    const tag = { [MetaKey.subscriptionId]: id };
    return {
      listen: {
        acknowledgement: {
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { notifications: {}, _meta: tag },
        },
        teardown: {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'The server ended the subscription', _meta: tag },
        },
        // subscriptions/listen is no method of the legacy era: its result is in the modern shape.
        closing: new RawJson(resultJson({ resultType: 'complete', _meta: { ...compiled.serverMeta, ...tag } }, false)),
      },
    };
  };
}
