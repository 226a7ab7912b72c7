/**
 * An event type, as a fork writes it: a value in its own file, like a tool (spec extensions/events,
 * Listing Available Events). Its subscription `arguments` are typed from `inputSchema` and its
 * events' `data` from `payloadSchema`, each a JSON Schema literal or a Standard Schema (zod,
 * valibot, ArkType), as a tool's are (src/mcp/toolSchema.ts). The hooks are the design sketch's
 * (Server SDK Guidance): `match` and `transform` shape an emitted event per subscription;
 * `check` reads an upstream that has a history, for `events/poll` and the start of a stream.
 */
import type {
  ArgumentsOf,
  Caller,
  CallerRules,
  InputSchema,
  JsonObject,
  OutputSchema,
  StructuredOf,
  WorkerEnv,
} from '../mcp/internal.js';

/** What a hook may use: the Worker's bindings, and the subscriber (absent for an anonymous poll or stream). */
export interface EventContext {
  env: WorkerEnv;
  /** The principal the subscription belongs to: for a webhook, as it was when it subscribed. */
  caller?: Caller;
}

/** One occurrence of an event (the sketch's `EventOccurrence`, less the cursor the server adds). */
export interface EventOccurrence<Data = JsonObject> {
  eventId: string;
  name: string;
  /** ISO 8601, when it happened. */
  timestamp: string;
  data: Data;
}

/** What `check` finds after `cursor`: the events, and the position after them (`null`: no replay). */
export interface CheckResult<Data = JsonObject> {
  events: { data: Data; eventId?: string; timestamp?: string }[];
  cursor: string | null;
}

type Awaitable<T> = T | Promise<T>;

export interface EventTypeDefinition<In extends InputSchema = InputSchema, Payload extends OutputSchema = OutputSchema>
  extends CallerRules {
  /** Its name, e.g. `incident.created`: letters, digits and `._-/`, at most 128. */
  name: string;
  title?: string;
  description: string;
  /** The subscription's arguments (filters, options), as a tool's `inputSchema`: an object schema. */
  inputSchema: In;
  /** The `data` of its events. Events are untrusted data to the agent: keep them small (the sketch, Payload Minimality). */
  payloadSchema: Payload;
  _meta?: JsonObject;
  /**
   * Whether a subscription with these arguments receives an emitted event (default: every one).
   * Runs once per subscription per event, where the subscription is held; one that throws skips it.
   */
  match?(
    event: EventOccurrence<StructuredOf<NoInfer<Payload>>>,
    args: ArgumentsOf<NoInfer<In>>,
    context: EventContext,
  ): boolean;
  /** The event as this subscription gets it (redact a field its arguments ask to hide); checked against `payloadSchema` again. */
  transform?(
    event: EventOccurrence<StructuredOf<NoInfer<Payload>>>,
    args: ArgumentsOf<NoInfer<In>>,
    context: EventContext,
  ): EventOccurrence<StructuredOf<NoInfer<Payload>>>;
  /**
   * The events after `cursor` in an upstream with a history (`null`: start from now: return no
   * events and the current position). Backs `events/poll` and the start of `events/stream`; an
   * event type without it is served from the events `emit` sends (a ring of the latest).
   */
  check?(
    cursor: string | null,
    args: ArgumentsOf<NoInfer<In>>,
    context: EventContext,
  ): Awaitable<CheckResult<StructuredOf<NoInfer<Payload>>>>;
}

/** An event type whatever its schemas (hooks are checked where they are defined). */
export interface AnyEventType extends CallerRules {
  name: string;
  title?: string;
  description: string;
  inputSchema: InputSchema;
  payloadSchema: OutputSchema;
  _meta?: JsonObject;
  match?(event: EventOccurrence<never>, args: never, context: EventContext): boolean;
  transform?(event: EventOccurrence<never>, args: never, context: EventContext): EventOccurrence<unknown>;
  check?(cursor: string | null, args: never, context: EventContext): Awaitable<CheckResult<unknown>>;
}

/** Defines an event type: `args` and `data` are typed from its schemas (`const`: literals keep their types). */
export const defineEventType = <const In extends InputSchema, const Payload extends OutputSchema>(
  type: EventTypeDefinition<In, Payload>,
): EventTypeDefinition<NoInfer<In>, NoInfer<Payload>> => type;
