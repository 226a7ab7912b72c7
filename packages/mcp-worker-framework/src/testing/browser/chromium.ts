/**
 * The browser that `npm run test:browser` drives: the system's Chromium (Debian's `chromium`
 * package), never a browser a test library downloads. Found through `CHROMIUM_PATH`, else the
 * usual install paths; when there is none, the run fails at once with a one-line install hint.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const USUAL_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/**
 * Flags for a headless run that reaches nothing but loopback: without the background-networking
 * ones Chromium dials Google's hosts at every start, and a closed network refuses them noisily.
 * `--no-sandbox` because CI runs as root, where Chromium's own sandbox cannot start.
 */
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-dev-shm-usage',
];

export function chromiumPath(): string {
  const stated = process.env.CHROMIUM_PATH;
  if (stated) {
    if (!existsSync(stated)) throw new Error(`CHROMIUM_PATH is ${stated}, and there is no file there.`);
    return stated;
  }
  const found = USUAL_PATHS.find((path) => existsSync(path));
  if (!found)
    throw new Error(
      'No Chromium found: install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to its executable.',
    );
  return found;
}

/** A fresh headless Chromium with an empty profile; close it in `afterAll`. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: FLAGS, headless: true });
}

/** Where screenshots go: test-output/screenshots/<name>.png of the project (git-ignored), for closing notes and reviews. */
export function screenshotPath(name: string): string {
  const dir = join(process.cwd(), 'test-output', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}

/** A page opened at `url`, with what it logs as errors (console and uncaught) and every request it makes. */
export interface WatchedPage {
  page: Page;
  errors: string[];
  requests: string[];
}

/** Opens `url` in a new page of `context`, watching it from before its first request; fails unless the answer is 200. */
export async function openWatched(context: BrowserContext, url: string): Promise<WatchedPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => requests.push(request.url()));
  const response = await page.goto(url);
  if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status()}, not 200`);
  return { page, errors, requests };
}
