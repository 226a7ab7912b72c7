/**
 * Fuzzing the sign-in configuration's authorization server in workerd, against the loopback GitHub
 * stand-in: `GET /authorize`, the consent POST, the callback, `/oauth/token` (grants and
 * revocation) and `/oauth/register`, each with generated values: short, random unicode and
 * binary, shaped like the library's credentials, a real client id, and oversized ones. Properties:
 * never a 5xx (a 503 only as the deliberate outage answer, with Retry-After); no error-level log
 * line, since input alone must never look like an outage; a valid registration still succeeds
 * after all of it. Fixed seed here; `npm run fuzz` runs more (FUZZ_RUNS, FUZZ_SEED), at most
 * MAX_RUNS per route so a run stays bounded in time.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_REDIRECT, HandClient, type LoginProviders, startLoginProviders } from '../../src/testing/signin';
import { startSignInWorker, type SignInWorker } from '../support/signInWorker';

const MAX_RUNS = 2000;
const RUNS = Math.min(MAX_RUNS, Math.ceil(Number(process.env.FUZZ_RUNS ?? 600) / 6));
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);

let providers: LoginProviders;
let signIn: SignInWorker;
let clientId: string;
const statuses: Record<string, Record<number, number>> = {};

beforeAll(async () => {
  providers = await startLoginProviders();
  // The limiter on, loose enough that the library behind it sees the generated values too.
  signIn = await startSignInWorker(
    providers,
    'github',
    {},
    {
      ratelimits: {
        ADDRESS_RATE_LIMITER: { namespace_id: '1004', simple: { limit: 1_000_000, period: 60 } },
        SIGN_IN_RATE_LIMITER: { namespace_id: '1005', simple: { limit: 1_000_000, period: 60 } },
      },
    },
  );
  clientId = (await new HandClient(signIn.origin).register()).clientId;
}, 120_000);
afterAll(async () => {
  await signIn?.worker.dispose();
  await providers?.close();
});

/** A value from the wire: short text, any unicode, credential-shaped, a real client id, or oversized (up to 20,000 characters). */
const value = () =>
  fc.oneof(
    { arbitrary: fc.string({ maxLength: 40 }), weight: 4 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 4 },
    {
      arbitrary: fc
        .tuple(fc.string({ maxLength: 600 }), fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }))
        .map((parts) => parts.join(':')),
      weight: 4,
    },
    {
      arbitrary: fc
        .tuple(fc.integer({ min: 200, max: 2000 }), fc.integer({ min: 1, max: 300 }))
        .map(([user, grant]) => `${'u'.repeat(user)}:${'g'.repeat(grant)}:secret`),
      weight: 2,
    },
    { arbitrary: fc.constant(clientId), weight: 2 },
    {
      arbitrary: fc.constantFrom('authorization_code', 'refresh_token', 'S256', 'code', 'approve', CLIENT_REDIRECT),
      weight: 4,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('a', 'é', ':', ';', '%', '\u0000'), fc.integer({ min: 500, max: 20_000 }))
        .map(([char, count]) => char.repeat(count)),
      weight: 1,
    },
  );

/** Some of `names`, each with a value (a name twice, now and then). */
const fields = (names: readonly string[]) =>
  fc.array(fc.tuple(fc.constantFrom(...names), value()), { maxLength: names.length + 2 });

/** Sends it; the answer's status, checked against the properties. */
async function send(route: string, url: string, init: RequestInit = {}): Promise<void> {
  let response: Response | undefined;
  // A body over a route's cap is refused (413) without being read, and the connection closed under
  // the rest of it; the next request may meet that closed connection once, and is sent again.
  for (let attempt = 0; response === undefined; attempt++) {
    try {
      response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000), ...init });
      await response.arrayBuffer();
    } catch (error) {
      if (typeof init.body === 'string' && init.body.length > 8 * 1024)
        return void ((statuses[route] ??= {})[413] = (statuses[route]![413] ?? 0) + 1);
      if (attempt > 0) throw error;
      response = undefined;
    }
  }
  (statuses[route] ??= {})[response.status] = (statuses[route]![response.status] ?? 0) + 1;
  if (response.status === 503) expect(response.headers.get('Retry-After'), route).not.toBeNull();
  else expect(response.status, `${route}: ${url.slice(0, 200)}`).toBeLessThan(500);
}

