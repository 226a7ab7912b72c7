/**
 * Who sees and may use a tool, prompt, resource or template: its `requiredScopes` and its
 * `visibleTo` rule (`CallerRules`, ./define.ts). Lists show a caller only what it can use, so a
 * model does not discover the mismatch by wasting a turn (SEP-1881); a call of what the rule
 * hides is answered as if it did not exist; a call without the scopes gets 403 and the step-up
 * challenge (spec 2026-07-28 basic/authorization, Step-Up Authorization Flow).
 */
import type { Caller } from './caller';
import type { CallerRules, ResourceDefinition } from './define';
import type { CompiledTemplate } from './resources';
import { scopeRequired, type McpError } from './errors';
import type { ScopeHierarchy } from './scopes';

/** True when an item says anything about its callers: only then does a list depend on who asks. */
export const isRestricted = (item: CallerRules): boolean =>
  (item.requiredScopes?.length ?? 0) > 0 || item.visibleTo !== undefined;

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

/** The resource a `resources/read` names: a fixed one, or a template with the variables its URI filled in. */
export type NamedResource =
  | { readonly uri: string; readonly fixed: ResourceDefinition; readonly template?: undefined }
  | {
      readonly uri: string;
      readonly fixed?: undefined;
      readonly template: CompiledTemplate;
      readonly variables: Record<string, string>;
    };

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
  const named = server.resources.get(uri);
  if (named && visibleTo(named, caller)) return { uri, fixed: named };
  for (const template of server.templates) {
    const variables = visibleTo(template.definition, caller) ? template.match(uri) : undefined;
    if (variables) return { uri, template, variables };
  }
  return undefined;
}
