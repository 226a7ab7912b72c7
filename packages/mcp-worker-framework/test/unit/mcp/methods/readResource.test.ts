/**
 * The caching hints of `resources/read` (spec 2026-07-28 server/utilities/caching): a read whose
 * answer depends on who asks is private whatever the definition or the resource says, as a list
 * is (issue 37). It depends on who asks when what it reads has a `visibleTo` rule or
 * `requiredScopes`, and when what it reads was reached past an item its rule hid from this
 * caller: another caller, who sees that item, is answered with it for the same URI.
 */
import { describe, expect, it } from 'vitest';
import { createServer, defineResource, defineResourceTemplate } from '../../../../src/mcp';
import type { Caller } from '../../../../src/mcp/caller';
import { RawJson } from '../../../../src/mcp/json';
import type { ResultReply } from '../../../../src/mcp/request';
import { mcpRequest } from '../../../support/request';

const isStaff = (caller: Caller | undefined) => caller?.claims.staff === true;
const staff: Caller = { subject: 'octo', kind: 'person', scopes: [], claims: { staff: true } };
const reader: Caller = { subject: 'rita', kind: 'person', scopes: [], claims: {} };
const contents = (uri: string, text: string) => ({ contents: [{ uri, text }] });

const server = createServer({
  info: { name: 'reads', version: '1.0.0' },
  // What src/server.ts's comment suggests: reads public even under auth.
  cache: { 'resources/read': { ttlMs: 60_000, cacheScope: 'public' } },
  resources: [
    defineResource({ uri: 'doc://open', name: 'open', read: () => contents('doc://open', 'open') }),
    defineResource({
      uri: 'doc://shared/roster',
      name: 'roster',
      visibleTo: isStaff,
      cache: { ttlMs: 5_000, cacheScope: 'public' },
      read: () => contents('doc://shared/roster', 'the staff roster'),
    }),
  ],
  resourceTemplates: [
    defineResourceTemplate({
      uriTemplate: 'doc://staff/{name}',
      name: 'staff-page',
      visibleTo: isStaff,
      read: (uri, { name }) => contents(uri, `staff page ${name}`),
    }),
    // Every URI under doc://, for everyone: it answers what the items above hide from a caller.
    defineResourceTemplate({
      uriTemplate: 'doc://{+path}',
      name: 'anything',
      read: (uri, { path }) => contents(uri, `public page ${path}`),
    }),
  ],
});

async function read(uri: string, caller: Caller | undefined) {
  const reply = await server.handle(
    mcpRequest({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }, undefined, { caller }),
  );
  if (!(reply.result instanceof RawJson)) throw new Error(`no result: ${JSON.stringify(reply.error)}`);
  const { result, cache } = reply as ResultReply<RawJson>;
  const body = JSON.parse(result.json) as { contents: { text: string }[]; cacheScope: string; ttlMs: number };
  return { text: body.contents[0]!.text, cacheScope: body.cacheScope, ttlMs: body.ttlMs, cache };
}

describe('resources/read caching hints', () => {
  it("keeps the definition's word for a read every caller makes alike", async () => {
    for (const who of [undefined, reader, staff]) {
      expect(await read('doc://open', who)).toMatchObject({ cacheScope: 'public', ttlMs: 60_000 });
      // The catch-all template, for a URI no hidden item matches.
      expect(await read('doc://elsewhere/page', who)).toMatchObject({ cacheScope: 'public' });
    }
  });

  it('makes a read of a resource or template with a visibleTo rule private, though it and the definition say public', async () => {
    expect(await read('doc://shared/roster', staff)).toMatchObject({
      text: 'the staff roster',
      cacheScope: 'private',
      ttlMs: 5_000, // the resource's own ttlMs stays
    });
    expect(await read('doc://staff/handbook', staff)).toMatchObject({
      text: 'staff page handbook',
      cacheScope: 'private',
      ttlMs: 60_000,
    });
  });

  it('makes private what a caller is answered past an item hidden from it: another caller gets another answer for that URI', async () => {
    for (const [uri, hidden] of [
      ['doc://shared/roster', 'the staff roster'], // a fixed resource hidden, the catch-all answers
      ['doc://staff/handbook', 'staff page handbook'], // a template hidden, the next one answers
    ]) {
      const seen = await read(uri!, reader);
      expect(seen.text, uri).not.toBe(hidden);
      expect(seen.cacheScope, uri).toBe('private');
      expect(seen.cache?.cacheScope, uri).toBe('private');
    }
  });

  it('gives the HTTP binding the same hints as the result, one object per policy (its headers are built once per policy)', async () => {
    const first = await read('doc://staff/a', staff);
    const second = await read('doc://staff/b', reader);
    expect(first.cache).toEqual({ ttlMs: 60_000, cacheScope: 'private' });
    expect(second.cache).toBe(first.cache);
  });
});
