/**
 * Lists that fit the caller (issue 22): what a caller cannot use is left out of tools/list,
 * prompts/list, resources/list and resources/templates/list; such lists are private and their
 * cursors page only the list they came from. A server with nothing restricted keeps its lists
 * precomputed: the same serialized page for every request.
 */
import { describe, expect, it } from 'vitest';
import { createServer, defineResource, defineTool, text } from '../../../src/mcp';
import type { Caller } from '../../../src/mcp/caller';
import { RawJson } from '../../../src/mcp/json';
import { mcpRequest } from '../../support/request';
import { callersServer, definition } from '../../fixtures/callers/server';

const caller = (subject: string, scopes: string[], claims: Caller['claims'] = {}): Caller => ({
  subject,
  kind: 'person',
  scopes,
  claims,
});
const reader = caller('rita', ['repo:read']);
const admin = caller('ada', ['admin', 'repo:read']);
const staff = caller('octo', [], { login: 'octocat' });

async function page(method: string, who: Caller | undefined, cursor?: string, server = callersServer) {
  const reply = await server.handle(
    mcpRequest({ jsonrpc: '2.0', id: 1, method, params: cursor === undefined ? {} : { cursor } }, undefined, {
      caller: who,
    }),
  );
  return { reply, body: reply.result instanceof RawJson ? JSON.parse(reply.result.json) : reply.result };
}

/** Every name of a list, page by page (bounded), and the cursors it was paged with. */
async function all(method: string, key: string, who: Caller | undefined) {
  const names: string[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const { body } = await page(method, who, cursor);
    names.push(...body[key].map((item: { name: string }) => item.name));
    cursor = body.nextCursor;
    if (cursor === undefined) break;
    cursors.push(cursor);
  }
  return { names, cursors };
}

