/**
 * Sign-in's consent page in Chromium (docs/sign-in.md): a client registered by
 * hand sends the browser to /authorize; the page says who asks, loads nothing but itself and logs
 * no error (its CSP allows no script); Allow goes through the GitHub-shaped stand-in and back to
 * the client with a code that the client exchanges for a token /mcp accepts; Deny sends the client
 * `access_denied`. Screenshots: test-output/screenshots/consent-{desktop-light,phone-dark}.png.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_REDIRECT, HandClient, type LoginProviders, pkce, startLoginProviders } from '../../src/testing/signin';
import { requestsTo } from '../support/mcp';
import { startSignInWorker, type SignInWorker } from '../support/signInWorker';
import { launchChromium, openWatched, screenshotPath } from '../../src/testing/browser';

let providers: LoginProviders;
let signInWorker: SignInWorker;
let browser: Browser;

beforeAll(async () => {
  providers = await startLoginProviders();
  [signInWorker, browser] = await Promise.all([startSignInWorker(providers, 'github'), launchChromium()]);
}, 120_000);
afterAll(() => Promise.all([browser?.close(), signInWorker?.worker.dispose(), providers?.close()]));

/** A context whose navigation to the client's redirect URI is answered here, as the client's own page would be. */
async function clientContext(
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; received: Promise<URL> }> {
  const context = await browser.newContext(options);
  let receive!: (url: URL) => void;
  const navigated: string[] = [];
  context.on('response', (response) =>
    navigated.push(`${response.request().method()} ${response.url().replace(/\?.*/, '?…')} → ${response.status()}`),
  );
  const arrived = new Promise<URL>((resolve) => (receive = resolve));
  // Bounded: a flow that stops on the way fails here, saying where it stopped.
  const received = Promise.race([
    arrived,
    new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`the client got no answer; the browser saw:\n${navigated.join('\n')}`)),
        10_000,
      ),
    ),
  ]);
  received.catch(() => {});
  await context.route(`${CLIENT_REDIRECT}**`, (route) => {
    receive(new URL(route.request().url()));
    return route.fulfill({ status: 200, contentType: 'text/plain', body: 'the client has its answer' });
  });
  return { context, received };
}

/** Opens the consent page of a new client; what the page logs as errors, and the requests it makes. */
async function openConsent(
  context: BrowserContext,
): Promise<{ page: Page; hand: HandClient; verifier: string; errors: string[]; requests: string[] }> {
  const hand = await new HandClient(signInWorker.origin).register();
  const { verifier, challenge } = await pkce();
  const { page, errors, requests } = await openWatched(context, hand.authorizationUrl(challenge));
  return { page, hand, verifier, errors, requests };
}

describe('the consent page', () => {
  it('Allow: through the provider and back to the client with a code the client exchanges for a token /mcp accepts', async () => {
    const { context, received } = await clientContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    const { page, hand, verifier, errors, requests } = await openConsent(context);
    await expect.poll(() => page.locator('#client-name').textContent()).toBe('Hand client');
    expect(await page.locator('#redirect-host').textContent()).toBe('127.0.0.1');
    expect(await page.locator('#loopback-warning').isVisible()).toBe(true);
    expect(requests).toHaveLength(1); // the page itself: no script, font or image
    await page.screenshot({ path: screenshotPath('consent-desktop-light'), fullPage: true });

    await page.getByRole('button', { name: 'Allow' }).click();
    const back = await received;
    expect(back.searchParams.get('iss')).toBe(signInWorker.origin);
    expect(back.searchParams.get('state')).toBe('client-state');
    const token = await hand.token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: CLIENT_REDIRECT,
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const mcp = await requestsTo(`${signInWorker.origin}/mcp`).post('server/discover', {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(mcp.status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Deny: the client receives access_denied; on a phone, in dark mode, the page fits the screen', async () => {
    const { context, received } = await clientContext({
      viewport: { width: 390, height: 844 },
      colorScheme: 'dark',
      isMobile: true,
      hasTouch: true,
    });
    const { page, errors } = await openConsent(context);
    // Nothing wider than the screen: no sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
    await page.screenshot({ path: screenshotPath('consent-phone-dark'), fullPage: true });
    await page.getByRole('button', { name: 'Deny' }).click();
    const back = await received;
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'client-state',
      iss: signInWorker.origin,
    });
    expect(back.searchParams.get('code')).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('cannot be framed by another page', async () => {
    const hand = await new HandClient(signInWorker.origin).register();
    const { challenge } = await pkce();
    // A page of another origin on loopback (a page the browser sees as public may not even request a loopback one).
    const framer = createServer((_, response) =>
      response
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end(`<iframe src="${hand.authorizationUrl(challenge)}"></iframe>`),
    );
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const framed = page.waitForResponse((response) => response.url().startsWith(`${signInWorker.origin}/authorize`));
      await page.goto(`http://localhost:${(framer.address() as AddressInfo).port}/`, { waitUntil: 'load' }); // the load event waits for the frame
      expect((await framed).status()).toBe(200); // the Worker answered the frame…
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      // …and the browser refused to show it there (frame-ancestors 'none', X-Frame-Options DENY): no form in the frame.
      expect(await frame.locator('form').count()).toBe(0);
    } finally {
      await context.close();
      await new Promise((resolve) => framer.close(resolve));
    }
  });
});
