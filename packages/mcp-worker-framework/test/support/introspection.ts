/**
 * The tests' RFC 7662 introspection endpoint: a loopback stand-in of an authorization server
 * that issues opaque tokens. A test says what each token is (`tokens.set(token, answer)`; an
 * unknown token is `{ active: false }`), breaks the endpoint the way it wants, and reads what the
 * Worker sent: how many introspections, with which client credentials and form.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the endpoint answers. */
export type IntrospectionBehaviour = 'answers' | 'status-500' | 'status-400' | 'not-json' | 'not-an-answer' | 'hang';

export interface IntrospectionEndpoint {
  /** Where the Worker posts (AUTH_INTROSPECTION_URL). */
  readonly url: string;
  /** The client it accepts (HTTP Basic); any other gets 401. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** What each token is: the introspection answer, `active` included. */
  readonly tokens: Map<string, Record<string, unknown>>;
  behaviour: IntrospectionBehaviour;
  /** Introspection requests received so far, answered or not. */
  calls: number;
  /** The last request: its Authorization header and its form. */
  last: { authorization: string | undefined; form: Record<string, string> } | undefined;
  close(): Promise<void>;
}

export async function startIntrospection(
  clientId = 'mcp server',
  clientSecret = 's3cret:with&odd=chars',
): Promise<IntrospectionEndpoint> {
  const expected = `Basic ${Buffer.from(`${encodeForm(clientId)}:${encodeForm(clientSecret)}`).toString('base64')}`;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/introspect') return void res.writeHead(404).end();
      endpoint.calls++;
      const form = Object.fromEntries(new URLSearchParams(body));
      endpoint.last = { authorization: req.headers.authorization, form };
      switch (endpoint.behaviour) {
        case 'hang':
          return; // never answers; the socket is closed when the endpoint stops
        case 'status-400':
          // What many authorization servers answer for a token they cannot parse.
          return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_request"}');
        case 'status-500':
          return void res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        case 'not-json':
          return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>');
        case 'not-an-answer':
          return void res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"error":"temporarily_unavailable"}');
      }
      // RFC 7662 2.1: the protected resource authenticates; RFC 6749 2.3.1: a wrong client is 401.
      if (req.headers.authorization !== expected)
        return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
      const answer = endpoint.tokens.get(form.token ?? '') ?? { active: false };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint: IntrospectionEndpoint = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`,
    clientId,
    clientSecret,
    tokens: new Map(),
    behaviour: 'answers',
    calls: 0,
    last: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return endpoint;
}

/** application/x-www-form-urlencoded, as RFC 6749 2.3.1 asks of a client id and secret. */
const encodeForm = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
