/** Every JSON-RPC error as HTTP, in the one function that decides it (src/http/transport/errorAnswer.ts). */
import { describe, expect, it } from 'vitest';
import { errorAnswer } from '../../../../src/http/transport/errorAnswer';
import { RATE_LIMIT_PERIOD_SECONDS } from '../../../../src/http/settings/settingsTable';
import {
  authorizationServerUnreachable,
  bodyTooLarge,
  forbidden,
  hostNotAllowed,
  internalError,
  invalidParams,
  methodNotFound,
  parseError,
  rateLimited,
  scopeRequired,
  tokenInvalid,
  tokenRequired,
  tooManyStreams,
  unauthorized,
  unsupportedMediaType,
  unsupportedVersion,
} from '../../../../src/mcp/errors';

const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource';
/** A deployment with an authorization server: its challenges name the metadata and the scopes to ask for. */
const deployment = { challenge: () => ({ metadata: METADATA, scopesToAsk: ['mcp:read', 'mcp:admin'] }) };
/** Counts how often the challenge context is asked for: only an error that carries a challenge needs it. */
const counting = () => {
  const asked = { times: 0 };
  return { asked, challenge: () => (asked.times++, deployment.challenge()) };
};

describe('errorAnswer', () => {
  it.each([
    ['a parse error', parseError('x'), 400],
    ['invalid params', invalidParams('x'), 400],
    ['an unsupported version', unsupportedVersion(['2026-07-28'], '1999-01-01'), 400],
    ['an unknown method', methodNotFound('no/such'), 404],
    ['an internal error', internalError(), 500],
    ['a body too large', bodyTooLarge(10), 413],
    ['a body that is not JSON', unsupportedMediaType(), 415],
    ['a host not allowed', hostNotAllowed('evil.example'), 403],
    ['a caller refused', forbidden('not from the office network'), 403],
  ])('answers %s with %i and no header of its own, without asking for a challenge', (_, error, status) => {
    const { asked, challenge } = counting();
    expect(errorAnswer(error, false, { challenge })).toEqual({ status });
    expect(asked.times).toBe(0);
  });

  it('challenges a request without a token with the metadata and the scopes to ask for', () => {
    expect(errorAnswer(tokenRequired('an access token is required'), false, deployment)).toEqual({
      status: 401,
      headers: { 'WWW-Authenticate': `Bearer resource_metadata="${METADATA}", scope="mcp:read mcp:admin"` },
    });
  });

  it('challenges a refused token with invalid_token, and a grant gone after verification without scopes', () => {
    expect(errorAnswer(tokenInvalid(), false, deployment).headers).toEqual({
      'WWW-Authenticate': `Bearer resource_metadata="${METADATA}", scope="mcp:read mcp:admin", error="invalid_token"`,
    });
    expect(errorAnswer(unauthorized('the grant was revoked'), false, deployment)).toEqual({
      status: 401,
      headers: { 'WWW-Authenticate': `Bearer resource_metadata="${METADATA}", error="invalid_token"` },
    });
  });

  it('challenges a missing scope with the scopes the error names (RFC 6750 3.1)', () => {
    expect(errorAnswer(scopeRequired(['admin', 'repo:write']), false, deployment)).toEqual({
      status: 403,
      headers: {
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="admin repo:write", resource_metadata="${METADATA}"`,
      },
    });
  });

  it("says when to come back: the limiters' period, a listen stream's own, the issuer's outage", () => {
    expect(errorAnswer(rateLimited(), false, deployment)).toEqual({
      status: 429,
      headers: { 'Retry-After': String(RATE_LIMIT_PERIOD_SECONDS) },
    });
    expect(errorAnswer(tooManyStreams(8, false, 15), false, deployment)).toEqual({
      status: 429,
      headers: { 'Retry-After': '15' },
    });
    expect(errorAnswer(authorizationServerUnreachable('down', 7), false, deployment)).toEqual({
      status: 503,
      headers: { 'Retry-After': '7' },
    });
  });

  it('answers a legacy client 200 for a JSON-RPC error, and keeps the status of a refusal of the HTTP request itself', () => {
    for (const error of [invalidParams('x'), methodNotFound('no/such'), internalError()])
      expect(errorAnswer(error, true, deployment)).toEqual({ status: 200 });
    expect(errorAnswer(parseError('x'), true, deployment).status).toBe(400);
    expect(errorAnswer(unsupportedVersion(['2025-11-25'], '1999-01-01'), true, deployment).status).toBe(400);
    expect(errorAnswer(bodyTooLarge(10), true, deployment).status).toBe(413);
    expect(errorAnswer(rateLimited(), true, deployment).status).toBe(429);
    expect(errorAnswer(scopeRequired(['admin']), true, deployment).status).toBe(403);
  });
});
