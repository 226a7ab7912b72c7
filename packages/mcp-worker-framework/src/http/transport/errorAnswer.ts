/**
 * The one place a JSON-RPC error becomes an HTTP answer: its status and the headers that go
 * with it, for every error whoever made it (a step of the edge, an auth mode, the core, a
 * handler). The core's errors know no HTTP; their code and `kind` say what they mean.
 */
import { ErrorCode, type McpError } from '../../mcp/internal.js';
import { invalidTokenChallenge, scopeChallenge, tokenChallenge } from '../auth/challenges.js';
import { RATE_LIMIT_PERIOD_SECONDS } from '../settings/settingsTable.js';

/** The status of an error, and its headers when it has any (a challenge, Retry-After). */
interface ErrorAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What the challenges need of the deployment: where its RFC 9728 metadata is, the scopes a new token should ask for. */
export interface ChallengeContext {
  readonly metadata: string | undefined;
  readonly scopesToAsk: readonly string[];
}

/** Where the challenge context comes from: asked only for an error that carries a challenge. */
interface Challenger {
  challenge(): ChallengeContext;
}

/**
 * spec 2026-07-28 streamable-http: 400 for a malformed request, missing `_meta` fields, header
 * mismatch, missing capability and unsupported version; 404 for an unknown method; 500 for an
 * internal error; 503 while the authorization server is unreachable (RFC 9110 15.6.4: a
 * temporary condition, not the client's fault).
 */
const STATUS_BY_CODE: Readonly<Partial<Record<ErrorCode, number>>> = {
  [ErrorCode.MethodNotFound]: 404,
  [ErrorCode.InternalError]: 500,
  [ErrorCode.AuthorizationServerUnreachable]: 503,
};

/** The status of a refusal whose kind says more than its code (RFC 9110, RFC 6750, RFC 6585). */
const STATUS_BY_KIND: Readonly<Record<NonNullable<McpError['kind']>, number>> = {
  tokenRequired: 401,
  tokenInvalid: 401,
  unauthorized: 401,
  forbidden: 403,
  insufficientScope: 403,
  rateLimited: 429,
  tooLarge: 413,
  unsupportedMediaType: 415,
};

/**
 * `error` as HTTP, for a request of the legacy era or not (`legacy`). Legacy clients (2025-11-25
 * transport) read a JSON-RPC error only from a 200 answer; only refusals of the HTTP request
 * itself (parse error, bad version header, size, type, authorization, limits) keep their status
 * (spec 2025-11-25 basic/transports). A legacy request's version comes from its header alone, so
 * its -32022 is a bad version header.
 */
export function errorAnswer(error: McpError, legacy: boolean, deployment: Challenger): ErrorAnswer {
  const { kind, code } = error;
  if (kind === undefined) {
    const status = STATUS_BY_CODE[code] ?? 400;
    if (legacy && code !== ErrorCode.ParseError && code !== ErrorCode.UnsupportedProtocolVersion) return OK;
    return status === 503 ? { status, headers: retryAfter(error.retryAfterSeconds ?? 1) } : statusOnly(status);
  }
  const status = STATUS_BY_KIND[kind];
  switch (kind) {
    case 'tokenRequired':
    case 'tokenInvalid': {
      const { metadata, scopesToAsk } = deployment.challenge();
      return {
        status,
        headers: { 'WWW-Authenticate': tokenChallenge(metadata, scopesToAsk, kind === 'tokenInvalid') },
      };
    }
    // RFC 6750 3: a 401 carries its challenge; the grant is gone, the client signs in again.
    case 'unauthorized':
      return { status, headers: { 'WWW-Authenticate': invalidTokenChallenge(deployment.challenge().metadata) } };
    // RFC 6750 3.1: the step-up challenge names the scopes the error names.
    case 'insufficientScope': {
      const scopes = (error.data as { requiredScopes: readonly string[] }).requiredScopes;
      return { status, headers: { 'WWW-Authenticate': scopeChallenge(deployment.challenge().metadata, scopes) } };
    }
    // RFC 6585 4: when to come back, the limiter's period unless the refusal says otherwise.
    case 'rateLimited':
      return { status, headers: retryAfter(error.retryAfterSeconds ?? RATE_LIMIT_PERIOD_SECONDS) };
    default:
      return statusOnly(status);
  }
}

const OK: ErrorAnswer = { status: 200 };
/** Most errors carry no header. (Not shared per status: a Map lookup counted about 100 instructions, more than the object it saves.) */
const statusOnly = (status: number): ErrorAnswer => ({ status });
const retryAfter = (seconds: number) => ({ 'Retry-After': String(seconds) });
