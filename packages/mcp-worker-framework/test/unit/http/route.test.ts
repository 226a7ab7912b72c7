/**
 * A fork's route at a path the framework serves is refused at load (src/http/route.ts,
 * `checkRoutes`), compared as the router matches paths: itty-router answers `/mcp/` and `/mcp//`
 * with its `/mcp` route, so a fork's route spelled so would never run. Checked against the
 * router itself, so an upgrade that matches otherwise fails here.
 */
import { Router } from 'itty-router';
import { describe, expect, it } from 'vitest';
import { checkRoutes, route } from '../../../src/http/route';

const FRAMEWORK = ['/mcp', '/.well-known/oauth-protected-resource', '/authorize', '/oauth/token', '/'];
const refusal = (path: string) => {
  try {
    checkRoutes([route('POST', path, () => new Response())], FRAMEWORK);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

/**
 * Whether a fork's route at `path`, after the framework's, is ever reached: the router asked at
 * every spelling here and at every framework path (a route at `//mcp` matches a request at `/mcp`).
 */
async function reachable(path: string): Promise<boolean> {
  const router = Router();
  for (const framework of FRAMEWORK) router.all(framework, () => new Response('framework'));
  router.all(path, () => new Response('fork'));
  for (const at of [...SPELLINGS, ...FRAMEWORK]) {
    const answer = await router.fetch(new Request(`http://localhost${at}`));
    if (answer && (await answer.text()) === 'fork') return true;
  }
  return false;
}

const SPELLINGS = [
  '/mcp',
  '/mcp/',
  '/mcp//',
  '//mcp',
  '/mcp///',
  '/.well-known/oauth-protected-resource/',
  '/.well-known//oauth-protected-resource',
  '/authorize/',
  '/oauth/token//',
  '//',
  // Paths of the fork's own: the router matches them apart from the framework's.
  '/MCP',
  '/mcp-hooks',
  '/mcp/hooks',
  '/authorize.html',
  '/oauth',
  '/.well-known/oauth-protected-resource.json',
];

describe('checkRoutes', () => {
  it.each(SPELLINGS)('refuses a route at %s exactly when the router would never reach it', async (path) => {
    const refused = refusal(path);
    if (await reachable(path)) expect(refused).toBeUndefined();
    else expect(refused).toMatch(new RegExp(`^route POST ${path}: the framework serves (${FRAMEWORK.join('|')}) `));
  });

  it('refuses the spellings the attack round found, naming the route and the framework path', () => {
    expect(refusal('/mcp/')).toMatch(
      /^route POST \/mcp\/: the framework serves \/mcp \(the router reads \/mcp\/ as \/mcp\)/,
    );
    expect(refusal('/mcp//')).toMatch(/^route POST \/mcp\/\/: the framework serves \/mcp /);
    expect(refusal('/authorize/')).toMatch(/^route POST \/authorize\/: the framework serves \/authorize /);
  });

  it('lets a route with a parameter or a wildcard be, as it serves other paths too', () => {
    expect(refusal('/:anything')).toBeUndefined();
    expect(refusal('/mcp/*')).toBeUndefined();
    expect(refusal('*')).toBeUndefined();
  });
});