/** `pairs` over `base`: each generated field replaces the base's (or adds to it, when it comes twice). */
function form(pairs: [string, string][], base: Record<string, string> = {}): string {
  const params = new URLSearchParams(base);
  const replaced = new Set<string>();
  for (const [name, one] of pairs) {
    if (replaced.has(name)) params.append(name, one);
    else params.set(name, one);
    replaced.add(name);
  }
  return params.toString();
}

/** A valid authorization request of the registered client, which the generated fields then change. */
const AUTHORIZATION = () => ({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: CLIENT_REDIRECT,
  state: 's',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
});

const routes = {
  'GET /authorize': fields([
    'response_type',
    'client_id',
    'redirect_uri',
    'state',
    'scope',
    'code_challenge',
    'code_challenge_method',
    'resource',
  ]).map(
    (pairs) => () =>
      send('GET /authorize', `${signIn.origin}/authorize?${form(pairs, AUTHORIZATION()).slice(0, 12_000)}`),
  ),
  'POST /authorize': fc
    .tuple(
      fields(['handle', 'decision', 'scope', 'offer', 'remember']),
      fc.constantFrom(
        'application/x-www-form-urlencoded',
        'application/x-www-form-urlencoded',
        'application/x-www-form-urlencoded',
        'text/plain',
      ),
    )
    .map(
      ([pairs, type]) =>
        () =>
          send('POST /authorize', `${signIn.origin}/authorize`, {
            method: 'POST',
            headers: { 'Content-Type': type, Origin: signIn.origin },
            body: form(pairs),
          }),
    ),
  'GET /oauth/callback': fields(['code', 'state', 'error', 'iss']).map(
    (pairs) => () => send('GET /oauth/callback', `${signIn.origin}/oauth/callback?${form(pairs).slice(0, 12_000)}`),
  ),
  'POST /oauth/token': fc
    .tuple(
      fields([
        'grant_type',
        'code',
        'refresh_token',
        'client_id',
        'client_secret',
        'code_verifier',
        'redirect_uri',
        'resource',
        'token',
        'token_type_hint',
        'client_assertion',
      ]),
      fc.option(value()),
    )
    .map(
      ([pairs, basic]) =>
        () =>
          send('POST /oauth/token', `${signIn.origin}/oauth/token`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/x-www-form-urlencoded',
              ...(basic === null
                ? {}
                : { Authorization: `Basic ${Buffer.from(`${encodeURIComponent(basic)}:secret`).toString('base64')}` }),
            },
            body: form(pairs, { client_id: clientId, grant_type: 'refresh_token' }),
          }),
    ),
  'POST /oauth/register': fc
    .record(
      {
        redirect_uris: fc.oneof(fc.array(value(), { maxLength: 12 }), value(), fc.constant([CLIENT_REDIRECT])),
        client_name: value(),
        token_endpoint_auth_method: fc.oneof(value(), fc.constant('none')),
        grant_types: fc.array(value(), { maxLength: 6 }),
        contacts: fc.array(value(), { maxLength: 50 }),
        'client_name#fr': value(),
      },
      { requiredKeys: [] },
    )
    .map(
      (metadata) => () =>
        send('POST /oauth/register', `${signIn.origin}/oauth/register`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(metadata),
        }),
    ),
};

describe('fuzzing the authorization server (sign-in mode)', () => {
  it.each(Object.keys(routes) as (keyof typeof routes)[])(
    'answers %s with 4xx (or a deliberate 503), and logs no error',
    async (route) => {
      const before = signIn.worker.errorLogs().length;
      await fc.assert(
        fc.asyncProperty(routes[route], (request) => request()),
        { numRuns: RUNS, seed: SEED },
      );
      expect(signIn.worker.errorLogs().slice(before)).toEqual([]);
      // Still serving: a valid registration succeeds.
      await new HandClient(signIn.origin).register();
      console.info(`fuzz ${route}: ${RUNS} runs (seed ${SEED}); answers by status ${JSON.stringify(statuses[route])}`);
    },
    300_000,
  );
});
