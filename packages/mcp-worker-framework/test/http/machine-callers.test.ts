/**
 * Machines and people (issue 47): a client-credentials token in the `jwt` and `introspect`
 * modes becomes a caller of kind `machine`, its subject `client_id:<client id>`, so a rule
 * written for a person (the callers fixture's `grace_only`, by subject) never matches a machine
 * whose client id spells that person's name; a person's token stays a person, with its issuer.
 * Real ES256 tokens from the shared issuer, answers from the loopback introspection endpoint; and
 * the official client's machine providers (`ClientCredentialsProvider`, `PrivateKeyJwtProvider`)
 * getting their token from a loopback company authorization server, from the Worker's 401 on.
 */
import {
  Client,
  ClientCredentialsProvider,
  type OAuthClientProvider,
  PrivateKeyJwtProvider,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/workerd.mjs';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { type ClientCredentialsServer, startClientCredentialsServer } from '../support/clientCredentialsServer';
import { startIntrospection, type IntrospectionEndpoint } from '../support/introspection';
import { signToken } from '../support/issuer';
import { requestsTo } from '../support/mcp';

const signer = inject('authSigner');
const INTROSPECTED_ISSUER = 'https://idp.example.com';
let jwtWorker: WorkerInWorkerd;
let introspectWorker: WorkerInWorkerd;
let endpoint: IntrospectionEndpoint;
let opaque = 0;

beforeAll(async () => {
  endpoint = await startIntrospection();
  const config = 'test/fixtures/callers/wrangler.toml';
  [jwtWorker, introspectWorker] = await Promise.all([
    startInWorkerd({
      config,
      vars: { AUTH_MODE: 'jwt', AUTH_ISSUER: signer.issuer, AUTH_RESOURCE: signer.audience },
    }),
    startInWorkerd({
      config,
      vars: {
        AUTH_MODE: 'introspect',
        AUTH_INTROSPECTION_URL: endpoint.url,
        AUTH_INTROSPECTION_CLIENT_ID: endpoint.clientId,
        AUTH_RESOURCE: signer.audience,
        AUTH_ISSUER: INTROSPECTED_ISSUER,
      },
      secrets: { AUTH_INTROSPECTION_CLIENT_SECRET: endpoint.clientSecret },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([jwtWorker?.dispose(), introspectWorker?.dispose()]);
  await endpoint?.close();
});

/** An opaque token the endpoint answers `answer` for: active, for the resource, valid 5 minutes, unless it says otherwise. */
function introspected(answer: Record<string, unknown>): string {
  const token = `machine-test-${++opaque}`;
  endpoint.tokens.set(token, {
    active: true,
    aud: signer.audience,
    exp: Math.floor(Date.now() / 1000) + 300,
    ...answer,
  });
  return token;
}

/** What the Worker at `worker` makes of `token`: the caller `whoami` receives, and the tools it is shown; or the refusal's status. */
async function seen(worker: WorkerInWorkerd, token: string) {
  const { post } = requestsTo(`${worker.url}/mcp`);
  const headers = { Authorization: `Bearer ${token}` };
  const who = await post('tools/call', { headers, params: { name: 'whoami', arguments: {} } });
  if (who.status !== 200) return { status: who.status };
  const { caller } = ((await who.json()) as { result: { structuredContent: { caller: any } } }).result
    .structuredContent;
  // Two pages of two and one of two at most: the fixture's pageSize is 2.
  const tools: string[] = [];
  let cursor: string | undefined;
  do {
    const page = (await (await post('tools/list', { headers, params: cursor ? { cursor } : {} })).json()) as {
      result: { tools: { name: string }[]; nextCursor?: string };
    };
    tools.push(...page.result.tools.map((tool) => tool.name));
    cursor = page.result.nextCursor;
  } while (cursor !== undefined && tools.length < 20);
  const call = await post('tools/call', { headers, params: { name: 'grace_only', arguments: {} } });
  return { status: 200, caller, tools, graceOnly: call.status };
}

describe('client credentials with AUTH_MODE = jwt', () => {
  it('takes a person for a person, with the issuer that vouched for them', async () => {
    const grace = await seen(jwtWorker, await signToken(signer, { sub: 'grace', client_id: 'claude', scope: '' }));
    expect(grace.caller).toMatchObject({ subject: 'grace', kind: 'person', issuer: signer.issuer });
    expect(grace.tools).toContain('grace_only');
    expect(grace.graceOnly).toBe(200);
  });

  it.each([
    ['sub equal to client_id (RFC 9068 2.2)', { sub: 'grace', client_id: 'grace' }, 'client_id:grace'],
    [
      'gty client-credentials (Auth0: sub <client>@clients, azp the client)',
      { sub: 'grace@clients', azp: 'grace', gty: 'client-credentials' },
      'client_id:grace',
    ],
    [
      "idtyp app (Microsoft Entra ID's app-only token)",
      { sub: '8f2c-oid', azp: 'grace', idtyp: 'app' },
      'client_id:grace',
    ],
  ])('takes a token with %s for a machine, whose subject no rule for a person matches', async (_, claims, subject) => {
    const machine = await seen(jwtWorker, await signToken(signer, { scope: '', ...claims }));
    expect(machine.caller).toMatchObject({ subject, kind: 'machine', issuer: signer.issuer });
    expect(machine.tools).not.toContain('grace_only');
    expect(machine.graceOnly).toBe(400); // unknown to it, as to anyone the rule hides it from
  });

  it("refuses a person's sub that spells a machine's subject: the two never meet", async () => {
    expect((await seen(jwtWorker, await signToken(signer, { sub: 'client_id:grace' }))).status).toBe(401);
  });
});

describe('client credentials with AUTH_MODE = introspect', () => {
  it('takes an answer whose sub is its client_id, or that has only a client_id, for a machine', async () => {
    for (const answer of [{ sub: 'grace', client_id: 'grace' }, { client_id: 'grace' }]) {
      const machine = await seen(introspectWorker, introspected(answer));
      expect(machine.caller).toMatchObject({
        subject: 'client_id:grace',
        kind: 'machine',
        issuer: INTROSPECTED_ISSUER,
      });
      expect(machine.tools).not.toContain('grace_only');
      expect(machine.graceOnly).toBe(400);
    }
  });

  it('takes a person for a person: a sub other than the client, or a username without a sub', async () => {
    const grace = await seen(
      introspectWorker,
      introspected({ sub: 'grace', client_id: 'claude', iss: 'https://as.example.com' }),
    );
    expect(grace.caller).toMatchObject({ subject: 'grace', kind: 'person', issuer: 'https://as.example.com' });
    expect(grace.graceOnly).toBe(200);
    const named = await seen(introspectWorker, introspected({ username: 'grace', client_id: 'claude' }));
    expect(named.caller).toMatchObject({ subject: 'username:grace', kind: 'person' });
  });
});

describe('the official client as a machine, its token from the company authorization server (AUTH_MODE = jwt)', () => {
  let as: ClientCredentialsServer;
  let worker: WorkerInWorkerd;
  let resource: string;

  beforeAll(async () => {
    as = await startClientCredentialsServer();
    // The client checks the metadata's resource against the URL it connects to: the port is known first.
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    worker = await startInWorkerd({
      config: 'test/fixtures/callers/wrangler.toml',
      vars: { AUTH_MODE: 'jwt', AUTH_ISSUER: as.issuer, AUTH_JWKS_URL: as.jwksUrl, AUTH_RESOURCE: resource },
      miniflare: { port } as never,
    });
  }, 60_000);
  afterAll(async () => {
    await worker?.dispose();
    await as?.close();
  });

  /** Connects with `provider`, and answers what the Worker made of its token and which tools it was shown. */
  async function asMachine(provider: OAuthClientProvider) {
    const client = new Client({ name: 'nightly-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider }));
    try {
      const { structuredContent } = await client.callTool({ name: 'whoami', arguments: {} });
      // With no cursor, the client follows nextCursor itself and answers every page's tools.
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      return { caller: (structuredContent as { caller: Record<string, unknown> }).caller, tools };
    } finally {
      await client.close();
    }
  }

  it('gets a client-credentials token with a client secret, and is a machine', async () => {
    as.addSecretClient('nightly-indexer', 'indexer secret');
    const seen = await asMachine(
      new ClientCredentialsProvider({
        clientId: 'nightly-indexer',
        clientSecret: 'indexer secret',
        expectedIssuer: as.issuer,
      }),
    );
    expect(as.issued).toContain('nightly-indexer');
    expect(seen.caller).toMatchObject({ subject: 'client_id:nightly-indexer', kind: 'machine', issuer: as.issuer });
  });

  it("gets one with private_key_jwt as a client named grace, and is still not the person grace: the person's rule hides grace_only", async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    as.addKeyClient('grace', await exportJWK(publicKey));
    const seen = await asMachine(
      new PrivateKeyJwtProvider({
        clientId: 'grace',
        privateKey: (await exportJWK(privateKey)) as Record<string, unknown>,
        algorithm: 'ES256',
        expectedIssuer: as.issuer,
      }),
    );
    expect(seen.caller).toMatchObject({ subject: 'client_id:grace', kind: 'machine' });
    expect(seen.tools).not.toContain('grace_only');
  });
});
