/** The example app (src/tools/world-clock.ts, its view views/world-clock/), in workerd as deployed, its view read from static assets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, testClient, type WorkerInWorkerd } from 'mcp-worker-framework/testing';

let worker: WorkerInWorkerd;
beforeAll(async () => {
  worker = await startInWorkerd({ vars: { REQUEST_LOGS: 'off' } });
}, 120_000);
afterAll(() => worker?.dispose());

describe('world_clock and its view', () => {
  it('answers with text for any client and the data for the view', async () => {
    const { result } = await testClient(worker).callTool('world_clock', { zones: ['Asia/Tokyo', 'Europe/Paris'] });
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(
      /^At \d\d:\d\d UTC:\nTokyo: \d\d:\d\d \w{3} \(GMT\+9\)\nParis: \d\d:\d\d \w{3} \(GMT\+[12]\)$/,
    );
    expect(result.structuredContent).toMatchObject({
      zones: [
        { zone: 'Asia/Tokyo', place: 'Tokyo', offset: 'GMT+9' },
        { zone: 'Europe/Paris', place: 'Paris' },
      ],
    });
  });

  it('tells the model which zone it does not know', async () => {
    const { result } = await testClient(worker).callTool('world_clock', { zones: ['Mars/Olympus'] });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('Unknown time zone "Mars/Olympus"') }],
    });
  });

  it('lists the tool with its view, and the refresh tool for the view only', async () => {
    const { result } = await testClient(worker).listTools();
    const meta = (name: string) => result.tools.find((t) => t.name === name)?._meta;
    expect(meta('world_clock')).toEqual({ ui: { resourceUri: 'ui://world-clock/view' } });
    expect(meta('world_clock_refresh')).toEqual({ ui: { resourceUri: 'ui://world-clock/view', visibility: ['app'] } });
  });

  it('reads the built view from static assets: one self-contained document, cacheable for a day', async () => {
    const { result, headers } = await testClient(worker).readResource('ui://world-clock/view');
    const [content] = result.contents as { uri: string; mimeType: string; text: string; _meta: unknown }[];
    expect(content).toMatchObject({
      uri: 'ui://world-clock/view',
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { prefersBorder: true } },
    });
    expect(content!.text).toMatch(/^<!doctype html>/i);
    expect(content!.text).toContain('<script type="module">');
    expect(content!.text).not.toMatch(/src="\.\/|href="\.\//);
    expect(result).toMatchObject({ ttlMs: 86_400_000, cacheScope: 'public' });
    expect(headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it('serves no file of the assets at a URL: only resources/read reaches them', async () => {
    const response = await fetch(`${worker.url}/world-clock.html`);
    expect(response.status).toBe(404);
    await response.body?.cancel();
  });
});
