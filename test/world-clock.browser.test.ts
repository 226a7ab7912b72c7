/**
 * The example app as a web host renders it (`npm run test:browser`;
 * node_modules/mcp-worker-framework/docs/apps.md): Chromium opens
 * the test kit's web host (mcp-worker-framework/testing/browser), which connects to the template's Worker in
 * workerd with the official client, calls `world_clock`, reads its view and renders it through a
 * sandbox proxy under the CSP the spec builds. The test reads what the view shows, clicks its
 * refresh button and finds the app-only tool's call in the Worker's request log, switches the
 * host to dark, and takes a screenshot in each theme (test-output/screenshots/apps-*.png).
 */
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from 'mcp-worker-framework/testing';
import { type AppsHost, launchChromium, screenshotPath, startAppsHost } from 'mcp-worker-framework/testing/browser';

let worker: WorkerInWorkerd;
let host: AppsHost;
let browser: Browser;
let page: Page;
let view: FrameLocator;
let shown: { text: string; csp: unknown };

const ZONES = ['America/New_York', 'Europe/Paris', 'Asia/Tokyo'];
/** The tool calls the Worker logged, by tool name (REQUEST_LOGS = on: one line per request). */
const toolCalls = () => worker.logs().flatMap((line) => /"gen_ai\.tool\.name":"([^"]+)"/.exec(line)?.[1] ?? []);

beforeAll(async () => {
  [worker, host, browser] = await Promise.all([
    // The host page is another loopback origin: it must be allowed, as a deployed host's would be.
    startInWorkerd({ vars: { ALLOWED_ORIGINS: 'http://127.0.0.1:*', REQUEST_LOGS: 'on' } }),
    startAppsHost(),
    launchChromium(),
  ]);
  page = await browser.newPage({ viewport: { width: 640, height: 420 } });
  await page.goto(host.pageFor(`${worker.url}/mcp`));
  shown = await page.evaluate(
    (zones) =>
      (
        window as unknown as { host: { show(tool: string, args: object): Promise<{ text: string; csp: unknown }> } }
      ).host.show('world_clock', { zones }),
    ZONES,
  );
  view = page.frameLocator('iframe[title=view]').frameLocator('iframe[title=view]');
}, 120_000);
afterAll(async () => {
  await Promise.all([browser?.close(), host?.close(), worker?.dispose()]);
});

describe('the world clock, rendered by a web host', () => {
  it('shows each zone of the tool result, as the text fallback names them', async () => {
    await expect.poll(() => view.locator('#zones li').count(), { timeout: 10_000 }).toBe(3);
    const rows = await view.locator('#zones li').allTextContents();
    expect(rows.map((row) => row.replace(/GMT.*$/, ''))).toEqual(['New York', 'Paris', 'Tokyo']);
    expect(rows[2]).toMatch(/Tokyo\s*GMT\+9\s*\w{3} \d\d:\d\d/);
    expect(shown.text).toMatch(/New York: \d\d:\d\d/);
    expect(await view.locator('#status').textContent()).toMatch(/^As of \d\d:\d\d UTC$/);
    await page.screenshot({ path: screenshotPath('apps-world-clock-light') });
  });

  it('runs the view under the restrictive CSP the spec builds when _meta.ui.csp is left out', async () => {
    expect(shown.csp).toBeNull();
    const proxy = page.frameLocator('iframe[title=view]');
    expect(await proxy.locator('body').getAttribute('data-csp')).toContain("connect-src 'self'; img-src");
    // connect-src lists no origin: even an opaque no-cors fetch to the Worker is refused by the browser.
    const reached = await view.locator('body').evaluate(
      (_, url) =>
        fetch(url, { mode: 'no-cors' }).then(
          () => 'reached',
          () => 'blocked',
        ),
      `${worker.url}/mcp`,
    );
    expect(reached).toBe('blocked');
  });

  it("sends the view's refresh to the Worker as a call of the app-only tool, through the host, for the zones of the tool input", async () => {
    const before = toolCalls().filter((name) => name === 'world_clock_refresh').length;
    await view.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => toolCalls().filter((name) => name === 'world_clock_refresh').length, { timeout: 10_000 })
      .toBe(before + 1);
    await expect
      .poll(() => view.locator('#status').textContent(), { timeout: 10_000 })
      .toMatch(/^As of \d\d:\d\d UTC$/);
    // The view kept the zones of ui/notifications/tool-input: without them the tool answers its seven defaults.
    expect(await view.locator('#zones li').count()).toBe(3);
  });

  it('follows the host to dark: the theme and its variables reach the view', async () => {
    const background = () => view.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.evaluate(() => (window as unknown as { host: { setTheme(theme: string): void } }).host.setTheme('dark'));
    await expect.poll(() => view.locator('html').getAttribute('data-theme'), { timeout: 10_000 }).toBe('dark');
    // The host's --color-background-primary for dark (#15171c), applied by applyHostStyleVariables.
    await expect.poll(background, { timeout: 10_000 }).toBe('rgb(21, 23, 28)');
    await page.screenshot({ path: screenshotPath('apps-world-clock-dark') });
  });
});
