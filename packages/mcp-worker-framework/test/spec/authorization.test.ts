/**
 * spec 2026-07-28 basic/authorization (the MCP server as an OAuth 2.1 resource server; RFC 9728,
 * RFC 6750, RFC 8707), and AUTH_MODE = "bearer", the static secret outside that profile.
 */
import { describe, expect, inject, it } from 'vitest';
import { signToken } from '../support/issuer';
import { requestsTo } from '../support/mcp';
import { expectSchema } from './expectSchema';

const RESOURCE = 'https://spec.example.com/mcp';
const jwtUrl = inject('specJwtUrl');
const bearerUrl = inject('specBearerUrl');
const signer = inject('specSigner');
const { post, rpc } = requestsTo(jwtUrl);
const METADATA = '/.well-known/oauth-protected-resource';

/** A token the jwt fixture accepts, for the user `spec-user` with `spec:read`; `claims` add to or override these. */
const token = (claims: Record<string, unknown> = {}) =>
  signToken(signer, { sub: 'spec-user', scope: 'spec:read', ...claims });

const withToken = (bearer: string | undefined, url = jwtUrl): { url: string; headers: Record<string, string> } => ({
  url,
  headers: bearer ? { Authorization: `Bearer ${bearer}` } : {},
});

describe('authorization (AUTH_MODE = "jwt")', () => {
  it('authorization: "MCP servers MUST implement OAuth 2.0 Protected Resource Metadata" with "at least one authorization server"', async () => {
    for (const path of [METADATA, `${METADATA}/mcp`]) {
      const response = await fetch(new URL(path, jwtUrl));
      expect(response.status).toBe(200);
      const document = (await response.json()) as { authorization_servers: string[] };
      expect(document).toMatchObject({ resource: RESOURCE, authorization_servers: [signer.issuer] });
      expect(document.authorization_servers.length).toBeGreaterThan(0);
    }
  });

  it('authorization: "Invalid or expired tokens MUST receive a HTTP 401 response" with the metadata URL in WWW-Authenticate', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const bearer of [undefined, 'not-a-jwt', await token({ exp: now - 3600 })]) {
      const response = await post('tools/list', withToken(bearer));
      expect(response.status).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toMatch(
        new RegExp(`^Bearer resource_metadata="http://127\\.0\\.0\\.1:\\d+${METADATA}"`),
      );
    }
  });

  it('authorization: "MCP servers MUST validate that access tokens were issued specifically for them as the intended audience"', async () => {
    const response = await post('tools/list', withToken(await token({ aud: 'https://other.example.com/mcp' })));
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    expect((await post('tools/list', withToken(await token()))).status).toBe(200);
  });

  it('authorization: "MCP servers MUST only accept tokens that are valid for use with their own resources": another issuer is refused', async () => {
    const response = await post('tools/list', withToken(await token({ iss: 'https://elsewhere.example.com' })));
    expect(response.status).toBe(401);
  });

  it('authorization: insufficient scope: "the server SHOULD respond with" 403 and "include the scopes needed" in the scope parameter', async () => {
    const refused = await post('tools/call', { ...withToken(await token()), params: { name: 'admin', arguments: {} } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('WWW-Authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="spec:admin"/);
    const { body } = await rpc('tools/call', {
      ...withToken(await token({ scope: 'spec:read spec:admin' })),
      params: { name: 'admin', arguments: {} },
    });
    expect(body.result?.content[0].text).toBe('hello spec-user');
    expectSchema(body, 'CallToolResultResponse');
  });

  it('authorization: "Servers MUST account for scope hierarchies, where a broader scope implies narrower ones"', async () => {
    // The fixture's scopeHierarchy: spec:owner implies spec:admin, which the tool `admin` requires.
    const { status, body } = await rpc('tools/call', {
      ...withToken(await token({ scope: 'spec:owner' })),
      params: { name: 'admin', arguments: {} },
    });
    expect(status).toBe(200);
    expect(body.result?.content[0].text).toBe('hello spec-user');
  });

  it('authorization: "MCP servers SHOULD include a scope parameter in the WWW-Authenticate header" of the 401 too', async () => {
    for (const bearer of [undefined, 'not-a-jwt']) {
      const response = await post('tools/list', withToken(bearer));
      expect(response.status).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toContain('scope="spec:read spec:admin"');
    }
  });

  it('authorization: "implementations SHOULD accept uppercase scheme and host components" of the audience', async () => {
    expect((await post('tools/list', withToken(await token({ aud: 'HTTPS://SPEC.Example.COM/mcp' })))).status).toBe(
      200,
    );
    expect((await post('tools/list', withToken(await token({ aud: 'https://spec.example.com/MCP' })))).status).toBe(
      401,
    );
  });

  it('authorization: "MCP Servers SHOULD NOT include offline_access in ... scopes_supported"', async () => {
    const document = (await (await fetch(new URL(METADATA, jwtUrl))).json()) as { scopes_supported: string[] };
    expect(document.scopes_supported).toEqual(['spec:read', 'spec:admin']);
  });

  it('authorization: "Access tokens MUST NOT be included in the URI query string": a token there does not authenticate', async () => {
    const url = new URL(jwtUrl);
    url.searchParams.set('access_token', await token());
    expect((await post('tools/list', { url: url.href })).status).toBe(401);
  });
});

describe('AUTH_MODE = "bearer" (a static secret, no authorization server)', () => {
  it('authorization-server-discovery: "MUST include the authorization_servers field containing at least one": with none, no metadata is advertised', async () => {
    for (const path of [METADATA, `${METADATA}/mcp`]) expect((await fetch(new URL(path, bearerUrl))).status).toBe(404);
    const response = await post('tools/list', withToken(undefined, bearerUrl));
    expect(response.status).toBe(401);
    const challenge = response.headers.get('WWW-Authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer/);
    expect(challenge).not.toContain('resource_metadata');
  });

  it('authorization: "Invalid or expired tokens MUST receive a HTTP 401 response" in bearer mode too; the secret lets the request in', async () => {
    const wrong = await post('tools/list', withToken('wrong', bearerUrl));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    expect((await post('tools/list', withToken('spec-bearer-token', bearerUrl))).status).toBe(200);
  });
});
