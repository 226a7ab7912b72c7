/** The example resources (src/resources/time-zones.ts) and prompt (src/prompts/summarize-repo.ts), tested with the test kit. */
import { describe, expect, it } from 'vitest';
import worker from '../src/index';
import { testClient, textOf } from 'mcp-worker-framework/testing';

const mcp = testClient(worker);
const zoneTemplate = { type: 'ref/resource', uri: 'time://now/{+zone}' };
const summarize = { type: 'ref/prompt', name: 'summarize_repo' };

describe('time zones (resources)', () => {
  it('lists the zone list, the world clock view, the example skill and the time-in-zone template', async () => {
    expect((await mcp.listResources()).result.resources).toEqual([
      expect.objectContaining({ uri: 'time://zones', name: 'time-zones', mimeType: 'text/plain' }),
      expect.objectContaining({
        uri: 'ui://world-clock/view',
        name: 'world-clock',
        mimeType: 'text/html;profile=mcp-app',
      }),
      expect.objectContaining({
        uri: 'skill://plan-a-meeting/SKILL.md',
        name: 'plan-a-meeting',
        mimeType: 'text/markdown',
      }),
    ]);
    expect((await mcp.listResourceTemplates()).result.resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'time://now/{+zone}', name: 'time-in-zone' }),
    ]);
  });

  it('reads the zone list, cacheable for a day', async () => {
    const { result, headers } = await mcp.readResource('time://zones');
    expect(textOf(result).split('\n')).toContain('Europe/Paris');
    expect(headers.get('Cache-Control')).toBe('public, max-age=86400');
  });

  it('reads the time in a zone, {+zone} spanning the slash', async () => {
    const { result } = await mcp.readResource('time://now/America/New_York');
    expect(result.contents).toEqual([
      { uri: 'time://now/America/New_York', mimeType: 'text/plain', text: expect.stringMatching(/\d{4}/) },
    ]);
  });

  it.each(['time://nowhere', 'time://now/Mars/Olympus_Mons'])('answers the unknown URI %s with -32602', async (uri) => {
    await expect(mcp.readResource(uri)).rejects.toMatchObject({ code: -32602, data: { uri } });
  });

  it('completes a zone case-insensitively, at most 100 at a time', async () => {
    expect((await mcp.complete(zoneTemplate, { name: 'zone', value: 'europe/pa' })).result.completion).toEqual({
      values: ['Europe/Paris'],
      total: 1,
      hasMore: false,
    });
    const all = (await mcp.complete(zoneTemplate, { name: 'zone', value: '' })).result.completion;
    expect(all.values).toHaveLength(100);
    expect(all.hasMore).toBe(true);
  });
});

describe('summarize_repo (prompt)', () => {
  it('lists its arguments', async () => {
    const [prompt] = (await mcp.listPrompts()).result.prompts;
    expect(prompt).toMatchObject({
      name: 'summarize_repo',
      arguments: [{ name: 'owner', required: true }, { name: 'repo', required: true }, { name: 'audience' }],
    });
  });

  it('fills in the arguments', async () => {
    const { result } = await mcp.getPrompt('summarize_repo', { owner: 'cloudflare', repo: 'workerd' });
    expect(textOf(result)).toContain('cloudflare/workerd');
  });

  it('answers a missing required argument with -32602', async () => {
    await expect(mcp.getPrompt('summarize_repo', { owner: 'cloudflare' })).rejects.toMatchObject({
      code: -32602,
      data: { missing: ['repo'] },
    });
  });

  it('completes the audience, and nothing for the owner', async () => {
    expect((await mcp.complete(summarize, { name: 'audience', value: 'ma' })).result.completion.values).toEqual([
      'managers',
    ]);
    expect((await mcp.complete(summarize, { name: 'owner', value: 'c' })).result.completion.values).toEqual([]);
  });
});
