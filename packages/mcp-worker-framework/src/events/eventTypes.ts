/**
 * Event types compiled once per isolate, as tools are (src/mcp/tools.ts): their JSON Schemas for
 * `events/list` (a Standard Schema's made once, at load), and the checks of a subscription's
 * arguments and of an event's `data`, each built on first use. An author's mistake (a name twice,
 * a name that is not one, an `inputSchema` that is not an object schema) fails at load.
 */
import { compileSchema, jsonSchemaOf, standardOf, validateStandard } from '../mcp/index.js';
import { isObject, type JsonObject, type JSONSchema, type OutputSchema } from '../mcp/internal.js';
import type { AnyEventType } from './defineEventType.js';

/** The delivery modes of the sketch (spec extensions/events, Subscribing and Event Delivery). */
export type DeliveryMode = 'poll' | 'push' | 'webhook';

export interface CompiledEventType {
  readonly definition: AnyEventType;
  readonly inputSchema: JSONSchema;
  readonly payloadSchema: JSONSchema;
  /** Its `events/list` entry for the delivery modes a caller may use. */
  listed(delivery: readonly DeliveryMode[]): JsonObject;
  /** The arguments as the hooks get them, or why they break `inputSchema` (a Standard Schema may answer in a promise). */
  readArguments(args: JsonObject): Checked | Promise<Checked>;
  /** Why `data` breaks `payloadSchema`, or undefined. */
  checkPayload(data: unknown): string | undefined | Promise<string | undefined>;
}

export type Checked = { value: unknown; why?: undefined } | { why: string; value?: undefined };

const NAME = /^[A-Za-z0-9._\-/]{1,128}$/;

/** The event types by name; throws at load on a mistake, naming the type. */
export function compileEventTypes(types: readonly AnyEventType[]): ReadonlyMap<string, CompiledEventType> {
  const compiled = new Map<string, CompiledEventType>();
  for (const type of types) {
    if (typeof type?.name !== 'string' || !NAME.test(type.name))
      throw new Error(
        `event type ${JSON.stringify(type?.name)}: a name is 1 to 128 letters, digits and ._-/ (e.g. "incident.created")`,
      );
    if (compiled.has(type.name)) throw new Error(`event type "${type.name}" is listed twice in events({ types })`);
    if (typeof type.description !== 'string' || type.description === '')
      throw new Error(`event type "${type.name}": a description says the agent what it is`);
    compiled.set(type.name, compileEventType(type));
  }
  return compiled;
}

function compileEventType(type: AnyEventType): CompiledEventType {
  const where = `event type "${type.name}"`;
  const input = schemaOf(type.inputSchema, `${where} inputSchema`);
  const payload = schemaOf(type.payloadSchema, `${where} payloadSchema`);
  if (input.json.type !== 'object')
    throw new Error(`${where}: inputSchema must be an object schema with "type": "object"`);
  if (payload.json.type !== 'object')
    throw new Error(
      `${where}: payloadSchema must be an object schema with "type": "object" (an event's data is an object)`,
    );
  const own: JsonObject = { name: type.name };
  if (type.title !== undefined) own.title = type.title;
  own.description = type.description;
  return {
    definition: type,
    inputSchema: input.json,
    payloadSchema: payload.json,
    listed: (delivery) => ({
      ...own,
      delivery: [...delivery],
      inputSchema: input.json,
      payloadSchema: payload.json,
      ...(type._meta ? { _meta: type._meta } : {}),
    }),
    readArguments: input.check,
    checkPayload: (data) => {
      const checked = payload.check(data);
      return checked instanceof Promise ? checked.then((c) => c.why) : checked.why;
    },
  };
}

/** A schema's JSON Schema and its check: a Standard Schema validates itself, a JSON Schema is compiled (on first use). */
function schemaOf(schema: OutputSchema, where: string) {
  const standard = standardOf(schema);
  if (standard) {
    const json = jsonSchemaOf(standard, where);
    return {
      json,
      check: (value: unknown) =>
        validateStandard<Checked>(
          standard,
          value,
          (why, output) => (why === undefined ? { value: output } : { why }),
          (error) => {
            // A schema that throws (zod's stack on a huge wrong value) refuses the value, never a 5xx (issue 44).
            console.error(`${where} threw while validating`, error);
            return { why: 'the schema failed while checking it (too large or too deeply nested?)' };
          },
        ),
    };
  }
  if (!isObject(schema)) throw new Error(`${where}: a JSON Schema object or a Standard Schema`);
  const json = schema as JSONSchema;
  const check = compileSchema(json, where);
  return {
    json,
    check: (value: unknown): Checked => {
      const why = check(value);
      return why === undefined ? { value } : { why };
    },
  };
}
