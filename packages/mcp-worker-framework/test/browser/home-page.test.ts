/**
 * The page at `/` as a person sees it (src/http/discovery/homePage.ts): a Worker with tools and skills (the
 * conformance fixture) in workerd, opened in Chromium at phone and desktop widths, light and dark.
 * What it must show comes from the server under test (its tool list and skills).
 * Screenshots: test-output/screenshots/home-{phone,desktop}-{light,dark}.png.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, testClient, type WorkerInWorkerd } from '../../src/testing';
import { launchChromium, openWatched, screenshotPath } from '../../src/testing/browser';

let worker: WorkerInWorkerd;
let browser: Browser;
let toolNames: string[];
let skillNames: string[];

beforeAll(async () => {
  [worker, browser] = await Promise.all([
    startInWorkerd({ config: 'test/conformance/wrangler.toml', secrets: { MCP_STATE_SECRET: 'page test' } }),
    launchChromium(),
  ]);
  // What the page shows people: the listed tools a model may call (a tool only a view calls, MCP Apps visibility ["app"], is not for them).
  const forModels = (tool: Record<string, any>) =>
    (tool._meta?.ui?.visibility as string[] | undefined)?.includes('model') ?? true;
  toolNames = (await testClient(worker).listTools()).result.tools.filter(forModels).map((tool) => String(tool.name));
  // And the skills (docs/skills.md): each skill's SKILL.md, as resources/list names it; none, no list.
  const isSkill = (resource: Record<string, any>) => /^skill:\/\/.+\/SKILL\.md$/.test(String(resource.uri));
  skillNames = (await testClient(worker).listResources()).result.resources
    .filter(isSkill)
    .map((resource) => String(resource.name));
}, 120_000);
afterAll(() => Promise.all([browser?.close(), worker?.dispose()]));

const open = (context: BrowserContext) => openWatched(context, `${worker.url}/`);

describe('the page at /', () => {
  it('shows the endpoint and every tool, loads nothing else and logs no error', async () => {
    const context = await browser.newContext();
    const { page, errors, requests } = await open(context);
    expect(await page.locator('#endpoint').textContent()).toBe(`${worker.url}/mcp`);
    const shown = await page.locator('.tools code').allTextContents();
    expect(shown).toEqual(toolNames);
    // Every skill an anonymous list shows; one it leaves out for its scopes is there with them named.
    const skillsShown = await page.locator('.skills code').allTextContents();
    expect(skillsShown).toEqual(expect.arrayContaining(skillNames));
    for (const name of skillsShown.filter((shown) => !skillNames.includes(shown)))
      expect(await page.locator('.skills li', { hasText: name }).locator('.tag').textContent()).toMatch(/^needs /);
    expect(requests).toEqual([`${worker.url}/`]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('copies the endpoint with its button', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const { page, errors } = await open(context);
    const button = page.getByRole('button', { name: 'Copy' });
    await button.click();
    await expect.poll(() => page.locator('#copy').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${worker.url}/mcp`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads without JavaScript: everything but the copy button is there', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const { page } = await open(context);
    expect(await page.locator('#endpoint').textContent()).toBe(`${worker.url}/mcp`);
    expect(await page.locator('.tools code').count()).toBe(toolNames.length);
    await expect.poll(() => page.locator('#copy').isVisible()).toBe(false);
    // The ways to connect open without a script (<details>).
    await page.getByText('VS Code').click();
    expect(await page.locator('details[open] pre').first().textContent()).toContain(`${worker.url}/mcp`);
    await context.close();
  });

  for (const [device, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 900 }],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`fits a ${device} in ${colorScheme} mode`, async () => {
        const context = await browser.newContext({
          viewport,
          colorScheme,
          deviceScaleFactor: device === 'phone' ? 2 : 1,
        });
        const { page, errors } = await open(context);
        // Nothing wider than the screen: no sideways scrolling on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background).toBe(colorScheme === 'dark' ? 'rgb(18, 19, 20)' : 'rgb(251, 251, 250)');
        await page.locator('details').first().click();
        await page.screenshot({ path: screenshotPath(`home-${device}-${colorScheme}`), fullPage: true });
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});
