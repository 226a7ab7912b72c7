/**
 * A tool compiled once per isolate: the parameters it mirrors into `Mcp-Param-*` headers and
 * the checks of its schemas are worked out at module load, so a call only looks them up; its
 * validators are built on its first call and kept. A JSON Schema is checked by
 * @cfworker/json-schema (`./compileSchema.ts`); a Standard Schema (zod, valibot, ArkType:
 * `./toolSchema.ts`) validates itself, and its JSON Schema is made once, at load, for `tools/list`.
 */
import { compileSchema } from './compileSchema.js';
import { ToolError, type AnyTool } from './define.js';
import { failureList, MAX_NAMED_FAILURES } from './failureList.js';
import { isObject } from './json.js';
import type { StandardJsonSchema } from './toolSchema.js';
import type { JsonObject, JSONSchema, Tool } from './types.js';

/** A tool parameter mirrored into `Mcp-Param-{header}` (spec 2026-07-28 server/tools, x-mcp-header). */
export interface HeaderParam {
  header: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  path: readonly string[];
  type: 'string' | 'integer' | 'boolean';
}

export interface CompiledTool {
  definition: AnyTool;
  /** The `Tool` object as `tools/list` shows it (no handler). */
  listed: Tool;
  headerParams: readonly HeaderParam[];
  /**
   * The arguments as the handler gets them, or a `ToolError` saying what is wrong with them, for the
   * model to fix (spec 2026-07-28 server/tools, Error Handling): checked and unchanged for a JSON
   * Schema; a Standard Schema's output (its transforms applied), maybe in a promise.
   */
  readArguments(args: JsonObject): unknown;
  /** Returns why `structuredContent` breaks the output schema, or undefined (a Standard Schema may answer in a promise). */
  checkOutput(structured: unknown): string | undefined | Promise<string | undefined>;
}

/** The spec's `Tool` keys an author sets (spec 2026-07-28 schema.json, Tool); the schemas are listed as compiled. */
const LISTED_KEYS: ReadonlySet<string> = new Set([
  'name',
  'title',
  'description',
  'icons',
  'annotations',
  '_meta',
] satisfies (keyof Tool)[]);

/** Compiles a tool once: its listed form (with `fields` that the server's extensions add to it), validators, header parameters. */
export function compileTool(tool: AnyTool, fields: readonly object[] = []): CompiledTool {
  const where = `tool "${tool.name}"`;
  // Decided here, once: a call never asks which kind of schema its tool has.
  const standardIn = standardOf(tool.inputSchema);
  const standardOut = standardOf(tool.outputSchema);
  const inputSchema = standardIn ? jsonSchemaOf(standardIn, `${where} inputSchema`) : (tool.inputSchema as JSONSchema);
  const outputSchema = standardOut
    ? jsonSchemaOf(standardOut, `${where} outputSchema`)
    : (tool.outputSchema as JSONSchema | undefined);
  if (!isObject(inputSchema) || inputSchema.type !== 'object') {
    throw new Error(`${where}: inputSchema must be an object schema with "type": "object"`);
  }
  // An allow-list: only the spec's keys are listed, so a field the core or an extension adds to a definition never leaks.
  const own: Partial<Tool> = {};
  for (const key of Object.keys(tool))
    if (LISTED_KEYS.has(key)) (own as Record<string, unknown>)[key] = tool[key as keyof AnyTool];
  const listed: Tool = Object.assign(own, { inputSchema }, outputSchema && { outputSchema }, ...fields);
  const checkInput = standardIn ? undefined : compileSchema(inputSchema, `${where} inputSchema`);
  // The arguments the handler takes, or why they are invalid, for the model to fix.
  const settle = (why: string | undefined, value: unknown) =>
    why === undefined ? value : new ToolError(`Invalid arguments for tool ${tool.name}: ${why}`);
  const inputThrew = threw(`${where} inputSchema`, () => settle(COULD_NOT_CHECK, undefined));
  const outputThrew = threw(`${where} outputSchema`, () => 'it threw');
  return {
    definition: tool,
    listed,
    headerParams: collectHeaderParams(inputSchema, where),
    readArguments: standardIn
      ? (args) => validateStandard(standardIn, args, settle, inputThrew)
      : (args) => settle(checkInput!(args), args),
    checkOutput: standardOut
      ? (structured) => validateStandard(standardOut, structured, (why) => why, outputThrew)
      : outputSchema
        ? compileSchema(outputSchema, `${where} outputSchema`)
        : () => undefined,
  };
}

/** A schema's Standard Schema properties when it has them (an ArkType schema is a function). */
export const standardOf = (schema: unknown) => (schema as Partial<StandardJsonSchema> | undefined)?.['~standard'];

