/**
 * `resources/read` (spec 2026-07-28 server/resources): a fixed resource, else the first
 * template whose pattern matches, read in rounds; cacheable with the resource's own hints.
 */
import { invalidParams, resourceNotFoundLegacy } from '../errors';
import type { Registry } from '../registry';
import type { Method } from '../request';
import type { CompiledTemplate } from '../resources';
import { serveRound } from '../rounds';

export function readResource(server: Registry): Method {
  return (request) => {
    const uri = request.message.params?.uri;
    if (typeof uri !== 'string') return { error: invalidParams('params.uri must be a string') };
    // spec 2026-07-28 server/resources: -32602, not -32002 (which legacy clients still expect)
    const notFound = request.meta.era === 'legacy' ? resourceNotFoundLegacy(uri) : invalidParams(`Resource not found: ${uri}`, { uri });
    const fixed = server.resources.get(uri);
    let template: CompiledTemplate | undefined;
    let variables: Record<string, string> | undefined;
    for (const candidate of fixed ? [] : server.templates) {
      variables = candidate.match(uri);
      if (variables) {
        template = candidate;
        break;
      }
    }
    if (!fixed && !template) return { error: notFound };
    const policy = (fixed ?? template?.definition)?.cache ?? server.cache('resources/read', request.caller !== undefined);
    return serveRound(server, request, {
      salient: { uri },
      run: async (context) => (fixed ? fixed.read(context) : ((await template?.definition.read(uri, variables ?? {}, context)) ?? notFound)),
      // A retry depends on answers that are not part of the cache key: immediately stale, private, no-store.
      finish: (result, retry) => (retry ? { result: server.finished(result, { ttlMs: 0, cacheScope: 'private' }).result } : server.finished(result, policy)),
    });
  };
}
