/**
 * A Worker with sign-in on (its wrangler config lists OAUTH_KV and the sign-in rate limits,
 * docs/sign-in.md) in workerd, signing users in with the loopback stand-ins of
 * `./loginProviders.ts`, on a port known before it starts: its resource identifier
 * (AUTH_RESOURCE), and so its issuer, names it, as a deployment's names its own URL.
 */
import { createServer } from 'node:net';
import { startInWorkerd, type WorkerInWorkerd } from '../startInWorkerd.js';
import { CLIENT_ID, CLIENT_SECRET, type LoginProviders } from './loginProviders.js';

export interface SignInWorker {
  worker: WorkerInWorkerd;
  /** The Worker's origin: its issuer. */
  origin: string;
  /** Its MCP endpoint, AUTH_RESOURCE. */
  resource: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The Worker of `config` (relative to the current directory) signing users in with `provider` of `providers`; `vars` add or override settings, `miniflare` bindings. */
export async function startSignInWorker(
  providers: LoginProviders,
  provider: 'github' | 'oidc',
  vars: Record<string, string> = {},
  miniflare: Record<string, unknown> = {},
  config = 'wrangler.toml',
): Promise<SignInWorker> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const upstream: Record<string, string> =
    provider === 'github'
      ? { LOGIN_GITHUB_URL: providers.githubUrl, LOGIN_GITHUB_API_URL: providers.githubApiUrl }
      : { LOGIN_ISSUER: providers.oidcIssuer };
  const worker = await startInWorkerd({
    config,
    vars: {
      AUTH_MODE: 'signin',
      AUTH_RESOURCE: `${origin}/mcp`,
      LOGIN_PROVIDER: provider,
      LOGIN_CLIENT_ID: CLIENT_ID,
      REQUEST_LOGS: 'off',
      ...upstream,
      ...vars,
    },
    secrets: { LOGIN_CLIENT_SECRET: CLIENT_SECRET, MCP_STATE_SECRET: 'a-state-secret-for-the-sign-in-tests-only' },
    // Miniflare's own option, on the port AUTH_RESOURCE names.
    miniflare: { port, ...miniflare } as never,
  });
  return { worker, origin, resource: `${origin}/mcp` };
}
