/**
 * Serving clients of the `initialize` era (spec 2026-07-28 basic/versioning, Backward
 * Compatibility), statelessly, under the rules of spec 2025-11-25. Everything that differs
 * for them lives here: the versions, the methods they may call and the shape of their results
 * (the HTTP status of their errors is the transport's: src/http/transport/errorAnswer.ts).
 */
import { type McpError, unsupportedVersion } from './errors.js';
import { isObject } from './json.js';
import type { CompiledDefinition } from './compiledDefinition.js';
import type { Served } from './request.js';
import { SUPPORTED_VERSIONS, type RequestMeta } from './meta.js';
import { readTraceContext } from './traceContext.js';
import type { JsonObject } from './types.js';

/**
 * Legacy revisions, newest first. Not in `supportedVersions` (a version listed there must be
 * usable in a modern request); while legacy clients are served they are listed after the
 * modern ones, in discover's `supportedVersions` and in -32022's `supported`, as the spec's
 * example does (basic/versioning); a modern client picks the modern ones from the list.
 */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** Every version served while legacy clients are: the modern ones first, then the legacy ones. */
const SERVED_WITH_LEGACY: readonly string[] = [...SUPPORTED_VERSIONS, ...LEGACY_VERSIONS];

/** Every version served, for discover and -32022: the modern ones, then the legacy ones when they are served. */
export const servedVersions = (servesLegacy: boolean): readonly string[] =>
  servesLegacy ? SERVED_WITH_LEGACY : SUPPORTED_VERSIONS;

/** A legacy request without MCP-Protocol-Version is 2025-03-26 (spec 2026-07-28 streamable-http, Protocol Version Header). */
const LEGACY_DEFAULT_VERSION = '2025-03-26';

/**
 * The modern methods a legacy client may call, by name: a method added to the core later is
 * not served to legacy clients until it is listed here. (`server/discover` and
 * `subscriptions/listen` do not exist in 2025-11-25; `initialize`, `ping` and
 * `logging/setLevel` are added below.)
 */
const LEGACY_METHODS = [
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
] as const;

/**
 * The methods legacy clients get: the listed modern ones the server serves, those its extensions
 * define for them too (`extensionMethods`), plus the legacy lifecycle.
 */
export function legacyMethods(
  methods: ReadonlyMap<string, Served>,
  compiled: CompiledDefinition,
  extensionMethods: readonly string[] = [],
): Map<string, Served> {
  const legacy = new Map<string, Served>();
  for (const method of [...LEGACY_METHODS, ...extensionMethods]) {
    const served = methods.get(method);
    if (served) legacy.set(method, served);
  }
  // spec 2025-11-25 lifecycle, served statelessly: `initialize` negotiates a version and
  // describes the server exactly as discover does; nothing is kept, so later requests carry
  // their version in the MCP-Protocol-Version header.
  legacy.set('initialize', (request) => {
    const requested = request.message.params?.protocolVersion;
    const version = (LEGACY_VERSIONS as readonly unknown[]).includes(requested) ? requested : LEGACY_VERSIONS[0];
    return compiled.finished({
      protocolVersion: version,
      capabilities: compiled.capabilities,
      serverInfo: compiled.info,
      ...(compiled.instructions ? { instructions: compiled.instructions } : {}),
    });
  });
  legacy.set('ping', () => ({ result: {} }));
  // Accepted for compatibility; a stateless server cannot remember a level, so legacy requests get no logs.
  if (compiled.logging) legacy.set('logging/setLevel', () => ({ result: {} }));
  return legacy;
}

/**
 * A legacy request's metadata: the version its `MCP-Protocol-Version` header names (the
 * client's capabilities were told to an `initialize` this server does not remember, so none
 * are assumed), and the progress token and trace context it may carry. Whether that version
 * is served is the admission's to decide (`./admission.ts`), as for every request.
 */
export function readLegacyMeta(params: JsonObject | undefined, header: string | null): RequestMeta {
  const meta = isObject(params?._meta) ? params._meta : {};
  const out: RequestMeta = { era: 'legacy', protocolVersion: header ?? LEGACY_DEFAULT_VERSION, clientCapabilities: {} };
  if (typeof meta.progressToken === 'string' || Number.isInteger(meta.progressToken))
    out.progressToken = meta.progressToken as string | number;
  const trace = readTraceContext(meta.traceparent, meta.tracestate);
  if (trace) out.trace = trace;
  return out;
}

/**
 * With legacy serving switched off, a legacy client opens with `initialize` and has no way
 * forward, so the refusal names the versions this server speaks (spec 2026-07-28
 * basic/versioning, Backward Compatibility).
 */
export function noLegacyHandshake(supported: readonly string[], params: JsonObject | undefined): McpError {
  const requested = typeof params?.protocolVersion === 'string' ? params.protocolVersion : 'unknown';
  return unsupportedVersion(
    supported,
    requested,
    `Unsupported protocol version ${requested}: this server speaks ${supported.join(', ')} and has no initialize handshake`,
  );
}

/** A result as a legacy client expects it (spec 2025-11-25): no `resultType`, no caching hints. */
export function legacyShape(result: object): object {
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...legacy } = result as JsonObject;
  return legacy;
}