/** A Standard Schema's JSON Schema, made once at load; one it cannot express fails here, naming the tool. */
export function jsonSchemaOf(standard: StandardJsonSchema['~standard'], where: string): JSONSchema {
  try {
    // spec 2026-07-28 basic/index, Schema Dialect: 2020-12. The input side: what a client sends, or what a handler returns.
    return standard.jsonSchema.input({ target: 'draft-2020-12' });
  } catch (error) {
    // zod 4.2+, ArkType and valibot's toStandardJsonSchema give one (Standard JSON Schema); a transform has none.
    throw new Error(`${where}: no JSON Schema: ${error}`);
  }
}

/**
 * Why arguments are refused when the schema threw instead of answering. A validator may throw on
 * what arrives within the body limit: zod, which workerd runs without code generation, overflows
 * the stack collecting an issue for each of 150,000 wrong items. Big or deep arguments are the
 * likely cause, so the model is told, as for any invalid arguments; what was thrown is logged.
 */
const COULD_NOT_CHECK = 'its inputSchema failed while checking them (too many or too deeply nested?); send less';

/** What a schema that threw gives: `answer()`, once what it threw is logged, naming the schema. */
const threw =
  <T>(schema: string, answer: () => T) =>
  (error: unknown): T => {
    console.error(`${schema} threw while validating`, error);
    return answer();
  };

/**
 * Validates with a Standard Schema, then `then(why, output)`: `why` names the first failing paths
 * (`./failureList.ts`: a handful, each bounded, and how many more), undefined when valid. A
 * validator that throws, at once or in its promise, is `failed(error)`, never an exception that leaves
 * the call (a 500 where the client is owed an answer).
 */
export function validateStandard<T>(
  standard: StandardJsonSchema['~standard'],
  value: unknown,
  then: (why: string | undefined, output?: unknown) => T,
  failed: (error: unknown) => T,
): T | Promise<T> {
  const settle = (result: Awaited<ReturnType<typeof standard.validate>>) =>
    result.issues
      ? then(
          failureList(
            result.issues.slice(0, MAX_NAMED_FAILURES).map(({ path = [], message }) => ({
              // A path segment is a key or `{ key }` (Standard Schema, Issue.path); JSON arguments have no symbol keys.
              at: `/${path.map((key) => (key as { key?: PropertyKey }).key ?? key).join('/')}`,
              why: message,
            })),
            result.issues.length - MAX_NAMED_FAILURES,
          ),
        )
      : then(undefined, result.value);
  try {
    const result = standard.validate(value);
    return result instanceof Promise ? result.then(settle).catch(failed) : settle(result);
  } catch (error) {
    return failed(error);
  }
}

// RFC 9110 section 5.1: a field name is 1*tchar.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Keywords whose values are data, not subschemas: an "x-mcp-header" key inside them is not an annotation.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'required']);

/**
 * Finds every `x-mcp-header` annotation and enforces its constraints (spec 2026-07-28
 * streamable-http, Schema Extension). A broken annotation is a bug in the server, so it
 * fails at module load, where the author sees it, not on a client's request.
 */
function collectHeaderParams(schema: JSONSchema, where: string): HeaderParam[] {
  const found: HeaderParam[] = [];
  const walk = (node: unknown, path: string[], reachable: boolean): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, path, false);
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-mcp-header') {
        found.push(checkAnnotation(node, value, path, reachable, where));
      } else if (key === 'properties' && isObject(value)) {
        for (const [name, sub] of Object.entries(value)) walk(sub, [...path, name], reachable);
      } else if (!DATA_KEYWORDS.has(key)) {
        walk(value, path, false);
      }
    }
  };
  walk(schema, [], true);
  const seen = new Set<string>();
  for (const { header } of found) {
    const folded = header.toLowerCase();
    if (seen.has(folded)) throw new Error(`${where}: x-mcp-header "${header}" is used twice`);
    seen.add(folded);
  }
  return found;
}

function checkAnnotation(
  node: JSONSchema,
  header: unknown,
  path: string[],
  reachable: boolean,
  where: string,
): HeaderParam {
  const at = `${where}: x-mcp-header at /${path.join('/')}`;
  if (typeof header !== 'string' || !TOKEN.test(header)) throw new Error(`${at} must be an HTTP token`);
  if (!reachable || path.length === 0)
    throw new Error(`${at} must sit on a property reached only through "properties"`);
  const type = node.type;
  if (type !== 'string' && type !== 'integer' && type !== 'boolean') {
    throw new Error(`${at} must annotate a string, integer or boolean parameter`);
  }
  return { header, path, type };
}
