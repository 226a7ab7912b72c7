/**
 * `events/list` (spec extensions/events, Listing Available Events): the event types a caller may
 * use, paged and serialized once per isolate as the core's own lists are (src/mcp/methods/list.ts,
 * with the caching hints of `tools/list`), each with its `delivery` modes: those the Worker serves
 * for this caller. Webhook delivery needs an authenticated principal, so an anonymous caller is
 * offered poll and push; a type a caller may not use is left out (`visibleTo`, `requiredScopes`).
 */
import { list, type Method, type ServerAtLoad } from '../mcp/internal.js';
import type { EventsConfig } from './eventsConfig.js';
import type { DeliveryMode } from './eventTypes.js';

/** The modes served to an anonymous caller, and to an authenticated one. */
const ANONYMOUS_MODES: readonly DeliveryMode[] = ['poll', 'push'];
const PRINCIPAL_MODES: readonly DeliveryMode[] = ['poll', 'push', 'webhook'];

export function eventsList(server: ServerAtLoad, config: EventsConfig): Method {
  const listFor = (modes: readonly DeliveryMode[]) =>
    list(
      server,
      'tools/list',
      'events',
      [...config.types.values()].map((type) => ({ rules: type.definition, listed: type.listed(modes) })),
      'events/list',
    );
  const anonymous = listFor(ANONYMOUS_MODES);
  const principal = listFor(PRINCIPAL_MODES);
  return (request) => (request.caller ? principal(request) : anonymous(request));
}
