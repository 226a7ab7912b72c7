/** The example resources (src/resources/time-zones.ts) and prompt (src/prompts/summarize-repo.ts) in the template Worker. */
import { describe, expect, it } from 'vitest';
import { type Call, rpc as rpcTo, templateUrl } from '../support/mcp';

const rpc = (method: string, call: Call = {}) => rpcTo(method, { url: templateUrl(), ...call });

describe('time zones (resources)', () => {
  it('lists fixed resources and templates with caching hints', async () => {
    const list = await rpc('resources/list');
    expect(list.body.result).toMatchObject({
      resultType: 'complete',
      resources: [{ uri: 'time://zones', name: 'time-zones', mimeType: 'text/plain' }],
      ttlMs: 300_000,
      cacheScope: 'public',
    });
    expect(list.headers.get('Cache-Control')).toBe('public, max-age=300');
    const templates = await rpc('resources/templates/list');
    expect(templates.body.result?.resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'time://now/{+zone}', name: 'time-in-zone' }),
    ]);
    expect(templates.body.result?.resourceTemplates[0]).not.toHaveProperty('complete');
  });

  it('reads a fixed resource with its own cache policy', async () => {
    const { headers, body } = await rpc('resources/read', { params: { uri: 'time://zones' } });
    expect(body.result?.contents[0].text.split('\n')).toContain('Europe/Paris');
    expect(body.result).toMatchObject({ ttlMs: 86_400_000, cacheScope: 'public' });
    expect(headers.get('Cache-Control')).toBe('public, max-age=86400');
  });

  it('reads through a template, {+zone} spanning the slash', async () => {
    const { headers, body } = await rpc('resources/read', { params: { uri: 'time://now/America/New_York' } });
    expect(body.result?.contents).toEqual([{ uri: 'time://now/America/New_York', mimeType: 'text/plain', text: expect.stringMatching(/\d{4}/) }]);
    expect(headers.get('Cache-Control')).toBe('public, no-cache');
  });

  it.each(['time://nowhere', 'time://now/Mars/Olympus_Mons'])('answers the unknown URI %s with -32602 and data.uri', async (uri) => {
    const { body } = await rpc('resources/read', { params: { uri } });
    expect(body.error).toMatchObject({ code: -32602, data: { uri } });
  });
});

describe('summarize_repo (prompt)', () => {
  it('lists prompts with their arguments but not their completers', async () => {
    const { body } = await rpc('prompts/list');
    expect(body.result?.prompts[0]).toMatchObject({ name: 'summarize_repo', arguments: [{ name: 'owner', required: true }, { name: 'repo', required: true }, { name: 'audience' }] });
    for (const argument of body.result?.prompts[0].arguments) expect(argument).not.toHaveProperty('complete');
  });

  it('fills in the arguments', async () => {
    const { body } = await rpc('prompts/get', { params: { name: 'summarize_repo', arguments: { owner: 'cloudflare', repo: 'workerd' } } });
    expect(body.result?.resultType).toBe('complete');
    expect(body.result?.messages[0].content.text).toContain('cloudflare/workerd');
  });

  it('answers a missing required argument or a non-string one with -32602', async () => {
    const missing = await rpc('prompts/get', { params: { name: 'summarize_repo', arguments: { owner: 'cloudflare' } } });
    expect(missing.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('repo'), data: { missing: ['repo'] } });
    const typed = await rpc('prompts/get', { params: { name: 'summarize_repo', arguments: { owner: 1, repo: 'x' } } });
    expect(typed.body.error?.code).toBe(-32602);
    const unknown = await rpc('prompts/get', { params: { name: 'nope' } });
    expect(unknown.body.error?.code).toBe(-32602);
  });
});

describe('completion of the examples', () => {
  it('completes a resource template variable', async () => {
    const { body } = await rpc('completion/complete', { params: { ref: { type: 'ref/resource', uri: 'time://now/{+zone}' }, argument: { name: 'zone', value: 'europe/pa' } } });
    expect(body.result?.completion).toEqual({ values: ['Europe/Paris'], total: 1, hasMore: false });
  });

  it('caps values at 100 and says there are more', async () => {
    const { body } = await rpc('completion/complete', { params: { ref: { type: 'ref/resource', uri: 'time://now/{+zone}' }, argument: { name: 'zone', value: '' } } });
    expect(body.result?.completion.values).toHaveLength(100);
    expect(body.result?.completion.hasMore).toBe(true);
  });

  it('completes a prompt argument, and returns nothing for one without a completer', async () => {
    const audience = await rpc('completion/complete', { params: { ref: { type: 'ref/prompt', name: 'summarize_repo' }, argument: { name: 'audience', value: 'ma' } } });
    expect(audience.body.result?.completion.values).toEqual(['managers']);
    const owner = await rpc('completion/complete', { params: { ref: { type: 'ref/prompt', name: 'summarize_repo' }, argument: { name: 'owner', value: 'c' } } });
    expect(owner.body.result?.completion.values).toEqual([]);
  });

  it('answers an unknown reference with -32602', async () => {
    const { body } = await rpc('completion/complete', { params: { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } } });
    expect(body.error?.code).toBe(-32602);
  });
});
