/**
 * Multi round-trip requests (spec 2026-07-28 basic/patterns/mrtr): instead of calling the
 * client, a handler returns `inputRequired({...})`; the client answers and retries the
 * same request with `inputResponses` (and the `requestState` it was given).
 */
import { invalidParams, type McpError, missingCapability } from './errors.js';
import { isObject } from './json.js';
import { type ClientFeature, declares } from './meta.js';
import type { ClientCapabilities, JsonObject, JSONSchema, JsonValue } from './types.js';

export type InputRequest =
  | { method: 'elicitation/create'; params: { mode?: 'form'; message: string; requestedSchema: JSONSchema } }
  | { method: 'elicitation/create'; params: { mode: 'url'; message: string; url: string } }
  | { method: 'sampling/createMessage'; params: { messages: unknown[]; maxTokens: number; [key: string]: unknown } }
  | { method: 'roots/list'; params?: JsonObject };

/** Limits that keep a retry loop bounded (documented in docs/reliability.md). */
const MAX_INPUT_REQUESTS = 16;

/** A handler's answer when it needs the client's input before it can finish. */
export class InputRequired {
  constructor(
    readonly inputRequests: Readonly<Record<string, InputRequest>>,
    /** Carried to the retry sealed in `requestState`; undefined sends none. */
    readonly state?: JsonValue,
  ) {}
}

export const inputRequired = (requests: Record<string, InputRequest>, state?: JsonValue) =>
  new InputRequired(requests, state);

/** Asks the user for values through a form (`elicitation/create`). */
export const elicit = (message: string, requestedSchema: JSONSchema): InputRequest => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema },
});

/**
 * Sends the user to a page (`elicitation/create` in URL mode): for what must not pass through
 * the client, such as credentials (spec 2026-07-28 client/elicitation, URL Mode).
 */
export const elicitUrl = (message: string, url: string): InputRequest => ({
  method: 'elicitation/create',
  params: { mode: 'url', message, url },
});

/** Asks the client's model for a completion (`sampling/createMessage`). */
export const sample = (prompt: string, maxTokens: number, extra: JsonObject = {}): InputRequest => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens, ...extra },
});

/** Asks the client for its roots (`roots/list`). */
export const listRoots = (): InputRequest => ({ method: 'roots/list', params: {} });

/** The form content of an accepted elicitation answer, or undefined (declined, cancelled, absent). */
export function accepted(response: JsonObject | undefined): JsonObject | undefined {
  return response?.action === 'accept' && isObject(response.content) ? response.content : undefined;
}

/** The text of a sampling answer, or undefined. */
export function sampledText(response: JsonObject | undefined): string | undefined {
  const content = response?.content;
  return isObject(content) && content.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
}

/**
 * What the client must have declared to be sent this input request (spec 2026-07-28
 * basic/patterns/mrtr: never an undeclared one; client/elicitation: never a mode the client
 * lacks; client/sampling: tool use only with `sampling.tools`, context only with `sampling.context`).
 */
function needs(request: InputRequest): ClientFeature[] {
  switch (request.method) {
    case 'elicitation/create':
      return [request.params.mode === 'url' ? 'elicitation.url' : 'elicitation.form'];
    case 'sampling/createMessage': {
      const { tools, toolChoice, includeContext } = request.params;
      return [
        'sampling',
        ...(tools !== undefined || toolChoice !== undefined ? (['sampling.tools'] as const) : []),
        ...(includeContext !== undefined && includeContext !== 'none' ? (['sampling.context'] as const) : []),
      ];
    }
    case 'roots/list':
      return ['roots'];
  }
}

/** -32021 if the handler asks for input the client cannot give, -32602 past the limit; else undefined. */
export function checkInputRequests(required: InputRequired, capabilities: ClientCapabilities): McpError | undefined {
  const requests = Object.values(required.inputRequests);
  if (requests.length > MAX_INPUT_REQUESTS)
    return invalidParams(`a handler asked for more than ${MAX_INPUT_REQUESTS} inputs`);
  const missing = [...new Set(requests.flatMap(needs))].filter((feature) => !declares(capabilities, feature));
  return missing.length > 0 ? missingCapability(missing) : undefined;
}

/** `params.inputResponses`: absent, or an object whose every answer is an object (else -32602). */
export function readInputResponses(params: JsonObject): Record<string, JsonObject> | McpError {
  const responses = params.inputResponses;
  if (responses === undefined) return {};
  if (!isObject(responses)) return invalidParams('params.inputResponses must be an object');
  for (const [key, value] of Object.entries(responses)) {
    if (!isObject(value)) return invalidParams(`params.inputResponses["${key}"] must be an object`);
  }
  return responses as Record<string, JsonObject>;
}
