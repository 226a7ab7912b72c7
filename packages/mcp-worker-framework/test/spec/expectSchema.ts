/**
 * The spec suites' check of every answer against the spec's own JSON Schema. `schema/2026-07-28.json`
 * of the package is a copy of the spec's (2026-07-28/schema.json), so its tests need nothing
 * outside the repository; `npm run spec-coverage -- --check` fails if it differs from the spec
 * checked out beside it. The requests themselves: test/support/mcp.ts.
 */
import { readFileSync } from 'node:fs';
import { Validator, type Schema } from '@cfworker/json-schema';
import { expect } from 'vitest';
import type { Reply } from '../support/mcp';

const schema = JSON.parse(readFileSync(new URL('../../schema/2026-07-28.json', import.meta.url), 'utf8')) as Schema;
const validators = new Map<string, Validator>();

/** Asserts that `message` is a valid instance of the schema's `$defs[type]`. */
export function expectSchema(message: unknown, type: string): void {
  let validator = validators.get(type);
  if (!validator) {
    if (!(type in (schema.$defs ?? {}))) throw new Error(`schema.json has no $defs/${type}`);
    validator = new Validator(
      { $schema: schema.$schema, $defs: schema.$defs, $ref: `#/$defs/${type}` } as Schema,
      '2020-12',
      false,
    );
    validators.set(type, validator);
  }
  const { valid, errors } = validator.validate(message);
  expect(valid, `${type}: ${JSON.stringify(errors.slice(-3))}\n${JSON.stringify(message)}`).toBe(true);
}

/** JSON-RPC's own errors are described as error objects in the schema; MCP's own as whole responses. */
const ERROR_OBJECTS = new Set([
  'ParseError',
  'InvalidRequestError',
  'MethodNotFoundError',
  'InvalidParamsError',
  'InternalError',
]);

/**
 * Asserts that `reply` is a valid JSON-RPC error response whose error is a valid `type`. An id
 * that could not be read is `null`, as JSON-RPC 2.0 section 5 requires (and basic/index: "MUST
 * follow the JSON-RPC 2.0 specification"); the schema only knows an absent id, so a null one is
 * checked without it.
 */
export function expectErrorSchema(reply: Reply, type: string): void {
  const { id, ...rest } = reply;
  expectSchema(id === null ? rest : reply, 'JSONRPCErrorResponse');
  expectSchema(ERROR_OBJECTS.has(type) ? reply.error : reply, type);
}
