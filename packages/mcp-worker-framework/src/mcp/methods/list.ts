/**
 * The list methods (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`;
 * spec 2026-07-28 server/utilities/pagination): every page of a static list serialized once per
 * isolate, for an anonymous caller, an authenticated one and a legacy client, on the first
 * request of each (not at module load: a cold start serializes only what it answers); a request
 * is then one map lookup by its cursor.
 *
 * A list with an item that needs scopes or has a `visibleTo` rule depends on who asks
 * (`../visibility.ts`): each request picks the items its caller may use, and the pages of that
 * selection are serialized once and kept (a bounded number of selections per isolate). Its
 * cursors name the selection, so a cursor pages only a list that shows the same items; its
 * results are private (spec server/utilities/caching: a result that depends on the caller).
 * Whether a list is such a list is decided here, once: the others keep the precomputed path.
 */
import type { CacheableMethod, CallerRules } from '../define.js';
import { invalidParams } from '../errors.js';
import { fnv1a } from '../fnv1a.js';
import type { RawJson } from '../json.js';
import { paginate } from '../paginate.js';
import type { ServerAtLoad } from '../extension.js';
import type { McpRequest, Method } from '../request.js';
import type { CachePolicy } from '../types.js';
import { isRestricted, listedFor, privately } from '../visibility.js';

/** An item of a list: who may see it, and how it is listed. */
interface ListItem {
  readonly rules: CallerRules;
  readonly listed: object;
}

/** How many selections of a list an isolate keeps serialized: enough for the scope sets of a deployment, bounded whatever callers send. */
const KEPT_SELECTIONS = 64;

/** A list's pages for a modern or a legacy client, each serialized on its first request and kept. */
type Pages = (legacy: boolean) => Map<string | undefined, RawJson>;

/**
 * `method` names the caching hints the list takes; `name`, what its cursors are minted for (an
 * extension's list, such as `skills/list`, takes the hints of `resources/list` under its own name).
 */
export function list(
  compiled: ServerAtLoad,
  method: CacheableMethod,
  key: string,
  items: readonly ListItem[],
  name: string = method,
): Method {
  const page = (policy: CachePolicy) => (list: readonly object[], nextCursor: string | undefined) =>
    compiled.finished({ [key]: list, ...(nextCursor ? { nextCursor } : {}) }, policy).result;
  const pagesOf = (cursors: string, listed: readonly object[], policy: CachePolicy): Pages => {
    let modern: Map<string | undefined, RawJson> | undefined;
    let legacy: Map<string | undefined, RawJson> | undefined;
    return (isLegacy) =>
      isLegacy
        ? (legacy ??= paginate(cursors, listed, compiled.pageSize, page(policy), true))
        : (modern ??= paginate(cursors, listed, compiled.pageSize, page(policy), false));
  };
  const serve = (request: McpRequest, pages: Pages, policy: CachePolicy) => {
    const cursor = request.message.params?.cursor;
    if (cursor !== undefined && typeof cursor !== 'string')
      return { error: invalidParams('params.cursor must be a string') };
    const found = pages(request.meta.era === 'legacy').get(cursor);
    return found ? { result: found, cache: policy } : { error: invalidParams('unknown cursor', { cursor }) };
  };
  const listed = items.map((item) => item.listed);

  if (!items.some((item) => isRestricted(item.rules))) {
    const policies = [compiled.cache(method, false), compiled.cache(method, true)] as const;
    const pages = [pagesOf(name, listed, policies[0]), pagesOf(name, listed, policies[1])] as const;
    return (request) => {
      const authenticated = Number(request.caller !== undefined) as 0 | 1;
      return serve(request, pages[authenticated], policies[authenticated]);
    };
  }

  // The list depends on the caller: private, whatever the definition says; its ttlMs stays the author's.
  const policy = privately(compiled.cache(method, true));
  const selections = new Map<string, Pages>();
  return (request) => {
    const chosen = items.map((item) => listedFor(item.rules, request.caller));
    const selection = chosen.map(Number).join('');
    let pages = selections.get(selection);
    if (pages === undefined) {
      // The cursor names the selection: another caller's cursor finds no page here (unless it sees the same items).
      pages = pagesOf(
        `${name}:${fnv1a(selection)}`,
        listed.filter((_, i) => chosen[i]),
        policy,
      );
      if (selections.size >= KEPT_SELECTIONS) selections.delete(selections.keys().next().value!);
      selections.set(selection, pages);
    }
    return serve(request, pages, policy);
  };
}
