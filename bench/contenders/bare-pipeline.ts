/**
 * Contender "bare + pipeline": "bare + checks" served the way the template serves `POST /mcp`
 * (src/http/router.ts), with no MCP at all. One itty-router `Router` with the template's routes;
 * the same steps in the same places (2 before every route, 8 on `POST /mcp`, 3 finally), each
 * doing what it does under the benchmark's settings: the origin check reads `Origin`, the trace
 * step asks the runtime whether this request is traced, the message step makes bare + checks'
 * checks, the last step answers a fixed result with the request's id; the rest (host policy,
 * limiters, token, batch, tool policy, CORS, log, span end) have nothing to do and return at once.
 * What the template's HTTP pipeline costs before its protocol core does anything: the floor for
 * a template built as this one is. Keep its lists in step with src/http/router.ts.
 */
import { Router } from 'itty-router';

const RESULT = { resultType: 'complete', content: [{ type: 'text', text: 'hello' }] };
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Message {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; _meta?: Record<string, unknown> };
}

class Context {
  readonly method: string;
  readonly url: string;
  params: Record<string, string> = {};
  query: Record<string, string | string[] | undefined> = {};
  route = '';
  message: Message | undefined = undefined;
  traced = false;
  constructor(
    readonly request: Request,
    readonly ctx: ExecutionContext,
  ) {
    this.method = request.method;
    this.url = request.url;
  }
}

type Step = (context: Context) => Response | undefined | Promise<Response | undefined>;

const refuse = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), { status, headers: JSON_HEADERS });

const nothing: Step = () => undefined;

const checkOrigin: Step = (context) => {
  const origin = context.request.headers.get('Origin');
  return origin === null ? undefined : refuse(403, -32600, 'origin not allowed');
};

interface Tracing {
  getActiveSpan?(): { readonly isTraced: boolean } | undefined;
}

const startTrace: Step = (context) => {
  context.traced = (context.ctx as { tracing?: Tracing }).tracing?.getActiveSpan?.()?.isTraced === true;
  return undefined;
};

async function readMessage(context: Context): Promise<Response | undefined> {
  const { headers } = context.request;
  if (!headers.get('content-type')?.startsWith('application/json')) return refuse(415, -32600, 'unsupported media type');
  let message: Message;
  try {
    message = JSON.parse(utf8.decode(await context.request.arrayBuffer()));
  } catch {
    return refuse(400, -32700, 'parse error');
  }
  const version = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  const name = headers.get('mcp-name');
  if (headers.get('mcp-protocol-version') !== version || headers.get('mcp-method') !== message.method || (name !== null && name !== message.params?.name)) {
    return refuse(400, -32020, 'header mismatch');
  }
  context.message = message;
  return undefined;
}

const serve: Step = (context) => new Response(JSON.stringify({ jsonrpc: '2.0', id: context.message?.id ?? null, result: RESULT }), { headers: JSON_HEADERS });

const after = (_response: Response, _context: Context): undefined => undefined;
const notFound = () => new Response('Not Found', { status: 404 });

const router = Router<Context, []>({ before: [checkOrigin, nothing], catch: () => refuse(500, -32603, 'internal error'), finally: [after, after, after] })
  // startTrace, limitByAddress, verifyToken, answerBatch, readMessage, limitByCaller, checkToolPolicy, serveMcp
  .post('/mcp', startTrace, nothing, nothing, nothing, readMessage, nothing, nothing, serve)
  .options('/mcp', () => new Response(null, { status: 204 }))
  .all('/mcp', () => new Response(null, { status: 405, headers: { Allow: 'POST' } }))
  .get('/.well-known/oauth-protected-resource', notFound)
  .get('/.well-known/oauth-protected-resource/mcp', notFound)
  .all('*', notFound);

export default {
  fetch: (request: Request, _env: unknown, ctx: ExecutionContext) => router.fetch(new Context(request, ctx)),
};
