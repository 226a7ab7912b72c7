/**
 * Global setup: a loopback stand-in for the GitHub API, then the template Worker and the
 * fixture Worker, each built by wrangler and run in workerd (wrangler's test harness over Miniflare).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { createTestHarness } from 'wrangler';

declare module 'vitest' {
  export interface ProvidedContext {
    templateUrl: string;
    fixtureUrl: string;
  }
}

const root = new URL('../..', import.meta.url).pathname;

/** Answers like api.github.com for three repositories: one that exists, one missing, one broken. */
function fakeGitHub(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/repos/cloudflare/workers-sdk') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          full_name: 'cloudflare/workers-sdk',
          description: 'Home to Wrangler',
          stargazers_count: 3000,
          forks_count: 700,
          language: 'TypeScript',
          html_url: 'https://github.com/cloudflare/workers-sdk',
        }),
      );
    } else if (req.url === '/repos/acme/broken') {
      res.writeHead(503).end();
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export default async function setup(project: TestProject) {
  const github = await fakeGitHub();
  const githubUrl = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
  const template = createTestHarness({ root, workers: [{ configPath: './wrangler.toml', vars: { GITHUB_API_URL: githubUrl } }] });
  const fixture = createTestHarness({ root, workers: [{ configPath: './test/fixtures/wrangler.toml' }] });
  const [t, f] = await Promise.all([template.listen(), fixture.listen()]);
  project.provide('templateUrl', new URL('/mcp', t.url).href);
  project.provide('fixtureUrl', new URL('/mcp', f.url).href);
  return async () => {
    await Promise.all([template.close(), fixture.close()]);
    github.close();
  };
}
