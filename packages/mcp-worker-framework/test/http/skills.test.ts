/**
 * The Skills extension over HTTP (docs/skills.md; skills.mdx): the Skills fixture
 * (test/fixtures/skills) in workerd, built as a fork's skills are, once with auth off and once
 * with AUTH_MODE = "jwt" and two callers with different scopes and claims (real ES256 tokens from
 * the shared issuer). Every expected entry is derived from the fixture's built manifest.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { signToken } from '../support/issuer';
import { replyOf, requestsTo, type Reply } from '../support/mcp';

const signer = inject('authSigner');
let open: WorkerInWorkerd;
let guarded: WorkerInWorkerd;
let anon: ReturnType<typeof requestsTo>;
let auth: ReturnType<typeof requestsTo>;

beforeAll(async () => {
  [open, guarded] = await Promise.all([
    startInWorkerd({ config: 'test/fixtures/skills/wrangler.toml' }),
    startInWorkerd({
      config: 'test/fixtures/skills/wrangler.toml',
      vars: { AUTH_MODE: 'jwt', AUTH_ISSUER: signer.issuer, AUTH_RESOURCE: signer.audience, AUTH_SCOPES: 'admin' },
    }),
  ]);
  anon = requestsTo(`${open.url}/mcp`);
  auth = requestsTo(`${guarded.url}/mcp`);
}, 120_000);
afterAll(async () => {
  await Promise.all([open?.dispose(), guarded?.dispose()]);
});

const bearer = async (claims: Record<string, unknown>) => ({
  Authorization: `Bearer ${await signToken(signer, claims)}`,
});

/** Every skill URI a caller is shown by skills/list, page by page, with the cursors it was given. */
async function listed(to: ReturnType<typeof requestsTo>, headers: Record<string, string> = {}) {
  const uris: string[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const { body } = await to.rpc('skills/list', { headers, params: cursor === undefined ? {} : { cursor } });
    uris.push(...body.result!.skills.map((skill: { uri: string }) => skill.uri));
    cursor = body.result!.nextCursor;
    if (cursor === undefined) break;
    cursors.push(cursor);
  }
  return { uris, cursors };
}

