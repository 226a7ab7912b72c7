/**
 * How the server is found, as a browser sees it (docs/discovery.md): a page on another origin
 * reads the Server Card and the AI Catalog (public metadata, CORS for any origin, no credentials),
 * which only a browser enforces.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerInWorkerd } from '../../src/testing';
import { startEdge } from '../http/edge';
import { launchChromium } from '../../src/testing/browser';

let worker: WorkerInWorkerd;
let browser: Browser;
let elsewhere: Server;
let elsewhereUrl: string;

beforeAll(async () => {
  // A page on another origin (another port of loopback): the one a directory or an IDE would serve.
  elsewhere = createServer((_, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'),
  );
  await new Promise<void>((done) => elsewhere.listen(0, '127.0.0.1', done));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`;
  [worker, browser] = await Promise.all([startEdge(), launchChromium()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([browser?.close(), worker?.dispose()]);
  elsewhere?.close();
});

describe('a page on another origin', () => {
  it('follows the AI Catalog to the Server Card with fetch, as a directory would', async () => {
    const page = await browser.newPage();
    await page.goto(elsewhereUrl);
    const read = await page.evaluate(async (catalogUrl) => {
      const catalog = await fetch(catalogUrl);
      const { entries } = (await catalog.json()) as { entries: { url: string }[] };
      const card = await fetch(entries[0]!.url);
      return {
        statuses: [catalog.status, card.status],
        type: card.headers.get('content-type'),
        card: await card.json(),
      };
    }, `${worker.url}/.well-known/ai-catalog.json`);
    expect(read.statuses).toEqual([200, 200]);
    expect(read.type).toBe('application/mcp-server-card+json');
    expect(read.card).toMatchObject({
      name: 'com.example.fixture/edge',
      remotes: [{ type: 'streamable-http', url: `${worker.url}/mcp` }],
    });
    await page.close();
  });
});
