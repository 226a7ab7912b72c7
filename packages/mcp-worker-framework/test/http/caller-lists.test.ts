/**
 * Lists that fit the caller over HTTP (issue 22): the callers fixture in workerd with
 * AUTH_MODE = "jwt", two callers with different scopes, real ES256 tokens from the shared issuer;
 * and the caller's expiry, the token's `exp`, at which a listen stream ends.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { signToken } from '../support/issuer';
import { expectListenEndsAtExpiry, requestsTo } from '../support/mcp';

const signer = inject('authSigner');
let worker: WorkerInWorkerd;
let post: ReturnType<typeof requestsTo>['post'];

beforeAll(async () => {
  worker = await startInWorkerd({
    config: 'test/fixtures/callers/wrangler.toml',
    vars: {
      AUTH_MODE: 'jwt',
      AUTH_ISSUER: signer.issuer,
      AUTH_RESOURCE: signer.audience,
      AUTH_SCOPES: 'repo:read admin',
    },
  });
  ({ post } = requestsTo(`${worker.url}/mcp`));
});
afterAll(() => worker?.dispose());

const bearer = async (sub: string, scope: string) => ({
  Authorization: `Bearer ${await signToken(signer, { sub, scope })}`,
});

async function listPage(
  method: string,
  headers: Record<string, string>,
  cursor?: string,
  params: Record<string, unknown> = {},
) {
  const response = await post(method, { headers, params: cursor === undefined ? params : { ...params, cursor } });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { result?: any; error?: any },
  };
}

/** Every tool name a caller is shown, page by page (at most 10 pages), with the cursors it got. */
async function allTools(headers: Record<string, string>) {
  const names: string[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const { body } = await listPage('tools/list', headers, cursor);
    names.push(...body.result.tools.map((tool: { name: string }) => tool.name));
    cursor = body.result.nextCursor;
    if (cursor === undefined) break;
    cursors.push(cursor);
  }
  return { names, cursors };
}

