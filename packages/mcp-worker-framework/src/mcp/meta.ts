/**
 * Per-request `_meta` (spec 2026-07-28 basic/index, Per-request protocol fields): every
 * request names its protocol version and client capabilities; there is no handshake and
 * nothing is remembered between requests.
 */
import { invalidParams, type McpError } from './errors.js';
import { isObject } from './json.js';
import { readTraceContext, type TraceContext } from './traceContext.js';
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel } from './types.js';

/** Protocol revisions served with per-request `_meta` (spec 2026-07-28 basic/versioning); legacy ones are in legacy.ts. */
export const SUPPORTED_VERSIONS = ['2026-07-28'] as const;

/** Reserved `_meta` keys, by the spec's names. */
export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Syslog severities, least severe first (spec 2026-07-28 server/utilities/logging). */
export const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** What one request says about its client, validated. */
export interface RequestMeta {
  /** Set for a request served under the legacy rules (no modern `_meta` claim). */
  era?: 'legacy';
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
  progressToken?: string | number;
  /** The W3C trace context `_meta` carries, when it is valid (an invalid one is dropped: ./traceContext.ts). */
  trace?: TraceContext;
}

/** Reads and checks `params._meta`; a missing or ill-typed required field is -32602 naming it. */
export function readRequestMeta(params: JsonObject | undefined): RequestMeta | McpError {
  const meta = params?._meta;
  if (!isObject(meta)) return invalidParams('params._meta is required and must be an object');
  const version = meta[MetaKey.protocolVersion];
  if (typeof version !== 'string') return invalidParams(`_meta["${MetaKey.protocolVersion}"] must be a string`);
  const capabilities = meta[MetaKey.clientCapabilities];
  if (!isObject(capabilities)) return invalidParams(`_meta["${MetaKey.clientCapabilities}"] must be an object`);

  const out: RequestMeta = { protocolVersion: version, clientCapabilities: capabilities };
  const info = meta[MetaKey.clientInfo];
  if (info !== undefined) {
    if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
      return invalidParams(`_meta["${MetaKey.clientInfo}"] must be an object with string "name" and "version"`);
    }
    out.clientInfo = info as Implementation;
  }
  const level = meta[MetaKey.logLevel];
  if (level !== undefined) {
    if (!LOG_LEVELS.includes(level as LoggingLevel)) {
      return invalidParams(`_meta["${MetaKey.logLevel}"] must be one of ${LOG_LEVELS.join(', ')}`);
    }
    out.logLevel = level as LoggingLevel;
  }
  const token = meta.progressToken;
  if (token !== undefined) {
    if (typeof token !== 'string' && !Number.isInteger(token)) {
      return invalidParams('_meta.progressToken must be a string or an integer');
    }
    out.progressToken = token as string | number;
  }
  const trace = readTraceContext(meta.traceparent, meta.tracestate);
  if (trace) out.trace = trace;
  return out;
}

/**
 * A client capability, or one of the sub-features the spec gates on: an elicitation mode
 * (spec 2026-07-28 client/elicitation), tool use or context inclusion in sampling (client/sampling),
 * an extension by its identifier (`extensions.io.modelcontextprotocol/ui`: spec basic/index, Extensions).
 */
export type ClientFeature =
  | 'elicitation'
  | 'elicitation.form'
  | 'elicitation.url'
  | 'sampling'
  | 'sampling.tools'
  | 'sampling.context'
  | 'roots'
  | `extensions.${string}`;

/**
 * True when the client declared the feature on this request. Own properties only, so
 * `constructor` or `__proto__` never pass for a declared capability; an `elicitation` object
 * that names no mode means form mode only (spec 2026-07-28 client/elicitation, Capabilities).
 */
export function declares(capabilities: ClientCapabilities, feature: string): boolean {
  const dot = feature.indexOf('.');
  const name = dot === -1 ? feature : feature.slice(0, dot);
  if (!Object.hasOwn(capabilities, name)) return false;
  const declared = capabilities[name];
  if (!isObject(declared)) return false;
  if (dot === -1) return true;
  const sub = feature.slice(dot + 1);
  if (name === 'elicitation' && sub === 'form' && !Object.hasOwn(declared, 'form') && !Object.hasOwn(declared, 'url'))
    return true;
  return Object.hasOwn(declared, sub) && isObject(declared[sub]);
}

/** True when the request makes a modern claim: `_meta` names a protocol version (spec 2026-07-28 basic/versioning, Backward Compatibility). */
export const hasModernClaim = (params: JsonObject | undefined): boolean =>
  isObject(params?._meta) && Object.hasOwn(params._meta, MetaKey.protocolVersion);
