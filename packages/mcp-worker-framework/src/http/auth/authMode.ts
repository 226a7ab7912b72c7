/**
 * The shape of an auth mode and of its config, in a leaf module that the settings (`../settings/settings.ts`)
 * and the verifiers (`src/auth/verifyJwt.ts`, `verifyAccess.ts`, `verifyIntrospection.ts`) import without importing
 * each other.
 */
import type { Caller, McpError, WorkerEnv } from '../../mcp/internal.js';
import type { SettingError, SettingRows, SettingValues, ValuesOf } from '../settings/settingsTable.js';

/** What lets a fetch outlive the request that started it (the Worker's `ExecutionContext`). */
export interface Lifetime {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The issuer's keys could not be had, so the token can be neither accepted nor refused: 503.
 * The cause is logged where the fetch failed, once per fetch, not once per request.
 */
export interface IssuerUnreachable {
  unreachable: true;
  retryAfterSeconds: number;
  /** What could not be had, when it is not the issuer's signing keys (the sign-in mode's grant store). */
  what?: string;
}

/** Checks a credential under a mode's config `A`: its caller, undefined when it is invalid, or why the issuer cannot be asked. `lifetime` lets a key fetch outlive the request. */
export type Verifier<A> = (
  credential: string,
  auth: A,
  lifetime?: Lifetime,
) => Promise<Caller | IssuerUnreachable | undefined>;

/**
 * What every mode's config says, for the steps that do not know the mode: its scopes, and the
 * RFC 9728 metadata to advertise (an OAuth resource with an authorization server to name).
 */
export interface AuthConfig {
  /** Its AUTH_MODE value. */
  readonly mode: string;
  /** AUTH_SCOPES: the scopes the metadata advertises, and the 401 challenge asks for. */
  readonly scopesSupported: readonly string[];
  /** The authorization servers the metadata names; none, no metadata. */
  readonly authorizationServers: readonly string[];
  /** This resource's identifier (AUTH_RESOURCE), where tokens name one. */
  readonly resource?: string;
  /** Where the metadata is, when it comes from configuration (sign-in); else at this origin's well-known path. */
  readonly metadataUrl?: string;
  /** An origin whose pages this Worker serves and that post back to it (sign-in's consent page): allowed as its own. */
  readonly pagesOrigin?: string;
}

/** Admitted (with its caller when auth is on), or refused (its challenge or Retry-After: `../transport/errorAnswer.ts`). */
export type AuthOutcome = { caller?: Caller; refused?: undefined } | { refused: McpError; caller?: undefined };

/**
 * What the settings and the token check need of an auth mode (the rest, its routes and tools, is
 * `AuthMode` of `./auth.ts`): the AUTH_MODE value it answers to, its settings (rows of the
 * settings table), the parser that makes its config of them, and how it checks a credential.
 */
// biome-ignore lint/suspicious/noExplicitAny: a list of modes holds each mode's own config type
export interface AuthModeBase<C extends AuthConfig = any, R extends SettingRows = SettingRows> {
  /** Its AUTH_MODE value. */
  readonly name: string;
  /** Its settings, by name: its own rows, and the shared ones it reads (`SHARED_AUTH_SETTINGS`). */
  readonly settings: R;
  /** Its config from the values of the table (the core's, its own, and the other modes'), or the setting missing or wrong. */
  parse(values: ValuesOf<R> & SettingValues & Readonly<Record<string, unknown>>): C | SettingError;
  /** With another mode on, a setting of its own that is set would be ignored: the error refusing it. */
  unused?(values: Readonly<Record<string, unknown>>): SettingError | undefined;
  /** The header its credential is in (Access: `Cf-Access-Jwt-Assertion`); default the bearer token of `Authorization` (`credentialHeader`). */
  readonly header?: string;
  /** The credential's caller, undefined when it is invalid, or why the issuer cannot be asked. `lifetime` lets a key fetch outlive the request. */
  verify(
    credential: string,
    auth: C,
    env: WorkerEnv,
    lifetime?: Lifetime,
  ): Caller | IssuerUnreachable | undefined | Promise<Caller | IssuerUnreachable | undefined>;
  /** What else it needs of the deployment (a binding): the Worker refuses every request naming it. */
  problem?(auth: C, env: WorkerEnv): SettingError | undefined;
  /**
   * The request's credential read from its header, checked by `verify` and answered: `authenticate`
   * of `./auth.ts`, which `authMode` (there) gives every mode, so only a Worker that lists a mode
   * carries it.
   */
  authenticate(request: Request, auth: C, env: WorkerEnv, lifetime?: Lifetime): Promise<AuthOutcome>;
  /** What the page at `/` tells a person of it (`ConnectHelp`); without it, that their client is told how when it connects. */
  readonly connect?: ConnectHelp<C>;
}

/**
 * What the page at `/` (`../discovery/homePage.ts`) says of a mode, written by the mode itself so
 * a Worker that lists no mode carries none of it: how a person connects, and the headers a client
 * sends.
 */
export interface ConnectHelp<C extends AuthConfig = AuthConfig> {
  /** A sentence of HTML; `metadataLink` is a link to this server's RFC 9728 metadata, for a mode whose tokens come from an authorization server. */
  signIn(auth: C, metadataLink: string): string;
  /** The headers a client sends, with placeholders, never a value: shown in each way to connect, and in the page's JSON pointer. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The request header the credential of `mode` arrives in: its own (`header`), else `Authorization`
 * (RFC 6750 2.1), also with auth off (a gateway in front may authenticate). The one place that
 * says it: the token check reads the credential there (`./auth.ts`), and every answer that depends
 * on the caller names it in `Vary` (`../transport/responses.ts`), so a cache keys on the credential itself.
 */
export const credentialHeader = (mode: Pick<AuthModeBase, 'header'> | undefined): string =>
  mode?.header ?? 'Authorization';
