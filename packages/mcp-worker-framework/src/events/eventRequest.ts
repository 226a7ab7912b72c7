/**
 * What every events method checks of its request first, in the Worker, before any Durable Object
 * is reached: the event type it names (visible to the caller and its scopes granted, as a tool
 * is: -32011 when it is unknown or hidden, 403 when a scope is missing), and the subscription's
 * arguments (their size as canonical JSON, -32013; then `inputSchema`, -32602).
 */
import {
  bytesOver,
  invalidParams,
  isObject,
  type JsonObject,
  McpError,
  type McpRequest,
  refusalFor,
} from '../mcp/internal.js';
import { notFound, quotaReached } from './eventErrors.js';
import type { EventsConfig } from './eventsConfig.js';
import type { CompiledEventType } from './eventTypes.js';
import { canonicalJson } from './subscriptionKey.js';

export interface EventRequest {
  type: CompiledEventType;
  /** The arguments as sent, and as canonical JSON (the key's part). */
  args: JsonObject;
  canonical: string;
  /** The arguments as the hooks get them (a Standard Schema's output). */
  value: unknown;
}

export async function readEventRequest(
  request: McpRequest,
  config: EventsConfig,
  scopeHierarchy: Parameters<typeof refusalFor>[2],
): Promise<EventRequest | McpError> {
  const params = request.message.params ?? {};
  const { name } = params;
  if (typeof name !== 'string') return invalidParams('params.name must be a string');
  const type = config.types.get(name);
  const refused = type ? refusalFor(type.definition, request.caller, scopeHierarchy) : 'hidden';
  if (refused === 'hidden') return notFound('event', `no event type ${JSON.stringify(name.slice(0, 128))}`);
  if (refused instanceof McpError) return refused;
  const args = params.arguments ?? {};
  if (!isObject(args)) return invalidParams('params.arguments must be an object');
  const canonical = canonicalJson(args);
  if (bytesOver(canonical, config.limits.argumentBytes) !== undefined)
    return quotaReached(
      'argumentBytes',
      config.limits.argumentBytes,
      `the arguments are over ${config.limits.argumentBytes} bytes of JSON`,
    );
  const checked = await type!.readArguments(args);
  if (checked.why !== undefined) return invalidParams(`arguments break the inputSchema of ${name}: ${checked.why}`);
  return { type: type!, args, canonical, value: checked.value };
}
