/**
 * Precomputed pagination (spec 2026-07-28 server/utilities/pagination): every page of a
 * static list is serialized once, keyed by its opaque cursor; a request is one map lookup.
 */

import { RawJson } from './json.js';
import { resultJson } from './resultJson.js';

/**
 * Splits `items` into pages and serializes each with `page(items, nextCursor)`, for a client of
 * the legacy era (`legacy`) or not. The first page has the key `undefined`; the others are keyed
 * by the cursor that the previous page returned.
 */
export function paginate<T>(
  list: string,
  items: readonly T[],
  pageSize: number,
  page: (items: readonly T[], nextCursor: string | undefined) => object,
  legacy: boolean,
): Map<string | undefined, RawJson> {
  const pages = new Map<string | undefined, RawJson>();
  let cursor: string | undefined;
  for (let offset = 0; offset === 0 || offset < items.length; offset += pageSize) {
    const next = offset + pageSize < items.length ? btoa(`${list}:${offset + pageSize}`) : undefined;
    pages.set(cursor, new RawJson(resultJson(page(items.slice(offset, offset + pageSize), next), legacy)));
    cursor = next;
  }
  return pages;
}
