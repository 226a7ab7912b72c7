/**
 * The sign-in configuration (docs/sign-in.md): the server of src/server.ts, plus the tools that act
 * as the signed-in user, behind the Worker's own OAuth 2.1 authorization server, which signs users
 * in with GitHub or any OpenID Connect provider. wrangler.oauth.toml serves it; it is
 * wrangler.toml plus AUTH_MODE = "signin", the LOGIN_* settings and the OAUTH_KV namespace:
 *
 *   npx wrangler dev -c wrangler.oauth.toml       serves http://localhost:8787/mcp
 *   npx wrangler deploy -c wrangler.oauth.toml    (or rename it to wrangler.toml)
 */
import { createRouter } from './http/router';
import { createServer, type ServerDefinition } from './mcp';
import { serverDefinition } from './server';
import { signIn } from './signin';
import { myRepositories } from './tools/my-repositories';

/** Tools that act as the signed-in user (their handlers read `caller.props`): served by this configuration only. */
const signedInTools: NonNullable<ServerDefinition['tools']> = [myRepositories];

const server = createServer({ ...serverDefinition, tools: [...(serverDefinition.tools ?? []), ...signedInTools] });

const router = createRouter(server, { signIn: signIn() });

export default {
  fetch: (request, env, ctx) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
