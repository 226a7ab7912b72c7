/**
 * Scope hierarchies (spec 2026-07-28 basic/authorization, Step-Up Authorization Flow: "Servers
 * MUST account for scope hierarchies, where a broader scope implies narrower ones, when deciding
 * whether a token is sufficient for an operation"). A server declares them once, as data:
 *
 *   scopeHierarchy: { repo: ['repo:read', 'repo:write'], admin: ['repo'] }
 *
 * compiled here at load, transitively (`admin` implies `repo`, so `repo:read` too). The token's
 * scopes are widened once, when the caller is admitted, so every scope check after it (a tool's
 * `requiredScopes`, a handler's own look at `scopes`) sees what they imply.
 */

/** Each broader scope, and the narrower scopes it implies. */
export type ScopeHierarchyDefinition = Readonly<Record<string, readonly string[]>>;

export interface ScopeHierarchy {
  /** The token's scopes, then every scope they imply; the same array when they imply nothing more. */
  grants(scopes: readonly string[]): readonly string[];
  /** `scopes` without the ones another of them implies: a challenge asks for each need once (RFC 6750 3.1). */
  broadest(scopes: readonly string[]): readonly string[];
}

/** RFC 6749 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Scopes read from a credential: at most this many, each at most MAX_SCOPE_CHARS. */
const MAX_SCOPES = 100;
const MAX_SCOPE_CHARS = 200;

/**
 * The scopes of a credential's claim or answer, as every auth mode reads them: a list of strings or
 * one space-separated string (RFC 6749 3.3); a value that is no scope token (a tab, a quote, too
 * long) is left out, never kept whole.
 */
export function scopeTokens(value: unknown): readonly string[] {
  const values = typeof value === 'string' ? value.split(' ') : Array.isArray(value) ? value : [];
  return values
    .filter((one): one is string => typeof one === 'string' && one.length <= MAX_SCOPE_CHARS && SCOPE_TOKEN.test(one))
    .slice(0, MAX_SCOPES);
}

const FLAT: ScopeHierarchy = { grants: (scopes) => scopes, broadest: (scopes) => scopes };

/** Compiles a server's `scopeHierarchy`; a malformed one is the author's bug, reported at module load. */
export function compileScopeHierarchy(definition: ScopeHierarchyDefinition | undefined): ScopeHierarchy {
  if (definition === undefined || Object.keys(definition).length === 0) return FLAT;
  for (const [broad, narrower] of Object.entries(definition)) {
    if (!Array.isArray(narrower)) throw new Error(`scopeHierarchy["${broad}"] must be a list of the scopes it implies`);
    for (const scope of [broad, ...narrower]) {
      if (typeof scope !== 'string' || !SCOPE_TOKEN.test(scope)) {
        throw new Error(
          `scopeHierarchy: ${JSON.stringify(scope)} is not a scope (RFC 6749 3.3: printable ASCII, no space, quote or backslash)`,
        );
      }
    }
  }
  const implied = new Map<string, ReadonlySet<string>>();
  for (const broad of Object.keys(definition)) {
    const found = new Set<string>();
    const visit = (scope: string) => {
      for (const narrower of definition[scope] ?? []) {
        if (found.has(narrower)) continue;
        found.add(narrower);
        visit(narrower);
      }
    };
    visit(broad);
    found.delete(broad);
    implied.set(broad, found);
  }
  const implies = (broad: string, narrow: string) => implied.get(broad)?.has(narrow) === true;
  return {
    grants(scopes) {
      if (!scopes.some((scope) => implied.has(scope))) return scopes;
      const all = new Set(scopes);
      for (const scope of scopes) for (const narrower of implied.get(scope) ?? []) all.add(narrower);
      return [...all];
    },
    // Two scopes that imply each other are equivalent: both stay, rather than neither.
    broadest: (scopes) =>
      scopes.filter((scope) => !scopes.some((other) => implies(other, scope) && !implies(scope, other))),
  };
}
