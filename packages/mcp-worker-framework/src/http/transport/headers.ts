/**
 * Request metadata headers must agree with the body (spec 2026-07-28 streamable-http,
 * Request Metadata and Server Validation): any disagreement, absence or malformed value
 * is -32020 HeaderMismatch, so intermediaries that route on headers cannot be fooled.
 */
import {
  headerMismatch,
  type HeaderParam,
  isObject,
  type JsonObject,
  type JSONRPCRequest,
  type McpError,
  type RequestMeta,
} from '../../mcp/internal.js';

/** Methods that name their target in `Mcp-Name`, and the body field it mirrors (tasks: spec extensions/tasks, Routing Headers). */
const NAMED: ReadonlyMap<string, 'name' | 'uri' | 'taskId'> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
]);

// RFC 9110 field values: visible ASCII, space and tab.
const FIELD_VALUE = /^[\x20-\x7e\t]*$/;
const SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// Lossless: invalid UTF-8 is an error, not U+FFFD, and a byte-order mark is a character of the value, not dropped.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// spec streamable-http, Value Encoding: an integer is sent as its decimal representation ("42",
// "-7"); Server Validation compares numerically, so "42.0" is 42 as well. Nothing else is one:
// no "+", exponent, hex, binary or octal prefix, whitespace or leading zero.
const DECIMAL_INTEGER = /^-?(?:0|[1-9][0-9]*)(?:\.0+)?$/;

/** Returns the first disagreement between headers and body, or undefined when they agree. */
export function checkHeaders(
  headers: Headers,
  request: JSONRPCRequest,
  meta: RequestMeta,
  version = headers.get('MCP-Protocol-Version'),
): McpError | undefined {
  if (version === null) return headerMismatch('MCP-Protocol-Version header is required');
  if (version !== meta.protocolVersion) {
    return headerMismatch(
      `MCP-Protocol-Version header value '${clip(version)}' does not match body value '${clip(meta.protocolVersion)}'`,
    );
  }
  const method = headers.get('Mcp-Method');
  if (method === null) return headerMismatch('Mcp-Method header is required');
  if (method !== request.method) {
    return headerMismatch(
      `Mcp-Method header value '${clip(method)}' does not match body value '${clip(request.method)}'`,
    );
  }
  const field = NAMED.get(request.method);
  if (field === undefined) return undefined;
  const params = request.params ?? {};
  return checkMirrored(headers.get('Mcp-Name'), 'Mcp-Name', params[field], `params.${field}`);
}

/** `Mcp-Param-{Name}` for each parameter the tool annotates with `x-mcp-header` (checked with the tool's other policy). */
export function checkParamHeaders(
  headers: Headers,
  params: readonly HeaderParam[],
  args: unknown,
): McpError | undefined {
  for (const param of params) {
    const name = `Mcp-Param-${param.header}`;
    const value = valueAt(args, param.path);
    const raw = headers.get(name);
    const where = `arguments.${param.path.join('.')}`;
    // spec: a null or absent value means the client omits the header and the server expects none
    if (value === undefined || value === null) {
      if (raw !== null) return headerMismatch(`${name} header is present but ${where} has no value`);
      continue;
    }
    const error = checkMirrored(raw, name, value, where);
    if (error) return error;
  }
  return undefined;
}

function checkMirrored(raw: string | null, name: string, bodyValue: unknown, where: string): McpError | undefined {
  if (raw === null) return headerMismatch(`${name} header is required and must mirror ${where}`);
  if (!FIELD_VALUE.test(raw)) return headerMismatch(`${name} header value contains invalid characters`);
  const decoded = decodeHeaderValue(raw);
  if (decoded === undefined) return headerMismatch(`${name} header value is not valid =?base64?…?= encoding`);
  if (typeof bodyValue === 'number') {
    if (!DECIMAL_INTEGER.test(decoded))
      return headerMismatch(`${name} header value '${clip(decoded)}' is not a decimal integer`);
    // A double holds integers exactly up to 2^53 only: beyond, the body's digits are not known, so they cannot be shown equal.
    if (!Number.isSafeInteger(bodyValue))
      return headerMismatch(
        `${where} is not an integer within ±(2^53 - 1): ${name} cannot be compared with it exactly`,
      );
  }
  if (!sameValue(decoded, bodyValue)) {
    return headerMismatch(
      `${name} header value '${clip(decoded)}' does not match body value '${clip(String(bodyValue))}' at ${where}`,
    );
  }
  return undefined;
}

/**
 * Decodes the Base64 sentinel `=?base64?…?=` (spec streamable-http, Value Encoding); a plain
 * value is returned as it is, a broken encoding as undefined. Only one encoding decodes to a
 * given value: Base64 in its canonical form (unused bits zero, RFC 4648 section 3.5) and
 * UTF-8 that decodes without loss, so what is compared is what the client encoded.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const sentinel = SENTINEL.exec(raw);
  if (!sentinel) return raw;
  const encoded = sentinel[1] ?? '';
  if (!BASE64.test(encoded)) return undefined;
  const bytes = atob(encoded);
  if (btoa(bytes) !== encoded) return undefined;
  try {
    return utf8.decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * Strings compare exactly; booleans as `true`/`false`; an integer (a decimal already checked,
 * the body's within 2^53) by its digits, "42.0" and "-0" read as "42" and "0".
 */
function sameValue(header: string, body: unknown): boolean {
  if (typeof body === 'number') {
    const digits = header.replace(/\.0+$/, '');
    return (digits === '-0' ? '0' : digits) === String(body);
  }
  if (typeof body === 'string' || typeof body === 'boolean') return header === String(body);
  return false;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

const clip = (value: string) => (value.length > 80 ? `${value.slice(0, 80)}…` : value);
