/**
 * What a listen stream asks a hub shard for, carried by its WebSocket upgrade request: the lists
 * it listens to and its URIs' keys (`uriKey`), so the shard files the socket in one step.
 */
import { LIST_KINDS, type ListKind } from './change.js';
import { NOTIFICATION_LIMITS } from './notificationLimits.js';

export interface HubListener {
  lists: readonly ListKind[];
  /** The keys of the resource URIs it listens to. */
  keys: readonly string[];
}

const KEY = /^[0-9a-f]{8}$/;

/** The upgrade request's URL (the host is never resolved: a Durable Object stub takes any). */
export const listenerUrl = ({ lists, keys }: HubListener): string =>
  `https://hub.invalid/listen?lists=${lists.join(',')}&keys=${keys.join(',')}`;

/** What an upgrade request asks for, or why it is refused (it comes from this Worker's code; checked all the same). */
export function readListener(url: URL): HubListener | string {
  const lists = (url.searchParams.get('lists') ?? '').split(',').filter((kind) => kind !== '');
  const keys = (url.searchParams.get('keys') ?? '').split(',').filter((key) => key !== '');
  if (!lists.every((kind) => LIST_KINDS.includes(kind as ListKind))) return 'lists must name tools, prompts, resources';
  if (keys.length > NOTIFICATION_LIMITS.urisPerStream || !keys.every((key) => KEY.test(key)))
    return `keys must be at most ${NOTIFICATION_LIMITS.urisPerStream} keys of 8 hex digits`;
  if (lists.length === 0 && keys.length === 0) return 'a listener must listen to something';
  return { lists: [...new Set(lists as ListKind[])], keys: [...new Set(keys)] };
}
