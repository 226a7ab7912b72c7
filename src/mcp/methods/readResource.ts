/**
 * `resources/read` (spec 2026-07-28 server/resources): a fixed resource, else the first
 * template whose pattern matches, read in rounds; cacheable with the resource's own hints. What
 * its rules hide from the caller is not found; what needs scopes the caller lacks is 403.
 */
import { invalidParams, resourceNotFoundLegacy } from '../errors';
import type { CompiledDefinition } from '../compiledDefinition';
import type { Method } from '../request';
import type { CompiledTemplate } from '../resources';
import { serveRound } from '../rounds';
import { refusalFor, visibleTo } from '../visibility';

export function readResource(server: CompiledDefinition): Method {
  return (request) => {
    const uri = request.message.params?.uri;
    if (typeof uri !== 'string') return { error: invalidParams('params.uri must be a string') };
    // spec 2026-07-28 server/resources: -32602, not -32002 (which legacy clients still expect)
    const notFound =
      request.meta.era === 'legacy'
        ? resourceNotFoundLegacy(uri)
        : invalidParams(`Resource not found: ${uri}`, { uri });
    const { caller } = request;
    const named = server.resources.get(uri);
    const fixed = named && visibleTo(named, caller) ? named : undefined;
    let template: CompiledTemplate | undefined;
    let variables: Record<string, string> | undefined;
    for (const candidate of fixed ? [] : server.templates) {
      variables = visibleTo(candidate.definition, caller) ? candidate.match(uri) : undefined;
      if (variables) {
        template = candidate;
        break;
      }
    }
    const found = fixed ?? template?.definition;
    if (!found) return { error: notFound };
    const refused = refusalFor(found, caller, server.scopeHierarchy);
    if (refused) return { error: refused === 'hidden' ? notFound : refused };
    const policy = found.cache ?? server.cache('resources/read', caller !== undefined);
    return serveRound(server, request, {
      salient: { uri },
      run: async (context) =>
        fixed ? fixed.read(context) : ((await template?.definition.read(uri, variables ?? {}, context)) ?? notFound),
      // A retry depends on answers that are not part of the cache key: immediately stale, private, no-store.
      finish: (result, retry) =>
        retry
          ? { result: server.finished(result, { ttlMs: 0, cacheScope: 'private' }).result }
          : server.finished(result, policy),
    });
  };
}
