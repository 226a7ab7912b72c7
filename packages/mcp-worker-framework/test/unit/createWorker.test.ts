/** The Worker composed in code (src/createWorker.ts): what it refuses at load, before anything is served. */
import { describe, expect, it } from 'vitest';
import { apps, defineAppView } from '../../src/apps';
import { createWorker } from '../../src/createWorker';
import { createServer } from '../../src/mcp/createServer';
import { defineTool, text } from '../../src/mcp/define';
import { durableTasks } from '../../src/tasks/durableTasks';

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

  it('leaves both rules to the composition: the core compiles either tool and names no file of the entry', () => {
    expect(() => createServer({ info, tools: [onlyLater, shownHere], resources: [view] })).not.toThrow();
  });
});
