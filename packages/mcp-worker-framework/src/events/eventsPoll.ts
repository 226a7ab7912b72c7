/**
 * `events/poll` (spec extensions/events, Poll-Based Delivery): stateless, one subscription per
 * request, a long poll. An event type with `check` is asked for what follows the client's cursor
 * (its upstream's own cursor), again on each `emit` of the type and every `checkEveryMs`, until it
 * finds events or `timeoutMs` is over; an emit-only type is read from its ring, waiting on the
 * type's object for the next event. Events come only in the result, never as notifications.
 */
import { internalError, invalidParams, McpError, type Method, type ServerAtLoad } from '../mcp/internal.js';
import type { EventOccurrence } from './defineEventType.js';
import { readEventRequest } from './eventRequest.js';
import { type EventsConfig, ringCursor } from './eventsConfig.js';
import { eventsNamespace, objectNamed, typeObjectName } from './eventsNamespace.js';
import { type CheckedBatch, runCheck } from './runCheck.js';
import { readShaped, ringStart } from './ringReader.js';
import { waitForEvents } from './ringWaiter.js';

export function eventsPoll(server: ServerAtLoad, config: EventsConfig): Method {
  const { limits } = config;
  return async (request) => {
    const read = await readEventRequest(request, config, server.scopeHierarchy);
    if (read instanceof McpError) return { error: read };
    const params = request.message.params ?? {};
    const { cursor, maxEvents, timeoutMs, maxAgeMs } = params;
    for (const [name, value] of Object.entries({ maxEvents, timeoutMs, maxAgeMs }))
      if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0))
        return { error: invalidParams(`params.${name} must be a whole number`) };
    const limit = Math.max(
      1,
      Math.min((maxEvents as number | undefined) ?? limits.maxPollEvents, limits.maxPollEvents),
    );
    const deadline = Date.now() + Math.min((timeoutMs as number | undefined) ?? 0, limits.maxPollTimeoutMs);
    const namespace = eventsNamespace(request.env, config.binding);
    if (!namespace) {
      console.error(`events need the Durable Object binding ${config.binding} (docs/events.md)`);
      return { error: internalError() };
    }
    const typeObject = objectNamed(namespace, typeObjectName(read.type.definition.name));
    const context = { env: request.env, ...(request.caller ? { caller: request.caller } : {}) };
    // Woken by the next event of the type (or its `emit`, for a type with `check`), from any isolate.
    let wake: (() => void) | undefined;
    const waiter =
      deadline > Date.now()
        ? await waitForEvents(
            typeObject,
            () => wake?.(),
            () => wake?.(),
          ).catch(() => undefined)
        : undefined;
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, ms));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        request.signal.addEventListener('abort', wake, { once: true });
      });
    try {
      if (read.type.definition.check) {
        if (cursor !== undefined && cursor !== null && !(typeof cursor === 'string' && cursor.length <= limits.idChars))
          return {
            error: invalidParams(`params.cursor must be a string of at most ${limits.idChars} characters, or null`),
          };
        let at = (cursor as string | null | undefined) ?? null;
        for (;;) {
          const batch: CheckedBatch | McpError = await runCheck(read.type, at, read.value, context);
          if (batch instanceof McpError) return { error: batch };
          if (batch.events.length > 0 || at === null || Date.now() >= deadline || request.signal.aborted)
            return { result: answer(batch.events, batch.cursor, false, false) };
          at = batch.cursor;
          await pause(Math.min(limits.checkEveryMs, deadline - Date.now()));
        }
      }
      const start = await ringStart(typeObject, cursor);
      if (start instanceof McpError) return { error: start };
      let { after, truncated } = start;
      if (cursor === undefined || cursor === null)
        return { result: answer([], ringCursor(start.epoch, after), false, false) };
      for (;;) {
        const batch = await readShaped(
          typeObject,
          read.type,
          read.value,
          context,
          after,
          limit,
          maxAgeMs as number | undefined,
        );
        after = batch.after;
        truncated ||= batch.skipped;
        if (batch.events.length > 0 || batch.hasMore || Date.now() >= deadline || request.signal.aborted)
          return {
            result: answer(
              batch.events.map(({ seq: _, ...event }) => event),
              ringCursor(start.epoch, after),
              truncated,
              batch.hasMore,
            ),
          };
        await pause(deadline - Date.now());
      }
    } finally {
      waiter?.close();
    }
  };

  function answer(events: EventOccurrence[], cursor: string | null, truncated: boolean, hasMore: boolean) {
    return { events, cursor, truncated, hasMore, nextPollMs: limits.nextPollMs };
  }
}
