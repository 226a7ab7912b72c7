/**
 * What a tool's `inputSchema` and `outputSchema` may be, and the types they give its handler
 * (types only). Either a JSON Schema literal (typed by `FromSchema`, `./fromSchema.ts`, at zero
 * bytes) or a schema that validates itself and describes itself in JSON Schema: Standard Schema
 * and Standard JSON Schema (zod ≥ 4.2, ArkType, valibot through `toStandardJsonSchema`), whose own
 * types are used. `@standard-schema/spec` is imported for its types only.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { FromSchema } from './fromSchema.js';
import type { CallToolResult, JSONSchema } from './types.js';

/** A Standard Schema that also gives its JSON Schema (`~standard.validate` and `~standard.jsonSchema`). */
export interface StandardJsonSchema<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & StandardJSONSchemaV1.Props<Input, Output>;
}

export type InputSchema = JSONSchema | StandardJsonSchema;
export type OutputSchema = JSONSchema | StandardJsonSchema;

/** The names JSON Schema's `type` takes (2020-12 Validation 6.1.1). */
type JsonTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/**
 * What `defineTool` adds to a tool's type: nothing while every `type` of its schema literals names
 * a JSON type; else a key that says which name is wrong, so `type: 'integr'` fails to compile in
 * the tool's own file with "Property '"integr" is no JSON Schema type: …' is missing", not as
 * `args` of type `unknown` at the handler (TS18046). A `type` widened to `string` (a schema
 * declared apart) passes, read as `unknown` by `FromSchema`; a Standard Schema is its library's.
 */
export type TypeNamesChecked<In, Out> = Refused<BadTypeName<In> | BadTypeName<Out>>;
type Refused<Names extends string> = [Names] extends [never]
  ? unknown
  : Record<
      `"${Names}" is no JSON Schema type: use one of string, number, integer, boolean, object, array, null`,
      never
    >;

/** Each `type` of schema `S` that names no JSON type, where `FromSchema` follows subschemas; never when there is none. */
type BadTypeName<S, D extends readonly unknown[] = []> = D['length'] extends 10
  ? never
  : S extends StandardJsonSchema | boolean | undefined
    ? never
    : S extends object
      ? { [K in keyof S]-?: BadTypeNameAt<K, S[K], [...D, 0]> }[keyof S]
      : never;

type BadTypeNameAt<K, V, D extends readonly unknown[]> = K extends 'type'
  ? BadName<V>
  : K extends 'properties' | '$defs' | 'patternProperties' | 'dependentSchemas'
    ? { [P in keyof V]-?: BadTypeName<V[P], D> }[keyof V]
    : K extends
          | 'items'
          | 'additionalProperties'
          | 'not'
          | 'if'
          | 'then'
          | 'else'
          | 'contains'
          | 'prefixItems'
          | 'anyOf'
          | 'oneOf'
          | 'allOf'
      ? V extends readonly unknown[]
        ? BadTypeName<V[number], D>
        : BadTypeName<V, D>
      : never;

type BadName<T> = string extends T
  ? never
  : T extends readonly (infer Each)[]
    ? BadName<Each>
    : T extends JsonTypeName
      ? never
      : T extends string
        ? T
        : never;

/** What `defineTool<{ name: string }>(…)`, the explicit form of before, now reads as a compile error. */
export type NoTypeArgument =
  'defineTool takes no type argument now: delete <…>; args are typed from inputSchema, structuredContent from outputSchema';

/** What a Standard Schema's `validate` gives (transforms applied), and what it accepts. */
type OutputOf<S extends StandardJsonSchema> = NonNullable<S['~standard']['types']>['output'];
type InputOf<S extends StandardJsonSchema> = NonNullable<S['~standard']['types']>['input'];

/**
 * A handler's `args`: a Standard Schema's output, or what the JSON Schema accepts, read as an object
 * schema (`inputSchema` must say `"type": "object"`, checked at load), so even a schema whose literals
 * were widened still gives an object.
 */
export type ArgumentsOf<S> = S extends StandardJsonSchema ? OutputOf<S> : FromSchema<S & { readonly type: 'object' }>;

/** What a client sends as `arguments`: a Standard Schema's input (before its transforms), or what the JSON Schema accepts. */
export type CallArgumentsOf<S> = S extends StandardJsonSchema
  ? InputOf<S>
  : FromSchema<S & { readonly type: 'object' }>;

/**
 * What `structuredContent` must be: what the output schema accepts (for a Standard Schema its input:
 * the handler's value is checked by it and sent as it is, so the listed JSON Schema describes it).
 */
export type StructuredOf<S> = S extends StandardJsonSchema ? InputOf<S> : FromSchema<S & { readonly type: 'object' }>;

/** A result with `structuredContent` as the output schema says (spec 2026-07-28 server/tools, Output Schema). */
export interface StructuredResult<T> extends Omit<CallToolResult, 'structuredContent' | 'isError'> {
  structuredContent: T;
  isError?: false;
}

/** A tool error result, which the output schema does not bind. */
interface ToolErrorResult extends Omit<CallToolResult, 'structuredContent' | 'isError'> {
  isError: true;
}

/** What a handler returns: any result without an output schema; with one, structured content of its type or a tool error. */
export type ResultOf<Out> = [Out] extends [undefined]
  ? CallToolResult
  : StructuredResult<StructuredOf<Out>> | ToolErrorResult;
