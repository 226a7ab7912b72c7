/**
 * The list methods (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`;
 * spec 2026-07-28 server/utilities/pagination): every page of a static list serialized once per
 * isolate, for an anonymous caller, an authenticated one and a legacy client; a request is one
 * map lookup by its cursor.
 */
import type { CacheableMethod } from '../define';
import { invalidParams } from '../errors';
import { legacyShape } from '../legacy';
import { paginate } from '../paginate';
import type { Registry } from '../registry';
import type { Method } from '../request';

export function list(server: Registry, method: CacheableMethod, key: string, items: readonly object[]): Method {
  const page = (authenticated: boolean) => (list: readonly object[], nextCursor: string | undefined) =>
    server.finished({ [key]: list, ...(nextCursor ? { nextCursor } : {}) }, server.cache(method, authenticated)).result;
  const pages = [paginate(method, items, server.pageSize, page(false)), paginate(method, items, server.pageSize, page(true))];
  const legacyPages = paginate(method, items, server.pageSize, (list, next) => legacyShape(page(false)(list, next)));
  return (request) => {
    const cursor = request.message.params?.cursor;
    if (cursor !== undefined && typeof cursor !== 'string') return { error: invalidParams('params.cursor must be a string') };
    const authenticated = request.caller !== undefined;
    const found = (request.meta.era === 'legacy' ? legacyPages : pages[Number(authenticated)]!).get(cursor);
    return found ? { result: found, cache: server.cache(method, authenticated) } : { error: invalidParams('unknown cursor', { cursor }) };
  };
}
