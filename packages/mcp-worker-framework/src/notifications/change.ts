/**
 * A change, as `notify` takes it and as the hub carries it: a topic, one short text per change
 * (`list:tools`, `resource:<uri>`), which is also the message a hub shard sends a listener, who
 * turns it into the spec's notification (spec 2026-07-28 basic/patterns/subscriptions).
 */
import { fnv1a, type JSONRPCNotification } from '../mcp/internal.js';
import { NOTIFICATION_LIMITS } from './notificationLimits.js';

/** The lists whose changes a client may listen for (`toolsListChanged`, `promptsListChanged`, `resourcesListChanged`). */
export const LIST_KINDS = ['tools', 'prompts', 'resources'] as const;
export type ListKind = (typeof LIST_KINDS)[number];

/** What changed: the contents of one resource, or one list. */
export type Change = { resourceUpdated: string } | { listChanged: ListKind };

/** One change as the hub carries it; also its key when changes are merged. */
type Topic = `list:${ListKind}` | `resource:${string}`;

const RESOURCE = 'resource:';
const LIST = 'list:';

/** The topic of a change `notify` was given, or why it is not one (a bug of the caller's, so a TypeError). */
export function topicOf(change: unknown): Topic | TypeError {
  if (typeof change !== 'object' || change === null) return new TypeError('notify: the change must be an object');
  const { resourceUpdated, listChanged } = change as Record<string, unknown>;
  if ((resourceUpdated === undefined) === (listChanged === undefined))
    return new TypeError('notify: give one of resourceUpdated (a URI) or listChanged (tools, prompts or resources)');
  if (listChanged !== undefined)
    return LIST_KINDS.includes(listChanged as ListKind)
      ? `list:${listChanged as ListKind}`
      : new TypeError(`notify: listChanged must be one of ${LIST_KINDS.join(', ')}`);
  if (typeof resourceUpdated !== 'string' || resourceUpdated === '')
    return new TypeError('notify: resourceUpdated must be a resource URI');
  if (resourceUpdated.length > NOTIFICATION_LIMITS.uriChars)
    return new TypeError(`notify: resourceUpdated is longer than ${NOTIFICATION_LIMITS.uriChars} characters`);
  return `${RESOURCE}${resourceUpdated}`;
}

/** True for a topic `topicOf` makes (what a coordinator takes over RPC is checked as `notify` checks it). */
export const isTopic = (value: unknown): value is Topic =>
  typeof value === 'string' &&
  topicOf(
    value.startsWith(RESOURCE) ? { resourceUpdated: uriOf(value) } : { listChanged: value.slice(LIST.length) },
  ) === value;

/** The URI a topic names, or undefined for a list's. */
export const uriOf = (topic: string): string | undefined =>
  topic.startsWith(RESOURCE) ? topic.slice(RESOURCE.length) : undefined;

/** The short name a shard files a URI's listeners under: a clash costs one message the listener drops. */
export const uriKey = (uri: string): string => fnv1a(uri);

/** The spec's notification for a topic, without the subscription id (the listener adds its own). */
export function notificationOf(topic: string): JSONRPCNotification | undefined {
  const uri = uriOf(topic);
  if (uri !== undefined) return { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } };
  const kind = topic.slice(LIST.length);
  return LIST_KINDS.includes(kind as ListKind)
    ? { jsonrpc: '2.0', method: `notifications/${kind}/list_changed` }
    : undefined;
}
