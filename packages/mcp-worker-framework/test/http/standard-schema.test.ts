/**
 * Tools whose schemas are Standard Schemas (zod, valibot, ArkType), in workerd: listed with the
 * JSON Schema each library derives, arguments validated by the schema itself (its transforms and
 * asynchronous refinements apply), failures named by field as for a JSON Schema tool, and a
 * structuredContent its outputSchema refuses answered -32603 as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcError, startInWorkerd, testClient, type TestClient, type WorkerInWorkerd } from '../../src/testing';
import { mcpHeaders, meta } from '../support/mcp';
import {
  distance,
  forecast,
  liar,
  stalls,
  tally,
  tallyArkType,
  tallyValibot,
  tools,
  units,
  unlock,
} from '../fixtures/standard/tools';

let worker: WorkerInWorkerd;
let mcp: TestClient;
beforeAll(async () => {
  worker = await startInWorkerd({ config: 'test/fixtures/standard/wrangler.toml', vars: { REQUEST_LOGS: 'off' } });
  mcp = testClient(worker);
}, 120_000);
afterAll(() => worker?.dispose());

describe('a tool with a Standard Schema', () => {
  it('is listed with the JSON Schema (2020-12) its library derives, for input and output', async () => {
    const listed = (await mcp.listTools()).result.tools;
    const derived = (schema: unknown) =>
      (schema as { '~standard': { jsonSchema: { input(o: object): object } } })['~standard'].jsonSchema.input({
        target: 'draft-2020-12',
      });
    expect(listed).toEqual(
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: derived(tool.inputSchema),
        ...(tool.outputSchema ? { outputSchema: derived(tool.outputSchema) } : {}),
      })),
    );
    expect(listed.find((tool) => tool.name === 'forecast')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 } },
      required: ['city', 'from'],
    });
  });

  it('hands zod’s output to the handler: defaults filled in, the transform applied', async () => {
    const { result } = await mcp.callTool(forecast, { city: 'Oslo', from: '2026-12-01' });
    expect(result.structuredContent).toEqual({ city: 'Oslo', days: 3, fromIsADate: true, fromYear: 2026 });
  });

  it.each([
    ['zod', () => mcp.callTool('forecast', { city: '', days: 9, from: '2026-12-01' }), ['/city', '/days']],
    ['valibot', () => mcp.callTool('units', { city: 'Oslo', units: 'kelvin' }), ['/units']],
    ['ArkType', () => mcp.callTool('distance', { from: 'Oslo', to: 3 }), ['/to']],
  ])('answers a bad call with isError naming each failing field (%s)', async (_, call, fields) => {
    const { result } = await call();
    expect(result.isError).toBe(true);
    const message = (result.content as Array<{ text: string }>)[0]!.text;
    expect(message).toMatch(/^Invalid arguments for tool \w+: /);
    for (const field of fields) expect(message).toContain(`${field}: `);
  });

  it('names a handful of failures, and how many more, when a big body breaks the schema at every item', async () => {
    const { status, result } = await mcp.callTool(tally, {
      counts: Array.from({ length: 20_000 }, () => 'one'),
    } as never);
    expect(status).toBe(200);
    expect(result.isError).toBe(true);
    const message = (result.content as Array<{ text: string }>)[0]!.text;
    expect(message).toMatch(
      /^Invalid arguments for tool tally: \/counts\/0: [^;]+; (\/counts\/\d+: [^;]+; ){3}\/counts\/4: .* \(and 19995 more\)$/,
    );
    expect(message.length).toBeLessThan(2_000);
  });

  /** Items of `item` (as JSON) that make a `tools/call` of `name` just under the default body limit (MAX_BODY_BYTES, 4 MiB). */
  const atBodyLimit = (name: string, item: string) => {
    const envelope = JSON.stringify(callBody(name, [])).length;
    return Array.from({ length: Math.floor((4 * 1024 * 1024 - envelope - 64) / (item.length + 1)) }, () =>
      JSON.parse(item),
    );
  };
  const callBody = (name: string, counts: unknown[]) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: { counts }, _meta: meta() },
  });

  it.each([
    ['zod', tally.name],
    ['valibot', tallyValibot.name],
    ['ArkType', tallyArkType.name],
  ])(
    'answers a wrong array at the body limit with a bounded tool error naming the tool, never a 5xx (%s)',
    async (_, name) => {
      // A wrong string and a wrong object per item: every item an issue (zod overflowed the stack at 150,000).
      for (const item of ['"one"', '{"n":1}']) {
        const body = JSON.stringify(callBody(name, atBodyLimit(name, item)));
        expect(body.length).toBeLessThanOrEqual(4 * 1024 * 1024);
        const response = await fetch(`${worker.url}/mcp`, {
          method: 'POST',
          headers: mcpHeaders('tools/call', name),
          body,
        });
        const text = await response.text();
        expect(response.status, `${name} with ${item}: ${text.slice(0, 300)}`).toBe(200);
        expect(text.length).toBeLessThan(2_000);
        const { result } = JSON.parse(text) as { result: { isError: boolean; content: Array<{ text: string }> } };
        expect(result.isError).toBe(true);
        expect(result.content[0]!.text).toMatch(new RegExp(`^Invalid arguments for tool ${name}: `));
      }
    },
    // ArkType, without code generation in workerd, takes seconds over 700,000 items.
    120_000,
  );

  it('holds an asynchronous refinement to the tool’s time limit', async () => {
    const { status, result } = await mcp.callTool(stalls, { code: 'guess' });
    expect(status).toBe(200);
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Tool stalls did not finish within 0.3 s; try again or narrow the request.' }],
    });
  });

  it('waits for an asynchronous refinement, both ways', async () => {
    expect((await mcp.callTool(unlock, { code: 'open-sesame' })).result.content).toEqual([
      { type: 'text', text: 'open' },
    ]);
    const { result } = await mcp.callTool(unlock, { code: 'guess' });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Invalid arguments for tool unlock: /code: wrong code' }],
    });
  });

  it('runs valibot and ArkType tools with valid arguments', async () => {
    expect((await mcp.callTool(units, { city: 'Oslo', units: 'imperial' })).result.content).toEqual([
      { type: 'text', text: 'Oslo in imperial' },
    ]);
    expect((await mcp.callTool(distance, { from: 'Oslo', to: 'Bergen', km: 463 })).result.content).toEqual([
      { type: 'text', text: 'Oslo to Bergen, 463 km' },
    ]);
  });

  it('answers structuredContent that breaks its outputSchema with -32603, as a server bug', async () => {
    await expect(mcp.callTool(liar)).rejects.toEqual(expect.objectContaining({ code: -32603 }));
    await expect(mcp.callTool(liar)).rejects.toBeInstanceOf(JsonRpcError);
  });
});
