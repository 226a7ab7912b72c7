/**
 * What of a `subscriptions/listen` filter this server honours for the caller (spec 2026-07-28
 * basic/patterns/subscriptions, Notification Filter and Acknowledgment): the list changes of the
 * kinds of item it serves, and each resource URI the caller may read (`resources/read` would
 * admit it: the fixed resource or the first template that matches, as its `visibleTo` shows it,
 * with its `requiredScopes` granted). The rule of each URI is kept: it is asked again before
 * every notification (./forwardChanges.ts), for a rule that reads something that changes.
 */
import {
  type Caller,
  type CallerRules,
  invalidParams,
  isObject,
  type JsonObject,
  type McpError,
  namedResource,
  refusalFor,
  type ServerAtLoad,
} from '../mcp/internal.js';
import { LIST_KINDS, type ListKind } from './change.js';
import { NOTIFICATION_LIMITS } from './notificationLimits.js';

export interface HonouredFilter {
  lists: ListKind[];
  /** Each URI honoured, with the rule that lets the caller read it. */
  resources: Map<string, CallerRules>;
}

/** The filter's fields, by list kind (spec SubscriptionFilter). */
const FLAG: Record<ListKind, string> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};

/** The honoured subset of `params.notifications` for `caller`, or -32602 for URIs past the limits. */
export function honouredFilter(
  params: JsonObject | undefined,
  server: ServerAtLoad,
  caller: Caller | undefined,
): HonouredFilter | McpError {
  const filter = isObject(params?.notifications) ? params.notifications : {};
  const uris = filter.resourceSubscriptions ?? [];
  if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string'))
    return invalidParams('params.notifications.resourceSubscriptions must be an array of strings');
  if (uris.length > NOTIFICATION_LIMITS.urisPerStream)
    return invalidParams(
      `params.notifications.resourceSubscriptions lists more than ${NOTIFICATION_LIMITS.urisPerStream} URIs`,
    );
  if (uris.some((uri) => uri.length > NOTIFICATION_LIMITS.uriChars))
    return invalidParams(
      `params.notifications.resourceSubscriptions has a URI longer than ${NOTIFICATION_LIMITS.uriChars} characters`,
    );
  const lists = LIST_KINDS.filter((kind) => filter[FLAG[kind]] === true && server.capabilities[kind] !== undefined);
  const resources = new Map<string, CallerRules>();
  for (const uri of uris) {
    const named = namedResource(server, uri, caller);
    const rules = named?.fixed ?? named?.template.definition;
    if (rules && refusalFor(rules, caller, server.scopeHierarchy) === undefined) resources.set(uri, rules);
  }
  return { lists, resources };
}

/** The acknowledgement's `notifications`: exactly what is honoured, the rest omitted. */
export function acknowledged({ lists, resources }: HonouredFilter): JsonObject {
  const honoured: JsonObject = Object.fromEntries(lists.map((kind) => [FLAG[kind], true]));
  if (resources.size > 0) honoured.resourceSubscriptions = [...resources.keys()];
  return honoured;
}