describe('a server with skills', () => {
  it('declares the extension with directoryRead, and resources, in discover and in a legacy initialize', async () => {
    const { body } = await anon.rpc('server/discover');
    expect(body.result!.capabilities).toMatchObject({
      resources: {},
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
    });
    const legacy = await anon.raw(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } },
      }),
    );
    expect(((await legacy.json()) as Reply).result!.capabilities.extensions).toEqual({
      'io.modelcontextprotocol/skills': { directoryRead: true },
    });
  });

  it('lists skills a page at a time, with the caching hints and Cache-Control of every list (private: some skills depend on the caller)', async () => {
    const first = await anon.rpc('skills/list');
    expect(first.body.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'private' });
    expect(first.headers.get('Cache-Control')).toBe('private, max-age=300');
    expect(first.body.result!.skills).toHaveLength(2);
    const { uris } = await listed(anon);
    expect(uris).toEqual([
      'skill://acme/billing/refunds/SKILL.md',
      'skill://git-workflow/SKILL.md',
      'skill://pdf-processing/SKILL.md',
    ]);
  });

  it('gets a skill by its SKILL.md URI, the same entry as listed, and answers -32602 for any other URI', async () => {
    const { body } = await anon.rpc('skills/list');
    const entry = body.result!.skills[0];
    const got = await anon.rpc('skills/get', { params: { uri: entry.uri } });
    expect(got.body.result).toMatchObject({
      resultType: 'complete',
      skill: entry,
      ttlMs: 60_000,
      cacheScope: 'public',
    });
    expect(got.body.result!.nextCursor).toBeUndefined();
    expect(got.headers.get('Cache-Control')).toBe('public, max-age=60');
    for (const uri of [
      'skill://nothing/SKILL.md',
      'skill://acme/billing/refunds/examples/email.md',
      'skill://acme/billing/refunds',
    ]) {
      const missing = await anon.rpc('skills/get', { params: { uri } });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toMatchObject({
        code: -32602,
        message: `Invalid params: No skill is served at ${uri}`,
      });
    }
  });

  it('lists each SKILL.md in resources/list with its frontmatter name and description, and no other file', async () => {
    const { body } = await anon.rpc('resources/list');
    const all = [...body.result!.resources];
    let cursor = body.result!.nextCursor;
    while (cursor) {
      const next = await anon.rpc('resources/list', { params: { cursor } });
      all.push(...next.body.result!.resources);
      cursor = next.body.result!.nextCursor;
    }
    expect(all).toEqual([
      {
        uri: 'skill://acme/billing/refunds/SKILL.md',
        name: 'refunds',
        description: 'Process customer refund requests per company policy.',
        mimeType: 'text/markdown',
      },
      {
        uri: 'skill://git-workflow/SKILL.md',
        name: 'git-workflow',
        description: "Follow this team's Git conventions for branching and commits.",
        mimeType: 'text/markdown',
      },
      {
        uri: 'skill://pdf-processing/SKILL.md',
        name: 'pdf-processing',
        description: 'Extract, fill, and assemble PDF documents. Use when a task mentions PDFs or forms.',
        mimeType: 'text/markdown',
      },
    ]);
  });

  it('reads SKILL.md as text/markdown, other text by its type, a binary file as a blob, each the bytes its digest covers', async () => {
    const { body } = await anon.rpc('skills/get', { params: { uri: 'skill://pdf-processing/SKILL.md' } });
    for (const { uri, digest, size } of body.result!.skill.resources as {
      uri: string;
      digest: string;
      size: number;
    }[]) {
      const read = await anon.rpc('resources/read', { params: { uri } });
      const [content] = read.body.result!.contents;
      const bytes =
        content.blob !== undefined ? Buffer.from(content.blob, 'base64') : Buffer.from(content.text, 'utf8');
      expect(bytes.length, uri).toBe(size);
      expect(`sha256:${Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex')}`, uri).toBe(digest);
      expect(content.uri).toBe(uri);
      if (uri.endsWith('.png')) expect(content).toMatchObject({ mimeType: 'image/png', blob: expect.any(String) });
      if (uri.endsWith('.md')) expect(content).toMatchObject({ mimeType: 'text/markdown', text: expect.any(String) });
      if (uri.endsWith('.py')) expect(content.mimeType).toBe('text/x-python');
    }
  });

  it('reads directories: a skill root and a folder, subfolders as inode/directory, a page at a time; -32602 for a file or nothing', async () => {
    const children = async (uri: string) => {
      const names: [string, string][] = [];
      let cursor: string | undefined;
      do {
        const { body, headers } = await anon.rpc('resources/directory/read', {
          params: cursor ? { uri, cursor } : { uri },
        });
        expect(body.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
        expect(headers.get('Cache-Control')).toBe('public, max-age=60');
        names.push(
          ...body.result!.resources.map(
            (r: { name: string; mimeType: string }) => [r.name, r.mimeType] as [string, string],
          ),
        );
        cursor = body.result!.nextCursor;
      } while (cursor);
      return names;
    };
    expect(await children('skill://pdf-processing')).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['assets', 'inode/directory'],
      ['references', 'inode/directory'],
      ['scripts', 'inode/directory'],
      ['templates', 'inode/directory'],
    ]);
    expect(await children('skill://pdf-processing/templates')).toEqual([
      ['invoice.md', 'text/markdown'],
      ['regional', 'inode/directory'],
    ]);
    for (const uri of [
      'skill://pdf-processing/SKILL.md',
      'skill://pdf-processing/templates/',
      'skill://nothing',
      'skill://acme',
    ]) {
      const { body } = await anon.rpc('resources/directory/read', { params: { uri } });
      expect(body.error, uri).toMatchObject({
        code: -32602,
        message: `Invalid params: ${uri} is not a directory resource`,
      });
    }
    const { body } = await anon.rpc('resources/directory/read', {
      params: { uri: 'skill://pdf-processing', cursor: 'bm90IGEgY3Vyc29y' },
    });
    expect(body.error).toMatchObject({ code: -32602 });
  });

  it('lists the skills an anonymous visitor may know of on the page at /, with their descriptions', async () => {
    const page = await (await fetch(`${open.url}/`, { headers: { Accept: 'text/html' } })).text();
    expect(page).toContain('<h2 id="skills">Skills <span class="count">4</span></h2>');
    expect(page).toContain(
      '<li><code>pdf-processing</code><p>Extract, fill, and assemble PDF documents. Use when a task mentions PDFs or forms.</p></li>',
    );
    expect(page).toContain('<li><code>admin-audit</code> <span class="tag">needs admin</span>');
    expect(page).not.toContain('staff-runbook');
  });

  it("serves clients of the initialize era the extension's methods in their shape: no resultType, no caching hints", async () => {
    const legacy = (method: string, params: Record<string, unknown>) =>
      anon
        .raw(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), { 'MCP-Protocol-Version': '2025-11-25' })
        .then(replyOf);
    const list = await legacy('skills/list', {});
    expect(list.result!.skills).toHaveLength(2);
    expect(Object.keys(list.result!).sort()).toEqual(['_meta', 'nextCursor', 'skills']);
    const get = await legacy('skills/get', { uri: 'skill://git-workflow/SKILL.md' });
    expect(Object.keys(get.result!).sort()).toEqual(['_meta', 'skill']);
    const dir = await legacy('resources/directory/read', { uri: 'skill://git-workflow' });
    expect(dir.result!.resources).toEqual([
      { uri: 'skill://git-workflow/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown' },
    ]);
    expect(dir.result!.ttlMs).toBeUndefined();
    expect((await legacy('skills/get', { uri: 'skill://nothing/SKILL.md' })).error).toMatchObject({ code: -32602 });
  });
});

