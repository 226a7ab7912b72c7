/**
 * Sentences that bind what a server declares (tool definitions, x-mcp-header annotations): the
 * template checks them when the server is built, so an author's mistake fails at module load.
 */
import { describe, expect, it } from 'vitest';
import { createServer, defineTool, text } from '../../src/mcp';

const serverWith = (inputSchema: Record<string, unknown>, name = 'tool') =>
  createServer({
    info: { name: 'authoring', version: '1' },
    tools: [defineTool({ name, inputSchema: { type: 'object', ...inputSchema }, handler: () => text('') })],
  });

const annotated = (header: unknown, type = 'string') => ({ properties: { p: { type, 'x-mcp-header': header } } });

describe('x-mcp-header annotations and tool definitions', () => {
  it('streamable-http: an x-mcp-header value "MUST NOT be empty" and "MUST match HTTP field-name token syntax"', () => {
    expect(() => serverWith(annotated(''))).toThrow(/must be an HTTP token/);
    expect(() => serverWith(annotated('Has Space'))).toThrow(/must be an HTTP token/);
    expect(() => serverWith(annotated('Region'))).not.toThrow();
  });

  it('streamable-http: an x-mcp-header value "MUST NOT contain control characters, including carriage return"', () => {
    expect(() => serverWith(annotated('Evil\r\nX-Injected'))).toThrow(/must be an HTTP token/);
  });

  it('streamable-http: x-mcp-header values "MUST be case-insensitively unique"', () => {
    const schema = {
      properties: { a: { type: 'string', 'x-mcp-header': 'Tenant' }, b: { type: 'string', 'x-mcp-header': 'tenant' } },
    };
    expect(() => serverWith(schema)).toThrow(/used twice/);
  });

  it('streamable-http: x-mcp-header "MUST only be applied to parameters with primitive types"', () => {
    expect(() => serverWith(annotated('Obj', 'object'))).toThrow(/string, integer or boolean/);
    expect(() => serverWith(annotated('Num', 'number'))).toThrow(/string, integer or boolean/);
    for (const type of ['string', 'integer', 'boolean']) expect(() => serverWith(annotated('Ok', type))).not.toThrow();
  });

  it('streamable-http: "The chain MUST NOT pass through items ..., composition keywords ..., or $ref": only properties chains', () => {
    expect(() =>
      serverWith({ properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } } }),
    ).toThrow(/reached only through "properties"/);
    expect(() => serverWith({ anyOf: [{ properties: { p: { type: 'string', 'x-mcp-header': 'P' } } }] })).toThrow(
      /reached only through "properties"/,
    );
    expect(() =>
      serverWith({
        properties: { outer: { type: 'object', properties: { inner: { type: 'string', 'x-mcp-header': 'Inner' } } } },
      }),
    ).not.toThrow();
  });

  it('server/tools: "Tool names SHOULD be unique within a server": a duplicate name fails at module load', () => {
    const tool = defineTool({ name: 'twice', inputSchema: { type: 'object' }, handler: () => text('') });
    expect(() => createServer({ info: { name: 'authoring', version: '1' }, tools: [tool, tool] })).toThrow(
      /defined twice/,
    );
  });

  it('server/tools: an inputSchema "MUST be a valid JSON Schema object (not null)" of type object, checked at module load', () => {
    expect(() =>
      createServer({
        info: { name: 'a', version: '1' },
        tools: [defineTool({ name: 't', inputSchema: null as never, handler: () => text('') })],
      }),
    ).toThrow(/inputSchema/);
    expect(() =>
      createServer({
        info: { name: 'a', version: '1' },
        tools: [defineTool({ name: 't', inputSchema: { type: 'string' }, handler: () => text('') })],
      }),
    ).toThrow(/inputSchema/);
  });

  it('basic/index: "They MUST handle unsupported dialects gracefully by returning an appropriate error indicating the dialect is not supported"', () => {
    const schema = { $schema: 'https://example.com/my-own-dialect', type: 'object' };
    expect(() =>
      createServer({
        info: { name: 'a', version: '1' },
        tools: [defineTool({ name: 't', inputSchema: schema, handler: () => text('') })],
      }),
    ).toThrow(/unsupported JSON Schema dialect/);
  });

  it('basic/index: "Implementations MUST NOT automatically dereference $ref values that resolve to a network URI": such a schema fails at load', () => {
    expect(() => serverWith({ properties: { p: { $ref: 'https://schemas.example.com/p.json' } } })).toThrow(
      /network references are not fetched/,
    );
    expect(() =>
      serverWith({ $defs: { p: { type: 'string' } }, properties: { p: { $ref: '#/$defs/p' } } }),
    ).not.toThrow();
  });
});
