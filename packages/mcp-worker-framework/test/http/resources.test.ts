/** Resources, templates, prompts and completion (spec 2026-07-28 server/resources, server/prompts), against the defaults fixture. */
import { describe, expect, it } from 'vitest';
import { defaults } from '../fixtures/defaults';
import { greeting as prompt, TONES } from '../fixtures/prompts';
import { item as template, ITEM_NAMES } from '../fixtures/resources';
import { atUrl, testClient, textOf } from '../../src/testing';
import type { ListResourcesResult } from '@modelcontextprotocol/client';
import { defaultsUrl } from '../support/mcp';

const mcp = testClient(atUrl(defaultsUrl()));

/** One registered item whose path has a slash in it. */
const PATH = 'folder-4/Item-42';

describe('resources', () => {
  it('lists fixed resources and templates with caching hints', async () => {
    const list = await mcp.request<ListResourcesResult>('resources/list');
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
    expect(list.result.resources.map((r) => r.uri)).toEqual(defaults.resources.map((r) => r.uri));
    expect(list.headers.get('Cache-Control')).toBe('public, max-age=300');
    const templates = await mcp.listResourceTemplates();
    expect(templates.result.resourceTemplates).toEqual(
      defaults.resourceTemplates.map(({ uriTemplate, name }) => expect.objectContaining({ uriTemplate, name })),
    );
  });

  it('reads a fixed resource with its own cache policy', async () => {
    const { headers, result } = await mcp.readResource('test://public-doc');
    expect(result.contents).toEqual([{ uri: 'test://public-doc', text: 'shared' }]);
    expect(result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect(headers.get('Cache-Control')).toBe('public, max-age=60');
  });

  it('reads through a template, {+path} spanning the slash', async () => {
    expect(ITEM_NAMES).toContain(PATH);
    const uri = `test://items/${PATH}`;
    const { headers, result } = await mcp.readResource(uri);
    expect(result.contents).toEqual([{ uri, mimeType: 'text/plain', text: `item ${PATH}` }]);
    expect(headers.get('Cache-Control')).toBe('public, no-cache');
  });

  it.each(['test://nowhere', 'test://items/no/such/item'])(
    'answers the unknown URI %s with -32602 and data.uri',
    async (uri) => {
      await expect(mcp.readResource(uri)).rejects.toMatchObject({ code: -32602, data: { uri } });
    },
  );
});

describe('prompts', () => {
  it('lists prompts with their arguments (exactly the spec fields: test/unit/mcp/methods/list.test.ts)', async () => {
    const { result } = await mcp.listPrompts();
    expect(result.prompts[0]).toMatchObject({
      name: prompt.name,
      arguments: (prompt.arguments ?? []).map(({ name }) => ({ name })),
    });
  });

  it('fills in the arguments', async () => {
    const { result } = await mcp.getPrompt(prompt.name, { name: 'Ada', tone: 'formal' });
    expect(result.resultType).toBe('complete');
    expect(textOf(result)).toBe('Hello Ada (formal)');
  });

  it('answers a missing required argument or a non-string one with -32602', async () => {
    await expect(mcp.getPrompt(prompt.name, { tone: 'formal' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('name'),
      data: { missing: ['name'] },
    });
    await expect(mcp.request('prompts/get', { name: prompt.name, arguments: { name: 1 } })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(mcp.request('prompts/get', { name: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('completion/complete', () => {
  const completeItem = (value: string) =>
    mcp.complete({ type: 'ref/resource', uri: template.uriTemplate }, { name: 'path', value });

  it('completes a resource template variable with what its completer returns', async () => {
    const typed = PATH.slice(0, -1).toUpperCase();
    const expected = ITEM_NAMES.filter((name) => name.toLowerCase().startsWith(typed.toLowerCase()));
    const { result } = await completeItem(typed);
    expect(result.completion).toEqual({ values: expected, total: expected.length, hasMore: false });
  });

  it('caps values at 100 and says there are more', async () => {
    expect(ITEM_NAMES.length).toBeGreaterThan(100);
    const { result } = await completeItem('');
    expect(result.completion.values).toEqual(ITEM_NAMES.slice(0, 100));
    expect(result.completion.hasMore).toBe(true);
  });

  it('completes a prompt argument, and returns nothing for one without a completer', async () => {
    const complete = (name: string, value: string) =>
      mcp.complete({ type: 'ref/prompt', name: prompt.name }, { name, value });
    expect((await complete('tone', 'fo')).result.completion.values).toEqual(
      TONES.filter((tone) => tone.startsWith('fo')),
    );
    expect((await complete('name', 'A')).result.completion.values).toEqual([]);
  });

  it('answers an unknown reference with -32602', async () => {
    await expect(mcp.complete({ type: 'ref/prompt', name: 'nope' }, { name: 'a', value: '' })).rejects.toMatchObject({
      code: -32602,
    });
  });
});