describe('who sees a skill (AUTH_MODE = jwt)', () => {
  it('shows two callers different skills, privately, with different cursors', async () => {
    const staff = await bearer({ sub: 'mona', login: 'octocat' });
    const admin = await bearer({ sub: 'ada', scope: 'admin' });
    const seenByStaff = await listed(auth, staff);
    const seenByAdmin = await listed(auth, admin);
    expect(seenByStaff.uris).toEqual([
      'skill://acme/billing/refunds/SKILL.md',
      'skill://git-workflow/SKILL.md',
      'skill://pdf-processing/SKILL.md',
      'skill://staff-runbook/SKILL.md',
    ]);
    expect(seenByAdmin.uris).toEqual([
      'skill://acme/billing/refunds/SKILL.md',
      'skill://admin-audit/SKILL.md',
      'skill://git-workflow/SKILL.md',
      'skill://pdf-processing/SKILL.md',
    ]);
    expect(seenByStaff.cursors[0]).not.toBe(seenByAdmin.cursors[0]);
    const { body, headers } = await auth.rpc('skills/list', { headers: admin });
    expect(body.result!.cacheScope).toBe('private');
    expect(headers.get('Cache-Control')).toBe('private, max-age=300');
  });

  it("refuses one caller's cursor on another's list with -32602", async () => {
    const staff = await bearer({ sub: 'mona', login: 'octocat' });
    const { cursors } = await listed(auth, staff);
    const { status, body } = await auth.rpc('skills/list', {
      headers: await bearer({ sub: 'ada', scope: 'admin' }),
      params: { cursor: cursors[0] },
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32602, data: { cursor: cursors[0] } });
  });

  it('answers a hidden skill as not found: skills/get, every file read, its directories', async () => {
    const admin = await bearer({ sub: 'ada', scope: 'admin' });
    const uri = 'skill://staff-runbook/SKILL.md';
    const get = await auth.rpc('skills/get', { headers: admin, params: { uri } });
    expect(get.body.error).toMatchObject({ code: -32602, message: `Invalid params: No skill is served at ${uri}` });
    for (const file of [uri, 'skill://staff-runbook/ESCALATION.md']) {
      const read = await auth.rpc('resources/read', { headers: admin, params: { uri: file } });
      expect(read.body.error, file).toMatchObject({
        code: -32602,
        message: `Invalid params: Resource not found: ${file}`,
      });
    }
    const dir = await auth.rpc('resources/directory/read', {
      headers: admin,
      params: { uri: 'skill://staff-runbook' },
    });
    expect(dir.body.error).toMatchObject({
      code: -32602,
      message: 'Invalid params: skill://staff-runbook is not a directory resource',
    });
    // The same requests by staff find it, privately.
    const staff = await bearer({ sub: 'mona', login: 'octocat' });
    const seen = await auth.rpc('skills/get', { headers: staff, params: { uri } });
    expect(seen.body.result).toMatchObject({ skill: { uri }, cacheScope: 'private' });
    expect(
      (await auth.rpc('resources/read', { headers: staff, params: { uri: 'skill://staff-runbook/ESCALATION.md' } }))
        .body.result!.contents[0].text,
    ).toContain('second on-call');
  });

  it('reads the files of a skill that depends on the caller privately, with Vary: Authorization, though reads are said public', async () => {
    const staff = await bearer({ sub: 'mona', login: 'octocat' });
    const admin = await bearer({ sub: 'ada', scope: 'admin' });
    for (const [uri, headers] of [
      ['skill://staff-runbook/SKILL.md', staff], // visibleTo
      ['skill://staff-runbook/ESCALATION.md', staff],
      ['skill://admin-audit/SKILL.md', admin], // requiredScopes
    ] as const) {
      const read = await auth.rpc('resources/read', { headers, params: { uri } });
      expect(read.body.result, uri).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
      expect(read.headers.get('Cache-Control'), uri).toBe('private, max-age=60');
      expect(read.headers.get('Vary'), uri).toBe('Authorization');
    }
    // A skill every caller reads alike keeps the definition's word.
    const open = await auth.rpc('resources/read', { headers: staff, params: { uri: 'skill://git-workflow/SKILL.md' } });
    expect(open.body.result).toMatchObject({ cacheScope: 'public' });
    expect(open.headers.get('Cache-Control')).toBe('public, max-age=60');
  });

  it('asks a caller without the scope a skill needs for it (403, step-up), as for a tool, and never lists it', async () => {
    const staff = await bearer({ sub: 'mona', login: 'octocat' });
    const uri = 'skill://admin-audit/SKILL.md';
    const get = await auth.rpc('skills/get', { headers: staff, params: { uri } });
    expect(get.status).toBe(403);
    expect(get.headers.get('WWW-Authenticate')).toContain('scope="admin"');
    const read = await auth.rpc('resources/read', { headers: staff, params: { uri } });
    expect(read.status).toBe(403);
  });
});
