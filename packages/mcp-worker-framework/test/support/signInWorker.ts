/** The kit's sign-in Worker (src/testing/signin), by default the composed fixture with sign-in on (test/fixtures/composed/signin.worker.ts). */
import type { LoginProviders } from '../../src/testing/signin';
import { type SignInWorker, startSignInWorker as start } from '../../src/testing/signin/signInWorker';

export type { SignInWorker };

export const startSignInWorker = (
  providers: LoginProviders,
  provider: 'github' | 'oidc',
  vars: Record<string, string> = {},
  miniflare: Record<string, unknown> = {},
  config = 'test/fixtures/composed/signin.wrangler.toml',
): Promise<SignInWorker> => start(providers, provider, vars, miniflare, config);