describe('lists that fit the caller', () => {
  it('shows each caller the tools its scopes and the visibility rule allow, anonymous callers the unscoped ones', async () => {
    expect((await all('tools/list', 'tools', undefined)).names).toEqual(['whoami', 'open']);
    expect((await all('tools/list', 'tools', reader)).names).toEqual(['whoami', 'open', 'read_repo']);
    expect((await all('tools/list', 'tools', admin)).names).toEqual(['whoami', 'open', 'read_repo', 'administer']);
    expect((await all('tools/list', 'tools', staff)).names).toEqual(['whoami', 'open', 'staff_only']);
  });

  it('filters prompts, resources and resource templates the same way', async () => {
    expect((await all('prompts/list', 'prompts', reader)).names).toEqual(['everyone']);
    expect((await all('prompts/list', 'prompts', admin)).names).toEqual(['everyone', 'admin_prompt']);
    expect((await all('resources/list', 'resources', reader)).names).toEqual(['public']);
    expect((await all('resources/list', 'resources', admin)).names).toEqual(['public', 'admin']);
    expect((await all('resources/templates/list', 'resourceTemplates', admin)).names).toEqual([]);
    expect((await all('resources/templates/list', 'resourceTemplates', staff)).names).toEqual(['staff-page']);
  });

  it("gives two callers who see different lists different cursors, and refuses one's cursor on the other's list", async () => {
    const ofReader = await all('tools/list', 'tools', reader);
    const ofAdmin = await all('tools/list', 'tools', admin);
    expect(ofReader.cursors).toHaveLength(1);
    expect(ofAdmin.cursors).toHaveLength(1);
    expect(ofReader.cursors[0]).not.toBe(ofAdmin.cursors[0]);
    const crossed = await page('tools/list', admin, ofReader.cursors[0]);
    expect(crossed.reply.error?.code).toBe(-32602);
    expect(crossed.reply.error?.message).toMatch(/cursor/);
    // Another caller who sees the same list pages it with the same cursor.
    expect(
      (await page('tools/list', caller('rob', ['repo:read']), ofReader.cursors[0])).body.tools.map(
        (t: { name: string }) => t.name,
      ),
    ).toEqual(['read_repo']);
  });

  it("filters a legacy client's list the same way", async () => {
    const legacy = { era: 'legacy', protocolVersion: '2025-11-25', clientCapabilities: {} } as const;
    const reply = await callersServer.handle(
      mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, legacy, { caller: reader }),
    );
    const { tools, nextCursor } = JSON.parse((reply.result as RawJson).json);
    expect(tools.map((t: { name: string }) => t.name)).toEqual(['whoami', 'open']);
    const next = await callersServer.handle(
      mcpRequest({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: nextCursor } }, legacy, {
        caller: reader,
      }),
    );
    expect(JSON.parse((next.result as RawJson).json).tools.map((t: { name: string }) => t.name)).toEqual(['read_repo']);
    const crossed = await callersServer.handle(
      mcpRequest({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: nextCursor } }, legacy, {
        caller: admin,
      }),
    );
    expect(crossed.error?.code).toBe(-32602);
  });

  it('makes a list that depends on the caller private, whatever the definition says', async () => {
    for (const who of [undefined, reader]) {
      const { reply, body } = await page('tools/list', who);
      expect(reply.result && reply.cache?.cacheScope).toBe('private');
      expect(body.cacheScope).toBe('private');
      expect(body.ttlMs).toBe(60_000);
    }
  });

  it('answers a call of a tool, prompt or resource hidden by its visibility rule as if it did not exist', async () => {
    const call = (method: string, params: Record<string, unknown>, who: Caller | undefined) =>
      callersServer.handle(mcpRequest({ jsonrpc: '2.0', id: 1, method, params }, undefined, { caller: who }));
    expect((await call('tools/call', { name: 'staff_only', arguments: {} }, reader)).error?.message).toBe(
      'Invalid params: Unknown tool: staff_only',
    );
    expect((await call('tools/call', { name: 'staff_only', arguments: {} }, staff)).error).toBeUndefined();
    expect((await call('resources/read', { uri: 'doc://staff/handbook' }, reader)).error?.message).toBe(
      'Invalid params: Resource not found: doc://staff/handbook',
    );
    expect(
      (
        await call(
          'completion/complete',
          { ref: { type: 'ref/resource', uri: 'doc://staff/{name}' }, argument: { name: 'name', value: 'h' } },
          reader,
        )
      ).error?.code,
    ).toBe(-32602);
  });

  it.each([
    ['undefined', undefined],
    ['1', 1],
    ["'yes'", 'yes'],
    ['an object', {}],
  ])(
    'hides an item whose visibleTo rule answers %s (not true) from the list, the call and the read',
    async (_, answer) => {
      // A JavaScript rule can answer anything; only `true` shows the item (fail closed).
      const rule = () => answer as boolean;
      const server = createServer({
        info: { name: 'odd-rules', version: '1.0.0' },
        tools: [
          defineTool({
            name: 'shown',
            inputSchema: { type: 'object' },
            visibleTo: () => true,
            handler: () => text(''),
          }),
          defineTool({ name: 'odd', inputSchema: { type: 'object' }, visibleTo: rule, handler: () => text('ran') }),
        ],
        resources: [
          defineResource({
            uri: 'doc://shown',
            name: 'shown',
            visibleTo: () => true,
            read: () => ({ contents: [{ uri: 'doc://shown', text: 'shown' }] }),
          }),
          defineResource({
            uri: 'doc://odd',
            name: 'odd',
            visibleTo: rule,
            read: () => ({ contents: [{ uri: 'doc://odd', text: 'read' }] }),
          }),
        ],
      });
      const ask = (method: string, params: Record<string, unknown> = {}) =>
        server.handle(mcpRequest({ jsonrpc: '2.0', id: 1, method, params }, undefined, { caller: reader }));
      const listed = async (method: string, key: string) => {
        const { result } = await ask(method);
        const body = result instanceof RawJson ? JSON.parse(result.json) : result;
        return body[key].map((item: { name: string }) => item.name);
      };
      expect(await listed('tools/list', 'tools')).toEqual(['shown']);
      expect(await listed('resources/list', 'resources')).toEqual(['shown']);
      expect((await ask('tools/call', { name: 'odd', arguments: {} })).error?.message).toBe(
        'Invalid params: Unknown tool: odd',
      );
      expect((await ask('resources/read', { uri: 'doc://odd' })).error?.message).toBe(
        'Invalid params: Resource not found: doc://odd',
      );
    },
  );

  it('refuses a prompt or resource whose scope the caller lacks with 403, naming the scope', async () => {
    const call = (method: string, params: Record<string, unknown>, who: Caller | undefined) =>
      callersServer.handle(mcpRequest({ jsonrpc: '2.0', id: 1, method, params }, undefined, { caller: who }));
    for (const [method, params] of [
      ['prompts/get', { name: 'admin_prompt' }],
      ['resources/read', { uri: 'doc://admin' }],
    ] as const) {
      const refused = await call(method, params, reader);
      expect(refused.error?.kind).toBe('insufficientScope');
      expect(refused.error?.data).toEqual({ requiredScopes: ['admin'] });
      expect((await call(method, params, admin)).error).toBeUndefined();
    }
  });

  it('keeps the precomputed page of a server with nothing restricted: the same serialized page for every caller', async () => {
    const plain = createServer({
      ...definition,
      tools: definition.tools.slice(0, 2),
      prompts: [],
      resources: [],
      resourceTemplates: [],
    });
    const first = await page('tools/list', reader, undefined, plain);
    const second = await page('tools/list', admin, undefined, plain);
    expect(first.reply.result).toBeInstanceOf(RawJson);
    expect(second.reply.result).toBe(first.reply.result);
    expect(first.body.cacheScope).toBe('public'); // the definition's own word, when nothing depends on the caller
  });
});