describe('lists that fit the caller (AUTH_MODE = jwt)', () => {
  it('shows two callers with different scopes different lists, with different cursors', async () => {
    const reader = await allTools(await bearer('rita', 'repo:read'));
    const admin = await allTools(await bearer('ada', 'admin'));
    expect(reader.names).toEqual(['whoami', 'open', 'read_repo']);
    expect(admin.names).toEqual(['whoami', 'open', 'read_repo', 'administer']); // admin implies repo:read (scopeHierarchy)
    expect(reader.cursors[0]).toBeDefined();
    expect(reader.cursors[0]).not.toBe(admin.cursors[0]);
  });

  it("refuses one caller's cursor on another's list with -32602", async () => {
    const { cursors } = await allTools(await bearer('rita', 'repo:read'));
    const { status, body } = await listPage('tools/list', await bearer('ada', 'admin'), cursors[0]);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32602, data: { cursor: cursors[0] } });
  });

  it('answers such lists private with Vary: Authorization, though the definition says public', async () => {
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const { status, headers, body } = await listPage(method, await bearer('rita', 'repo:read'));
      expect(status, method).toBe(200);
      expect(body.result.cacheScope, method).toBe('private');
      expect(headers.get('Cache-Control'), method).toMatch(/^private, /);
      expect(headers.get('Vary'), method).toBe('Authorization');
    }
  });

  it('answers a read only some callers may make private with Vary: Authorization, though the definition and the resource say public', async () => {
    const staff = { Authorization: `Bearer ${await signToken(signer, { sub: 'octo', scope: '', login: 'octocat' })}` };
    for (const [uri, headers, ttlMs] of [
      ['doc://admin', await bearer('ada', 'admin'), 30_000], // requiredScopes; its own cache says public
      ['doc://staff/handbook', staff, 60_000], // a template's visibleTo rule
    ] as const) {
      const { status, headers: answered, body } = await listPage('resources/read', headers, undefined, { uri });
      expect(status, uri).toBe(200);
      expect(body.result, uri).toMatchObject({ ttlMs, cacheScope: 'private' });
      expect(answered.get('Cache-Control'), uri).toBe(`private, max-age=${ttlMs / 1000}`);
      expect(answered.get('Vary'), uri).toBe('Authorization');
    }
    // A read every caller makes alike keeps the definition's word.
    const open = await listPage('resources/read', await bearer('rita', 'repo:read'), undefined, {
      uri: 'doc://public',
    });
    expect(open.body.result).toMatchObject({ cacheScope: 'public' });
    expect(open.headers.get('Cache-Control')).toBe('public, max-age=60');
    expect(open.headers.get('Vary')).toBeNull();
  });

  it('still answers a call of a tool left out of the list with the 403 step-up challenge naming its scope', async () => {
    const response = await post('tools/call', {
      headers: await bearer('rita', 'repo:read'),
      params: { name: 'administer', arguments: {} },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('WWW-Authenticate')).toMatch(
      /^Bearer error="insufficient_scope", scope="admin", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/,
    );
  });

  it('answers a prompt or resource whose scope the caller lacks with the same challenge', async () => {
    for (const [method, params] of [
      ['prompts/get', { name: 'admin_prompt' }],
      ['resources/read', { uri: 'doc://admin' }],
    ] as const) {
      const response = await post(method, { headers: await bearer('rita', 'repo:read'), params });
      expect(response.status, method).toBe(403);
      expect(response.headers.get('WWW-Authenticate'), method).toMatch(
        /^Bearer error="insufficient_scope", scope="admin", resource_metadata="/,
      );
      expect(((await response.json()) as { error: { data: unknown } }).error.data).toEqual({
        requiredScopes: ['admin'],
      });
    }
  });

  it('answers a tool hidden by its visibleTo rule as unknown, with no challenge that would reveal it', async () => {
    const hidden = await post('tools/call', {
      headers: await bearer('rita', 'repo:read'),
      params: { name: 'staff_only', arguments: {} },
    });
    expect(hidden.status).toBe(400);
    expect(hidden.headers.get('WWW-Authenticate')).toBeNull();
    expect(((await hidden.json()) as { error: { message: string } }).error.message).toMatch(/Unknown tool: staff_only/);
    const staff = `Bearer ${await signToken(signer, { sub: 'octo', scope: '', login: 'octocat' })}`;
    expect((await allTools({ Authorization: staff })).names).toEqual(['whoami', 'open', 'staff_only']);
    expect(
      (await post('tools/call', { headers: { Authorization: staff }, params: { name: 'staff_only', arguments: {} } }))
        .status,
    ).toBe(200);
  });

  it('leaves a tool its visibleTo rule hides from anonymous visitors off the public page at /, and tags the scoped ones', async () => {
    const body = await (await fetch(`${worker.url}/`, { headers: { Accept: 'text/html' } })).text();
    expect(body).toContain('<code>administer</code> <span class="tag">needs admin</span>');
    expect(body).not.toContain('staff_only');
  });

  it('pages the official client through the list its token allows', async () => {
    let names: string[] = [];
    const client = new Client({ name: 'caller-lists', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${worker.url}/mcp`), {
        requestInit: { headers: await bearer('ada', 'admin') },
      }),
    );
    try {
      // With no cursor, the client follows nextCursor itself (pages of two: two requests) and answers every page's tools.
      names = (await client.listTools()).tools.map((tool) => tool.name);
    } finally {
      await client.close();
    }
    expect(names).toEqual(['whoami', 'open', 'read_repo', 'administer']);
  });
});

describe("the caller's expiry (AUTH_MODE = jwt)", () => {
  it("is the token's exp, and a listen stream ends there, long before its time limit (LISTEN_MAX_SECONDS, 600)", async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const headers = { Authorization: `Bearer ${await signToken(signer, { sub: 'erin', scope: 'repo:read', exp })}` };
    const whoami = await post('tools/call', { headers, params: { name: 'whoami', arguments: {} } });
    expect(((await whoami.json()) as any).result.structuredContent.caller.expiresAt).toBe(exp * 1000);
    await expectListenEndsAtExpiry(`${worker.url}/mcp`, headers);
  });
});
