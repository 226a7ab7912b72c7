/**
 * The requests every contender answers, on the 2026-07-28 wire (the SDK and agents serve it
 * too): what a conforming client sends, byte for byte, and what the answer must contain.
 */
export const VERSION = '2026-07-28';

const meta = (version) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'bench-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

function request(method, params, { version = VERSION, name } = {}) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta(version) } });
  return {
    method: 'POST',
    headers: {
      // as on the wire: workerd hands every Worker a request with its length
      'content-length': String(Buffer.byteLength(body)),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body,
  };
}

/** op → request and the check its answer must pass. */
export const OPS = {
  discover: { ...request('server/discover', {}), expect: { status: 200, contains: '"supportedVersions"' } },
  'tools/list': { ...request('tools/list', {}), expect: { status: 200, contains: '"name":"echo"' } },
  'tools/call': {
    ...request('tools/call', { name: 'echo', arguments: { text: 'hello' } }, { name: 'echo' }),
    expect: { status: 200, contains: '"text":"hello"' },
  },
  reject: { ...request('server/discover', {}, { version: '1900-01-01' }), expect: { status: 400, contains: '-32022' } },
};

/**
 * What a forker ships serves other tools than echo: "shipped" (the default Worker) is called with
 * its example tool `add`, "fork" with the README's "Add a tool" tool `greet` (bench/build.mjs).
 * The same four operations, these requests and checks in place of echo's.
 */
export const VARIANTS = {
  'tools/list add': { ...request('tools/list', {}), expect: { status: 200, contains: '"name":"add"' } },
  'tools/call add': {
    ...request('tools/call', { name: 'add', arguments: { a: 1, b: 2 } }, { name: 'add' }),
    expect: { status: 200, contains: '"structuredContent":{"sum":3}' },
  },
  'tools/list greet': { ...request('tools/list', {}), expect: { status: 200, contains: '"name":"greet"' } },
  'tools/call greet': {
    ...request('tools/call', { name: 'greet', arguments: { name: 'bench' } }, { name: 'greet' }),
    expect: { status: 200, contains: '"text":"Hello, bench!"' },
  },
};
const OPS_OF = {
  shipped: { 'tools/list': 'tools/list add', 'tools/call': 'tools/call add' },
  fork: { 'tools/list': 'tools/list greet', 'tools/call': 'tools/call greet' },
};
const ALL = { ...OPS, ...VARIANTS };

/** The request a contender (or its bundle's name) is sent for an operation of OPS: a key of OPS or VARIANTS. */
export const opFor = (contender, op) => OPS_OF[contender]?.[op] ?? op;

/** The request of an operation (a key of OPS or VARIANTS). */
export const requestOf = (op) => ALL[op];

/** The bare Workers answer anything with a fixed result (bare + parse with the request's id). */
export const BARE_EXPECT = { status: 200, contains: '"id":1,"result"' };

export const isBare = (contender) => contender.startsWith('bare');
export const expectationFor = (contender, op) => (isBare(contender) ? BARE_EXPECT : ALL[opFor(contender, op)].expect);

/** Headers for an HTTP client that computes the length itself (fetch, wrk). */
export function wireHeaders(op) {
  const { 'content-length': _length, ...headers } = ALL[op].headers;
  return headers;
}

export function toRequest(url, op) {
  const { method, headers, body } = ALL[op];
  return new Request(url, { method, headers: { ...headers, host: new URL(url).host }, body });
}
