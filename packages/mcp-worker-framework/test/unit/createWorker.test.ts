/** The Worker composed in code (src/createWorker.ts): what it refuses at load, before anything is served. */
import { describe, expect, it } from 'vitest';
import { apps, defineAppView } from '../../src/apps';
import { APPS_EXTENSION } from '../../src/apps/toolFields';
import { bearer } from '../../src/auth';
import { COMPOSITION, type Composition, createWorker } from '../../src/createWorker';
import type { WorkerEnv } from '../../src/env';
import type { ServerDefinition } from '../../src/mcp';
import { createServer } from '../../src/mcp/createServer';
import { defineTool, text } from '../../src/mcp/define';
import { durableTasks } from '../../src/tasks/durableTasks';
import { mcpHeaders, meta } from '../support/mcp';

const ctx = { waitUntil() {}, passThroughOnException() {} } as unknown as ExecutionContext;

const info = { name: 'composed', version: '0' };
const onlyLater = defineTool({
  name: 'only_later',
  inputSchema: { type: 'object' },
  task: 'required',
  handler: () => text(''),
});
const view = defineAppView({ uri: 'ui://fixture/view', name: 'fixture-view', html: '<!doctype html><p>view</p>' });
const shownHere = defineTool({
  name: 'shown_here',
  inputSchema: { type: 'object' },
  ui: { resourceUri: 'ui://fixture/view' },
  handler: () => text(''),
});

describe('createWorker', () => {
  it('refuses at load a tool that runs only as a task, on a Worker without tasks(), saying what to do', () => {
    expect(() => createWorker({ info, tools: [onlyLater] })).toThrow(
      /tool "only_later" runs only as a task: turn tasks on: `extensions: \[tasks\(\)\]` in src\/index.ts \(docs\/tasks.md\)/,
    );
    expect(() => createWorker({ info, tools: [onlyLater] }, { extensions: [durableTasks()] })).not.toThrow();
  });

  it('refuses at load a tool with a view on a Worker without apps(), saying how to turn it on', () => {
    expect(() => createWorker({ info, tools: [shownHere], resources: [view] })).toThrow(
      /tool "shown_here" has a view \(ui\), which MCP Apps serves: turn it on: `extensions: \[apps\(\)\]` in src\/index.ts/,
    );
    expect(() => createWorker({ info, tools: [shownHere], resources: [view] }, { extensions: [apps()] })).not.toThrow();
  });

  it('asks the extensions listed which tool fields they serve (each declares its own), not their ids', () => {
    const ownTasks = { ...durableTasks(), id: 'com.example/own-tasks' };
    expect(() => createWorker({ info, tools: [onlyLater] }, { extensions: [ownTasks] })).not.toThrow();
    const ownApps = { ...apps(), id: 'com.example/own-apps' };
    expect(() =>
      createWorker({ info, tools: [shownHere], resources: [view] }, { extensions: [ownApps] }),
    ).not.toThrow();
    const noFields = { ...durableTasks(), toolField: undefined };
    expect(() => createWorker({ info, tools: [onlyLater] }, { extensions: [noFields] })).toThrow(/runs only as a task/);
  });

  it('serves the extensions of its one list, and refuses a definition that still lists its own, saying where they go', async () => {
    const worker = createWorker({ info, tools: [shownHere], resources: [view] }, { extensions: [apps()] });
    const discover = await worker.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: mcpHeaders('server/discover'),
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } }),
      }),
      { MCP_STATE_SECRET: 'one list' } as WorkerEnv,
      ctx,
    );
    const { result } = (await discover.json()) as { result: { capabilities: { extensions?: object } } };
    expect(Object.keys(result.capabilities.extensions ?? {})).toEqual([APPS_EXTENSION]);
    const withOwnList = { info, extensions: [apps()] } as unknown as ServerDefinition;
    const moved =
      'extensions moved from the server definition to createWorker(definition, { extensions }) in src/index.ts';
    expect(() => createWorker(withOwnList)).toThrow(moved);
    expect(() => createServer(withOwnList)).toThrow(moved);
  });

  it('returns the Durable Object class of each extension that runs in one, under its name, and no stand-in when none does', () => {
    class Object1 {}
    const made: unknown[] = [];
    const inObject = {
      id: 'com.example/in-object',
      install: () => ({}),
      durableObject: {
        name: 'McpThing',
        binding: 'MCP_THING',
        make: (server: unknown) => (made.push(server), Object1 as never),
      },
    } as const;
    expect(Object.keys(createWorker({ info }, { extensions: [apps()] }))).toEqual(['fetch']);
    const worker = createWorker({ info }, { extensions: [apps(), inObject] });
    expect(Object.keys(worker)).toEqual(['fetch', 'McpThing']);
    expect(worker.McpThing).toBe(Object1);
    expect(made).toHaveLength(1);
  });

  it('carries on its fetch, for npm run check, what it is composed of: its modes, extensions, settings and refusal', () => {
    const inObject = {
      id: 'com.example/in-object',
      install: () => ({}),
      durableObject: { name: 'McpThing', binding: 'MCP_THING', make: () => class {} as never },
    } as const;
    const { fetch } = createWorker({ info }, { auth: [bearer], extensions: [apps(), inObject] });
    const composition = (fetch as unknown as Record<symbol, Composition>)[COMPOSITION]!;
    expect(composition.auth).toEqual([bearer]);
    expect(composition.extensions.map(({ id }) => id)).toEqual([APPS_EXTENSION, 'com.example/in-object']);
    expect(Object.keys(composition.settings)).toContain('MCP_BEARER_TOKEN');
    expect(Object.keys(composition.settings)).toContain('REQUEST_LOGS');
    expect(composition.refusal({})?.message).toMatch(/^MCP_BEARER_TOKEN is required/);
    expect(composition.refusal({ MCP_BEARER_TOKEN: 'token' })).toBeUndefined();
  });

  it('leaves both rules to the composition: the core compiles either tool and names no file of the entry', () => {
    expect(() => createServer({ info, tools: [onlyLater, shownHere], resources: [view] })).not.toThrow();
  });
});
