/** The test kit's in-process client, against the fixture Workers called as functions. */
import { describe, expect, it } from 'vitest';
import { defaults } from '../fixtures/defaults';
import defaultsWorker from '../fixtures/defaults.worker';
import { anonymousTools } from '../fixtures/tools';
import fixtureWorker from '../fixtures/worker';
import { defaultsUrl } from '../support/mcp';
import { atUrl, JsonRpcError, testClient } from '../../src/testing/testClient';
import { textOf } from '../../src/testing/textOf';

const mcp = testClient(defaultsWorker);

describe('testClient', () => {
  it('sends what a conforming client sends, so the Worker answers discover with its own server', async () => {
    const { result, status } = await mcp.discover();
    expect(status).toBe(200);
    expect(result._meta?.['io.modelcontextprotocol/serverInfo']).toEqual(defaults.info);
  });

  it('lists every page of a paged list', async () => {
    const paged = testClient(fixtureWorker, { env: { LISTEN_MAX_SECONDS: '1' } });
    expect((await paged.listTools()).result.tools.map((tool) => tool.name)).toEqual(
      anonymousTools.map((tool) => tool.name),
    );
  });

  it('mirrors x-mcp-header arguments into Mcp-Param headers, Base64 where needed', async () => {
    const { result } = await mcp.callTool('routed', {
      region: 'Zürich',
      shard: 3,
      dryRun: false,
      nested: { tenant: ' acme ' },
    });
    expect(result.content).toEqual([{ type: 'text', text: 'routed to Zürich' }]);
  });

  it('returns the notifications of a streamed answer, in order, with the result', async () => {
    const streaming = testClient(fixtureWorker);
    const { result, notifications } = await streaming.callTool(
      'countdown',
      { steps: 3, delayMs: 1 },
      { progressToken: 'p' },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
    expect(notifications.filter((n) => n.method === 'notifications/progress').map((n) => n.params?.progress)).toEqual([
      1, 2, 3,
    ]);
  });

  it('carries capabilities, inputResponses and requestState through a multi round-trip call', async () => {
    const capabilities = { elicitation: {} };
    const accept = (content: object) => ({ action: 'accept', content });
    const first = await mcp.callTool('wizard', { greeting: 'Hi' }, { capabilities });
    expect(first.result.resultType).toBe('input_required');
    const second = await mcp.callTool(
      'wizard',
      { greeting: 'Hi' },
      { capabilities, inputResponses: { name: accept({ name: 'Ada' }) }, requestState: first.result.requestState },
    );
    const third = await mcp.callTool(
      'wizard',
      { greeting: 'Hi' },
      { capabilities, inputResponses: { color: accept({ color: 'green' }) }, requestState: second.result.requestState },
    );
    expect(third.result.content).toEqual([{ type: 'text', text: 'Hi, Ada! You like green.' }]);
  });

  it('reads resources, gets prompts and completes through the helpers', async () => {
    expect((await mcp.listResources()).result.resources.map((r) => r.uri)).toEqual(
      defaults.resources.map((r) => r.uri),
    );
    expect((await mcp.listResourceTemplates()).result.resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      defaults.resourceTemplates.map((t) => t.uriTemplate),
    );
    expect((await mcp.listPrompts()).result.prompts.map((p) => p.name)).toEqual(defaults.prompts.map((p) => p.name));
    expect((await mcp.readResource('test://public-doc')).result.contents).toEqual([
      { uri: 'test://public-doc', text: 'shared' },
    ]);
    expect(textOf((await mcp.getPrompt('greeting', { name: 'Ada' })).result)).toBe('Hello Ada (friendly)');
    const { result } = await mcp.complete({ type: 'ref/prompt', name: 'greeting' }, { name: 'tone', value: 'fa' });
    expect(result.completion.values).toEqual(['familiar']);
  });

  it('talks to the same Worker over HTTP through atUrl, with the same answers', async () => {
    const overHttp = testClient(atUrl(defaultsUrl()));
    expect((await overHttp.discover()).result).toEqual((await mcp.discover()).result);
    const { result } = await overHttp.callTool('routed', { region: 'Zürich', shard: 3 });
    expect(result.content).toEqual([{ type: 'text', text: 'routed to Zürich' }]);
  });

  it('refuses a target without fetch with a message that says what to pass', () => {
    expect(() => testClient({} as never)).toThrow(/default export/);
  });

  it('throws a JSON-RPC error as JsonRpcError with its code, data and HTTP status', async () => {
    const error = await mcp.readResource('test://nö').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    // -32602 resource not found, not -32020: the non-ASCII Mcp-Name went out Base64-encoded.
    expect(error).toMatchObject({ code: -32602, data: { uri: 'test://nö' }, status: 400 });
  });
});
