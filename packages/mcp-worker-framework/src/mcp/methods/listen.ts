/**
 * `subscriptions/listen` (spec 2026-07-28 basic/patterns/subscriptions): acknowledge first with
 * the honoured subset of the filter, tag every message with the subscription id (the request
 * id). Nothing this Worker serves changes while a client listens, so no notification type is
 * honoured here; an extension may honour its own (the Tasks extension: task status).
 */
import { invalidParams } from '../errors';
import { isObject, RawJson } from '../json';
import { MetaKey } from '../meta';
import type { CompiledDefinition } from '../compiledDefinition';
import type { Method } from '../request';
import { resultJson } from '../resultJson';

export function listen(compiled: CompiledDefinition): Method {
  return (request) => {
    const { id, params } = request.message;
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
