/**
 * `resources/read` (spec 2026-07-28 server/resources): a fixed resource, else the first
 * template whose pattern matches, admitted once (`find`: what its rules hide from the caller is
 * not found; what needs scopes the caller lacks is 403), read in rounds; cacheable with the
 * resource's own hints, or the server's.
 *
 * A read whose answer depends on who asks is private, whatever those hints say, as a list that
 * depends on the caller is (`./list.ts`; spec server/utilities/caching: caches MUST NOT be
 * shared across authorization contexts): a read of what has a `visibleTo` rule or
 * `requiredScopes`, and a read answered past an item its rule hid from this caller (another
 * caller, who sees that item, is answered with it for the same URI).
 */
import type { ItemMethod } from '../request.js';
import { invalidParams, type McpError, resourceNotFoundLegacy } from '../errors.js';
import type { CompiledDefinition } from '../compiledDefinition.js';
import type { RequestMeta } from '../meta.js';
import { serveRound } from '../rounds.js';
import { namedResource, type NamedResource, privately, scopeRefusal } from '../visibility.js';

export function readResource(compiled: CompiledDefinition): ItemMethod<NamedResource> {
  return {
    find(message, meta, caller) {
      const uri = message.params?.uri;
      if (typeof uri !== 'string') return invalidParams('params.uri must be a string');
      const found = namedResource(compiled, uri, caller);
      if (!found) return notFound(uri, meta);
      // Its visibility is decided by namedResource, for the fixed resource and for each template tried.
      return scopeRefusal(found.fixed ?? found.template.definition, caller, compiled.scopeHierarchy) ?? found;
    },
    serve(request, found) {
      const { uri } = found;
      const definition = found.fixed ?? found.template.definition;
      const hints = definition.cache ?? compiled.cache('resources/read', request.caller !== undefined);
      const policy = found.byCaller ? privately(hints) : hints;
      return serveRound(compiled, request, {
        salient: { uri },
        run: async (context) =>
          found.fixed
            ? found.fixed.read(context)
            : ((await found.template.definition.read(uri, found.variables, context)) ?? notFound(uri, request.meta)),
        // A retry depends on answers that are not part of the cache key: immediately stale, private, no-store.
        finish: (result, retry) =>
          retry
            ? { result: compiled.finished(result, { ttlMs: 0, cacheScope: 'private' }).result }
            : compiled.finished(result, policy),
      });
    },
  };
}

/** spec 2026-07-28 server/resources: -32602, not -32002 (which legacy clients still expect). */
const notFound = (uri: string, meta: RequestMeta): McpError =>
  meta.era === 'legacy' ? resourceNotFoundLegacy(uri) : invalidParams(`Resource not found: ${uri}`, { uri });
