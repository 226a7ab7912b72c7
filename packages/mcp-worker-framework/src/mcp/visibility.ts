/**
 * Who sees and may use a tool, prompt, resource or template: its `requiredScopes` and its
 * `visibleTo` rule (`CallerRules`, ./define.ts). Lists show a caller only what it can use, so a
 * model does not discover the mismatch by wasting a turn (SEP-1881); a call of what the rule
 * hides is answered as if it did not exist; a call without the scopes gets 403 and the step-up
 * challenge (spec 2026-07-28 basic/authorization, Step-Up Authorization Flow).
 */
import type { Caller } from './caller.js';
import type { CallerRules, ResourceDefinition } from './define.js';
import type { CompiledTemplate } from './resources.js';
import { scopeRequired, type McpError } from './errors.js';
import type { ScopeHierarchy } from './scopes.js';
import type { CachePolicy } from './types.js';

/** True when an item says anything about its callers: only then does a list depend on who asks. */
export const isRestricted = (item: CallerRules): boolean =>
  (item.requiredScopes?.length ?? 0) > 0 || item.visibleTo !== undefined;

const privateTwins = new WeakMap<CachePolicy, CachePolicy>();

/**
 * The caching hints of an answer that depends on who asks (a list or a read of what not every
 * caller may see): private, whatever the definition or the item says, its `ttlMs` kept (spec
 * 2026-07-28 server/utilities/caching: caches MUST NOT be shared across authorization contexts).
 * One object per policy, so the HTTP binding builds its headers once for it.
 */
export function privately(policy: CachePolicy): CachePolicy {
  if (policy.cacheScope === 'private') return policy;
  let twin = privateTwins.get(policy);
  if (twin === undefined) privateTwins.set(policy, (twin = { ...policy, cacheScope: 'private' }));
  return twin;
}

/** What the item's rule says of `caller`; a rule that throws hides the item (fail closed), and the log says why. */
export function visibleTo(item: CallerRules, caller: Caller | undefined): boolean {
  if (item.visibleTo === undefined) return true;
  try {
    return item.visibleTo(caller) === true;
  } catch (error) {
    console.error('a visibleTo rule threw; the item is hidden from this caller', error);
    return false;
  }
}

/** The item's required scopes `caller` lacks (its scopes include the implied ones); an anonymous caller lacks them all. */
const lacked = (item: CallerRules, caller: Caller | undefined): readonly string[] =>
  item.requiredScopes?.length ? item.requiredScopes.filter((scope) => !caller?.scopes.includes(scope)) : [];

/** Whether a list shows the item to `caller`: the rule allows it and the caller has every scope it needs. */
export const listedFor = (item: CallerRules, caller: Caller | undefined): boolean =>
  visibleTo(item, caller) && lacked(item, caller).length === 0;

/**
 * Why `caller` may not use the item: `'hidden'` (answer as not found) or the 403 naming the
 * broadest scopes it lacks; undefined when it may.
 */
export function refusalFor(
  item: CallerRules,
  caller: Caller | undefined,
  hierarchy: ScopeHierarchy,
): 'hidden' | McpError | undefined {
  return visibleTo(item, caller) ? scopeRefusal(item, caller, hierarchy) : 'hidden';
}

/**
 * The 403 naming the broadest of the item's scopes `caller` lacks, for an item it sees; undefined
 * when it has them. With auth off (no caller) scopes are not enforced: there is no token to step up.
 */
export function scopeRefusal(
  item: CallerRules,
  caller: Caller | undefined,
  hierarchy: ScopeHierarchy,
): McpError | undefined {
  if (caller === undefined) return undefined;
  const missing = lacked(item, caller);
  return missing.length > 0 ? scopeRequired(hierarchy.broadest(missing)) : undefined;
}

/**
 * The resource a `resources/read` names: a fixed one, or a template with the variables its URI
 * filled in; `byCaller` when another caller could be answered otherwise for the same URI (its own
 * rules, or an item its rule hid from this caller that another caller would be answered with).
 */
export type NamedResource = { readonly uri: string; readonly byCaller: boolean } & (
  | { readonly fixed: ResourceDefinition; readonly template?: undefined }
  | { readonly fixed?: undefined; readonly template: CompiledTemplate; readonly variables: Record<string, string> }
);

/**
 * The resource `uri` names for `caller`: the fixed one, else the first template whose pattern
 * matches, each only when its `visibleTo` rule shows it to the caller (its scopes are the
 * caller's to check). Also what a subscription to `uri` is decided by (src/notifications).
 */
export function namedResource(
  server: { resources: ReadonlyMap<string, ResourceDefinition>; templates: readonly CompiledTemplate[] },
  uri: string,
  caller: Caller | undefined,
): NamedResource | undefined {
  const fixed = server.resources.get(uri);
  if (fixed && visibleTo(fixed, caller)) return { uri, fixed, byCaller: isRestricted(fixed) };
  // Past the fixed resource hidden from this caller, or a template hidden from it that matches.
  let passed = fixed !== undefined;
  for (const template of server.templates) {
    const variables = template.match(uri);
    if (!variables) continue;
    if (!visibleTo(template.definition, caller)) passed = true;
    else return { uri, template, variables, byCaller: passed || isRestricted(template.definition) };
  }
  return undefined;
}
