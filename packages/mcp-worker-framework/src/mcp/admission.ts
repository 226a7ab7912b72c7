/**
 * Admission: everything the core decides about a request before it serves it, decided once
 * (docs/architecture.md, "Each rule decided once"). The version for the request's era (-32022), the method
 * served to that era (-32601) and, for a method whose request names an item (`tools/call`,
 * `prompts/get`, `resources/read`), the item: found by name or URI, visible to the caller
 * (else unknown to it, -32602) and its scopes granted (else 403 naming the broadest missing
 * ones). What passes is one record, `Admission`; the transport keeps it and later hands it to
 * `serve`, which trusts it: nothing is looked up or checked again.
 */
import { McpError, methodNotFound, unsupportedVersion } from './errors.js';
import { LEGACY_VERSIONS, servedVersions } from './legacy.js';
import { type RequestMeta, SUPPORTED_VERSIONS } from './meta.js';
import type { Admission, Caller, Served } from './request.js';
import type { JSONRPCRequest } from './types.js';

/** The `admit` of a server: its methods for modern and for legacy clients, each admission without an item made once. */
export function admitter(modern: ReadonlyMap<string, Served>, legacy: ReadonlyMap<string, Served>) {
  const plain = (methods: ReadonlyMap<string, Served>) =>
    new Map(
      [...methods].flatMap(([name, served]) =>
        typeof served === 'function' ? [[name, { serve: served, item: undefined, headerParams: undefined }]] : [],
      ),
    );
  const admissions = { modern: plain(modern), legacy: plain(legacy) };

  /**
   * Admits `message` (whose `_meta` the transport has read into `meta`) for `caller`; `servesLegacy`
   * says which versions -32022 lists. Refusals come in the order a client fixes them: the version,
   * the method, the item.
   */
  return function admit(
    message: JSONRPCRequest,
    meta: RequestMeta,
    caller: Caller | undefined,
    servesLegacy: boolean,
  ): Admission | McpError {
    const isLegacy = meta.era === 'legacy';
    // spec 2026-07-28 basic/versioning: an unsupported version is refused on every method
    // (initialize negotiates instead: spec 2025-11-25 lifecycle)
    const versions: readonly string[] = isLegacy ? LEGACY_VERSIONS : SUPPORTED_VERSIONS;
    if (!versions.includes(meta.protocolVersion) && !(isLegacy && message.method === 'initialize'))
      return unsupportedVersion(servedVersions(isLegacy || servesLegacy), meta.protocolVersion);
    // Most requests name no item: their admission was made once, with the table.
    const admitted = (isLegacy ? admissions.legacy : admissions.modern).get(message.method);
    if (admitted) return admitted;
    const served = (isLegacy ? legacy : modern).get(message.method);
    if (!served || typeof served === 'function') return methodNotFound(message.method);
    const item = served.find(message, meta, caller);
    if (item instanceof McpError) return item;
    return { serve: served.serve, item, headerParams: served.headerParams?.(item) };
  };
}
