/**
 * A JSON Schema made into a check of what arrives from outside (a tool's arguments, the structured
 * result a handler returns), by @cfworker/json-schema, whose work is linear in the value's size
 * whatever the value, and whose answer names a handful of failures (docs/server-api.md,
 * "Arguments that break the schema").
 *
 * Asked for every error (`shortCircuit` false), the validator makes two or more per failing item,
 * and picking the innermost of them by comparing each with every other cost the square of their
 * number: 128 KB of wrong items held an isolate for 10 s (issue 37). So the verdict is asked with
 * `shortCircuit` (the same work as before for a valid value, and it stops at the first failing
 * property or item); a small value that fails is checked again for all its failures, so the model
 * can fix them at once; and only the last errors are read, never all of them.
 */
import { dereference, type OutputUnit, type Schema, type SchemaDraft, validate } from '@cfworker/json-schema';
import { type Failure, failureList, MAX_NAMED_FAILURES } from './failureList.js';
import { isObject } from './json.js';
import type { JSONSchema } from './types.js';

/** A failing value of at most this many values (objects, arrays and their members) is checked again for all its failures. */
const FULL_REPORT_VALUES = 1000;
/** The errors read from the end of the validator's list for the failures to name; it may hold millions. */
const ERRORS_READ = 1000;

/** Dialects the validator supports; a schema without `$schema` is 2020-12 (spec 2026-07-28 basic/index, Schema Dialect). */
const DIALECTS: Readonly<Record<string, SchemaDraft>> = {
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'http://json-schema.org/draft-07/schema': '7',
  'http://json-schema.org/draft-04/schema': '4',
};

/** Returns why `value` breaks `schema` (a few failures named), or undefined when it is valid; refuses at load what it cannot check. */
export function compileSchema(schema: JSONSchema, where: string): (value: unknown) => string | undefined {
  const refused = refusal(schema, '');
  if (refused !== undefined) throw new Error(`${where}: ${refused}`);
  const dialect = dialectOf(schema, where);
  // Built on the first check that needs it and kept for the isolate's life: a cold start builds no
  // validator, and a tool never called never pays for one (docs/performance.md). The checks above,
  // which an author's mistake fails, stay at module load.
  let lookup: ReturnType<typeof dereference> | undefined;
  const check = (value: unknown, shortCircuit: boolean) =>
    validate(value, schema as Schema, dialect, (lookup ??= dereference(schema as Schema)), shortCircuit);
  return (value) => {
    try {
      const verdict = check(value, true);
      if (verdict.valid) return undefined;
      return describe(holdsAtMost(value, FULL_REPORT_VALUES) ? check(value, false).errors : verdict.errors);
    } catch (error) {
      // Thrown on what the value holds, not on the schema: the validator spreads a subschema's
      // errors into a call's arguments (tens of thousands are more than the stack takes), and
      // writes a property name into a URI (`encodeURI` refuses a lone surrogate). Refused, never a 5xx.
      if (error instanceof RangeError) return '/: breaks the schema in more places than can be checked';
      if (error instanceof URIError)
        return '/: holds a property name that is not well-formed Unicode (a lone surrogate)';
      throw error;
    }
  };
}

/**
 * Applicators whose error only says that a subschema failed: that subschema's own errors follow it
 * in the list and say why, so they are the ones named. (`not`, `contains` and `oneOf` say why themselves.)
 */
const SUBSCHEMA_FAILED: ReadonlySet<string> = new Set([
  '$ref',
  '$recursiveRef',
  'allOf',
  'anyOf',
  'if',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  'dependencies',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
]);

/** The last failures of the list, in its order: the innermost, which the validator lists after what contains them. */
function describe(errors: readonly OutputUnit[]): string {
  const named: Failure[] = [];
  const stop = Math.max(0, errors.length - ERRORS_READ);
  for (let i = errors.length - 1; i >= stop && named.length < MAX_NAMED_FAILURES; i--) {
    const { keyword } = errors[i]!;
    if (!SUBSCHEMA_FAILED.has(keyword)) named.unshift(failure(errors[i]!));
  }
  // An applicator's error is always followed by its causes; were none read, the last error still says where.
  if (named.length === 0 && errors.length > 0) named.push(failure(errors[errors.length - 1]!));
  return failureList(named);
}

const failure = ({ instanceLocation, error }: OutputUnit): Failure => ({
  at: instanceLocation.slice(1) || '/',
  why: error,
});

/** True when `value` holds at most `limit` values, itself included; counting stops past the limit. */
function holdsAtMost(value: unknown, limit: number): boolean {
  let left = limit;
  const fits = (node: unknown): boolean => {
    if (--left < 0) return false;
    if (typeof node === 'object' && node !== null)
      for (const key in node) if (!fits((node as Record<string, unknown>)[key])) return false;
    return true;
  };
  return fits(value);
}

function dialectOf(schema: JSONSchema, where: string): SchemaDraft {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12';
  const draft = typeof declared === 'string' ? DIALECTS[declared.replace(/#$/, '')] : undefined;
  if (!draft) throw new Error(`${where}: unsupported JSON Schema dialect ${JSON.stringify(declared)}`);
  return draft;
}

/** Keywords whose values are data, never schemas. */
const DATA = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose values are maps of schemas: their keys are names, not keywords. */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

/**
 * Why the validator cannot check this schema, at `at` or below: a `$ref` outside it (spec 2026-07-28
 * basic/index, Schema Dialect: network references are never fetched; refused here rather than failing
 * every call), or a keyword whose cost grows faster than what arrives (measured on @cfworker/json-schema
 * 4.1.6, docs/server-api.md): `uniqueItems` compares every pair of items, valid or not (100,000 items:
 * 10^10 comparisons); `format: "url"` is a pattern that backtracks exponentially (30 characters hold an
 * isolate for seconds). Undefined when there is none.
 */
function refusal(node: unknown, at: string): string | undefined {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) {
      const found = refusal(item, `${at}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  const { $ref, uniqueItems, format } = node;
  if (typeof $ref === 'string' && !$ref.startsWith('#'))
    return `$ref "${$ref}" points outside the schema; network references are not fetched, inline it under $defs`;
  if (uniqueItems === true)
    return `uniqueItems at ${at || '/'} is refused: the validator compares every pair of items, so its cost is the square of the array's length; check uniqueness in the handler (a Set)`;
  if (format === 'url')
    return `format "url" at ${at || '/'} is refused: the validator's pattern for it backtracks exponentially on some strings; use "uri"`;
  for (const [key, value] of Object.entries(node)) {
    if (DATA.has(key)) continue;
    const found =
      SCHEMA_MAPS.has(key) && isObject(value) ? refusalIn(value, `${at}/${key}`) : refusal(value, `${at}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first refusal among the schemas of a map (`properties`, `$defs`…), whose keys are names. */
function refusalIn(map: JSONSchema, at: string): string | undefined {
  for (const [name, schema] of Object.entries(map)) {
    const found = refusal(schema, `${at}/${name}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
