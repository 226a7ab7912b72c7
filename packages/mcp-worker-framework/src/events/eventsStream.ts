/**
 * `events/stream` (spec extensions/events, Push-Based Delivery): one subscription per request,
 * answered as an SSE stream of `notifications/events/*`, each tagged with the request's id:
 * `active` first (the cursor it starts from, `truncated`), then each `event` as this caller gets
 * it, a `heartbeat` with the cursor while quiet, `terminated` when the caller may no longer see the
 * type; the empty result ends it when the server does (after `streamMaxMs`, or when the type's
 * object goes away: the client reconnects with its cursor). Events come from the type's object,
 * whichever isolate emitted them. What the stream holds unread is bounded in bytes, as every
 * stream's is (`MAX_UNREAD_BYTES`, src/http/transport/stream.ts): a client that cannot keep up is ended,
 * and resumes from its cursor.
 */
import {
  internalError,
  invalidParams,
  McpError,
  type McpRequest,
  MetaKey,
  type Method,
  refusalFor,
  type Reply,
  type ServerAtLoad,
  streamIdTooLong,
} from '../mcp/internal.js';
import type { EventOccurrence } from './defineEventType.js';
import { ACCESS_REVOKED, rateReached } from './eventErrors.js';
import { type EventRequest, readEventRequest } from './eventRequest.js';
import { type EventsConfig, ringCursor } from './eventsConfig.js';
import { type EventsApi, eventsNamespace, objectNamed, type RingEvent, typeObjectName } from './eventsNamespace.js';
import { ringStart, readShaped, shapeBatch } from './ringReader.js';
import { runCheck } from './runCheck.js';
import { waitForEvents } from './ringWaiter.js';

/** Event streams open in this isolate: each holds a connection, a socket and two timers. */
let open = 0;
/** When a client refused a stream may try again (`Retry-After`): by then some stream has likely ended. */
const RETRY_STREAM_SECONDS = 5;

export function eventsStream(server: ServerAtLoad, config: EventsConfig): Method {
  const { limits } = config;
  return async (request) => {
    // Every message of the stream echoes the request's id: a long one is refused, as for listen.
    const tooLong = streamIdTooLong(request.message);
    if (tooLong) return { error: tooLong };
    const read = await readEventRequest(request, config, server.scopeHierarchy);
    if (read instanceof McpError) return { error: read };
    const { cursor, maxAgeMs } = request.message.params ?? {};
    if (maxAgeMs !== undefined && !(Number.isSafeInteger(maxAgeMs) && (maxAgeMs as number) >= 0))
      return { error: invalidParams('params.maxAgeMs must be a whole number') };
    if (open >= limits.streamsPerIsolate)
      return {
        // A rate, not a quota: a stream ends within `streamMaxMs` and frees its place (./eventErrors.ts).
        error: rateReached(
          'streams',
          limits.streamsPerIsolate,
          'this server holds as many event streams as it may; retry later',
          RETRY_STREAM_SECONDS,
        ),
      };
    const namespace = eventsNamespace(request.env, config.binding);
    if (!namespace) {
      console.error(`events need the Durable Object binding ${config.binding} (docs/events.md)`);
      return { error: internalError() };
    }
    open++;
    try {
      return await new EventsStream(
        request,
        read,
        objectNamed(namespace, typeObjectName(read.type.definition.name)),
        config,
        server,
      ).run(cursor, maxAgeMs as number | undefined);
    } finally {
      open--;
    }
  };
}

