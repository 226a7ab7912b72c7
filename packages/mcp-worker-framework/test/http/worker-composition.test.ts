/**
 * One Worker composed in code: src/index.ts turns features on with a line each, and
 * every combination serves. The composed fixtures (test/fixtures/composed/) are src/index.ts with
 * tasks on, sign-in on, and both; each config is the template's wrangler.toml with that block
 * uncommented. The first two tests were a 500 and a Worker that failed to load when tasks were a
 * second entry that passed only the JWT verifier and imported a server
 * compiled at load without the Tasks extension.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { startLoginProviders, type LoginProviders } from '../../src/testing/signin';
import { defaultsUrl, requestsTo } from '../support/mcp';
import { startSignInWorker } from '../support/signInWorker';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const workers: WorkerInWorkerd[] = [];
let providers: LoginProviders;
beforeAll(async () => {
  providers = await startLoginProviders([]);
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.dispose()));
  await providers?.close();
});

async function serve(config: string, vars: Record<string, string> = {}, secrets: Record<string, string> = {}) {
  // The Worker's outbound fetches (Access's certs) get an empty key set: no test here reaches an issuer.
  const worker = await startInWorkerd({
    config,
    vars,
    secrets: { MCP_STATE_SECRET: 'composition test secret', ...secrets },
    outbound: () => Response.json({ keys: [] }),
  });
  workers.push(worker);
  return requestsTo(`${worker.url}/mcp`);
}

const toolNames = async (response: Response) =>
  ((await response.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);

describe('tasks on, with every auth mode', () => {
  const config = 'test/fixtures/composed/tasks.wrangler.toml';

  it('AUTH_MODE = "access": a request with a bad Access token is refused 401, not 500', async () => {
    const { post } = await serve(config, {
      AUTH_MODE: 'access',
      ACCESS_TEAM_DOMAIN: 'https://acme.cloudflareaccess.com',
      ACCESS_AUD: 'f3a1c2d4e5b6a798',
    });
    const response = await post('tools/list', { headers: { 'Cf-Access-Jwt-Assertion': 'not-a-token' } });
    expect(response.status).toBe(401);
  });

  it('AUTH_MODE = "introspect": a request with a token that is no token is refused 401, not 500', async () => {
    const { post } = await serve(
      config,
      {
        AUTH_MODE: 'introspect',
        AUTH_INTROSPECTION_URL: 'https://idp.example.com/introspect',
        AUTH_INTROSPECTION_CLIENT_ID: 'mcp',
        AUTH_RESOURCE: 'https://mcp.example.com/mcp',
      },
      { AUTH_INTROSPECTION_CLIENT_SECRET: 'introspection secret' },
    );
    const response = await post('tools/list', { headers: { Authorization: 'Bearer not!a!token' } });
    expect(response.status).toBe(401);
  });

  it('loads a definition with a tool that runs only as a task, lists it, and runs it as one', async () => {
    const { post } = await serve(config);
    expect(await toolNames(await post('tools/list', { capabilities: TASKS }))).toEqual(['echo', 'later']);
    const called = await post('tools/call', { capabilities: TASKS, params: { name: 'later', arguments: {} } });
    expect(((await called.json()) as { result: { resultType: string } }).result.resultType).toBe('task');
  });
});

describe('an AUTH_MODE the entry did not include', () => {
  it('is refused at the first request: 500 naming AUTH_MODE and the modes the entry lists', async () => {
    const { rpc } = await serve('test/fixtures/composed/tasks.wrangler.toml', {
      AUTH_MODE: 'signin',
      AUTH_RESOURCE: 'http://127.0.0.1:9/mcp',
    });
    const { status, body } = await rpc('tools/list');
    expect(status).toBe(500);
    expect(body.error?.data).toEqual({ setting: 'AUTH_MODE' });
    expect(body.error?.message).toBe(
      'Server misconfigured: the setting AUTH_MODE must be "bearer", "jwt", "access", "introspect" or "none": the modes src/index.ts lists in `auth`, or none',
    );
  });
});

describe('sign-in on', () => {
  it('serves its authorization server and refuses /mcp without a token, 401 pointing at its metadata', async () => {
    const { worker, origin, resource } = await startSignInWorker(providers, 'github');
    workers.push(worker);
    const metadata = await fetch(`${origin}/.well-known/oauth-authorization-server`);
    expect(metadata.status).toBe(200);
    const response = await requestsTo(resource).post('tools/list');
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toContain(
      `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});

describe('tasks and sign-in on together', () => {
  it('serves both: the authorization server, and, with AUTH_MODE = "none", a task tool run as a task', async () => {
    const { worker, origin } = await startSignInWorker(
      providers,
      'github',
      {},
      {},
      'test/fixtures/composed/both.wrangler.toml',
    );
    workers.push(worker);
    expect((await fetch(`${origin}/.well-known/oauth-authorization-server`)).status).toBe(200);
    const { post } = await serve('test/fixtures/composed/both.wrangler.toml');
    const called = await post('tools/call', { capabilities: TASKS, params: { name: 'later', arguments: {} } });
    expect(((await called.json()) as { result: { resultType: string } }).result.resultType).toBe('task');
  });
});

describe('MCP Apps on and off', () => {
  const apps = (response: Response) =>
    response
      .json()
      .then(
        (body) =>
          (body as { result: { capabilities: { extensions?: Record<string, unknown> } } }).result.capabilities
            .extensions,
      );

  it('is served by a Worker that turns it on (the apps fixture: `extensions: [apps()]`)', async () => {
    const { post } = await serve('test/fixtures/apps/wrangler.toml');
    expect(await apps(await post('server/discover'))).toEqual({ 'io.modelcontextprotocol/ui': {} });
  });

  it('is not served by one that does not (the defaults fixture)', async () => {
    expect(await apps(await requestsTo(defaultsUrl()).post('server/discover'))).toBeUndefined();
  });
});
