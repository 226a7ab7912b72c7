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
import { answer, type Message, parseBody, refuse, refuseMediaType, refuseMismatch } from './bare-checks';

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
  const refused = refuseMediaType(headers);
  if (refused) return refused;
  const message = parseBody(await context.request.arrayBuffer());
  if (message instanceof Response) return message;
  context.message = message;
  return refuseMismatch(headers, message);
}

const serve: Step = (context) => answer(context.message ?? {});

const after = (_response: Response, _context: Context): undefined => undefined;
const notFound = () => new Response('Not Found', { status: 404 });

const router = Router<Context, []>({
  before: [checkOrigin, nothing],
  catch: () => refuse(500, -32603, 'internal error'),
  finally: [after, after, after],
})
  // one per step of POST /mcp in src/http/router.ts: the span first, the message fifth, the core's answer last
  .post('/mcp', startTrace, nothing, nothing, nothing, readMessage, nothing, nothing, serve)
  .options('/mcp', () => new Response(null, { status: 204 }))
  .all('/mcp', () => new Response(null, { status: 405, headers: { Allow: 'POST' } }))
  .get('/.well-known/oauth-protected-resource', notFound)
  .get('/.well-known/oauth-protected-resource/mcp', notFound)
  .get('/mcp/server-card', notFound)
  .get('/.well-known/ai-catalog.json', notFound)
  .options('/mcp/server-card', notFound)
  .options('/.well-known/ai-catalog.json', notFound)
  .all('/mcp/server-card', notFound)
  .all('/.well-known/ai-catalog.json', notFound)
  .all('*', notFound);

export default {
  fetch: (request: Request, _env: unknown, ctx: ExecutionContext) => router.fetch(new Context(request, ctx)),
};