/** One open stream: what it has sent, where it is, and how it ends. */
class EventsStream {
  private readonly tag: Record<string, unknown>;
  private readonly context;
  private cursor: string | null = null;
  private finish!: (reply: Reply) => void;
  private ended = false;
  private checkWaiting = false;
  /** Events are handled one at a time, in the order the type's object sent them. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly request: McpRequest,
    private readonly read: EventRequest,
    private readonly typeObject: EventsApi,
    private readonly config: EventsConfig,
    private readonly server: ServerAtLoad,
  ) {
    this.tag = { [MetaKey.subscriptionId]: request.message.id };
    this.context = { env: request.env, ...(request.caller ? { caller: request.caller } : {}) };
  }

  async run(cursor: unknown, maxAgeMs: number | undefined): Promise<Reply> {
    const { limits } = this.config;
    const done = new Promise<Reply>((resolve) => (this.finish = resolve));
    const check = this.read.type.definition.check !== undefined;
    let after = 0;
    let epoch = '';
    // Listening before the ring is read: an event kept meanwhile is heard, and told apart by its place.
    const waiter = await waitForEvents(
      this.typeObject,
      (event) =>
        check
          ? this.checkSoon()
          : this.enqueue(() =>
              this.live(
                event,
                epoch,
                () => after,
                (seq) => (after = seq),
                maxAgeMs,
              ),
            ),
      () => this.end(),
    ).catch((error: unknown) => error as Error);
    if (waiter instanceof Error) {
      console.error('events/stream: the event type object could not be reached', waiter);
      return { error: internalError() };
    }
    const timers = [
      setTimeout(() => this.end(), limits.streamMaxMs),
      setInterval(() => this.heartbeat(), limits.heartbeatMs),
    ];
    const stop = () => this.end();
    this.request.signal.addEventListener('abort', stop, { once: true });
    try {
      if (check) {
        if (cursor !== undefined && cursor !== null && !(typeof cursor === 'string' && cursor.length <= limits.idChars))
          return {
            error: invalidParams(`params.cursor must be a string of at most ${limits.idChars} characters, or null`),
          };
        this.cursor = (cursor as string | null | undefined) ?? null;
        const first = await runCheck(this.read.type, this.cursor, this.read.value, this.context);
        if (first instanceof McpError) return { error: first };
        this.send('notifications/events/active', {
          cursor: first.events.length > 0 ? this.cursor : first.cursor,
          truncated: false,
        });
        this.deliver(first.events, first.cursor);
        timers.push(setInterval(() => this.checkSoon(), limits.checkEveryMs));
      } else {
        const start = await ringStart(this.typeObject, cursor);
        if (start instanceof McpError) return { error: start };
        ({ epoch, after } = start);
        this.cursor = ringCursor(epoch, after);
        this.send('notifications/events/active', { cursor: this.cursor, truncated: start.truncated });
        // Replay after the client's cursor, a page at a time, before what the waiter heard meanwhile.
        this.enqueue(async () => {
          for (;;) {
            const batch = await readShaped(
              this.typeObject,
              this.read.type,
              this.read.value,
              this.context,
              after,
              limits.maxPollEvents,
              maxAgeMs,
            );
            after = batch.after;
            for (const { seq, ...event } of batch.events) this.deliver([event], ringCursor(epoch, seq));
            this.cursor = ringCursor(epoch, after);
            if (!batch.hasMore || this.ended) return;
          }
        });
      }
      return await done;
    } finally {
      this.ended = true;
      for (const timer of timers) clearTimeout(timer);
      this.request.signal.removeEventListener('abort', stop);
      waiter.close();
    }
  }

  /** An event the waiter heard: sent when it is the next, else the ring is read from where the stream is. */
  private async live(
    event: RingEvent,
    epoch: string,
    after: () => number,
    moveTo: (seq: number) => void,
    maxAgeMs: number | undefined,
  ): Promise<void> {
    if (event.seq <= after()) return;
    const batch =
      event.seq === after() + 1
        ? await shapeBatch(this.read.type, this.read.value, this.context, [event], after(), maxAgeMs)
        : await readShaped(
            this.typeObject,
            this.read.type,
            this.read.value,
            this.context,
            after(),
            this.config.limits.maxPollEvents,
            maxAgeMs,
          );
    moveTo(batch.after);
    for (const { seq, ...shaped } of batch.events) this.deliver([shaped], ringCursor(epoch, seq));
    this.cursor = ringCursor(epoch, batch.after);
  }

  /**
   * A type with `check`: asked again every `checkEveryMs`, and at once when the type is emitted
   * (its upstream's webhook). One check waits in the queue at most: the others would find the same.
   */
  private checkSoon(): void {
    if (this.checkWaiting || this.ended) return;
    this.checkWaiting = true;
    this.enqueue(() => {
      this.checkWaiting = false;
      return this.checkAgain();
    });
  }

  private async checkAgain(): Promise<void> {
    const batch = await runCheck(this.read.type, this.cursor, this.read.value, this.context);
    // spec: a transient error; the stream stays open and the next check tries again.
    if (batch instanceof McpError)
      this.send('notifications/events/error', { error: { code: batch.code, message: 'UpstreamError' } });
    else this.deliver(batch.events, batch.cursor);
  }

  /**
   * Sends events, unless the caller may no longer see the type: then `terminated`. The last of a
   * batch carries the cursor after it; those before carry the cursor before the batch (a `check`
   * gives one position for its whole batch), so a client whose stream ends mid-batch resumes
   * with nothing skipped (spec extensions/events, Cursor Advancement; duplicates collapse by eventId).
   */
  private deliver(events: readonly EventOccurrence[], cursor: string | null): void {
    if (events.length > 0 && this.revoked()) return;
    const last = events.length - 1;
    for (let i = 0; i <= last; i++)
      this.send('notifications/events/event', { ...events[i], cursor: i === last ? cursor : this.cursor });
    this.cursor = cursor;
  }

  /** The heartbeat (spec: at least every 30 s, with the cursor), once the caller's access is checked again. */
  private heartbeat(): void {
    if (!this.revoked()) this.send('notifications/events/heartbeat', { cursor: this.cursor });
  }

  /**
   * spec extensions/events, Authorization: delivery-time re-verification. A caller that may no
   * longer see the type (`visibleTo`, `requiredScopes`) is told its subscription ended, and the
   * stream ends.
   */
  private revoked(): boolean {
    if (refusalFor(this.read.type.definition, this.request.caller, this.server.scopeHierarchy) === undefined)
      return false;
    this.send('notifications/events/terminated', {
      error: ACCESS_REVOKED,
    });
    this.end();
    return true;
  }

  private send(method: string, params: Record<string, unknown>): void {
    if (this.ended) return;
    const notification = { jsonrpc: '2.0' as const, method, params: { ...params, _meta: this.tag } };
    // The transport holds at most `MAX_UNREAD_BYTES` the client has not read (src/http/transport/stream.ts)
    // and drops what comes past it: the stream then ends, and the client resumes from its cursor.
    if (this.request.notify(notification) === false) this.end();
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error: unknown) => {
      console.error('events/stream: an event could not be forwarded; the stream ends', error);
      this.end();
    });
  }

  /** The server ends the stream: the empty result (spec: StreamEventsResult), once. */
  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.finish({ result: { _meta: {} } });
  }
}
