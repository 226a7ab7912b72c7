/**
 * A feature of the protocol itself served through the extension seam (`Extension.protocol`,
 * src/mcp/extension.ts; notifications): `server/discover` advertises the capabilities it makes
 * true, for the kinds of item the server serves, and no entry in `capabilities.extensions`; a legacy
 * `initialize` advertises none of it, since that era has no `subscriptions/listen`.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../../src/mcp/createServer';
import { defineResource, defineTool, text } from '../../../src/mcp/define';
import type { Extension } from '../../../src/mcp/extension';
import type { RawJson } from '../../../src/mcp/json';
import { mcpRequest } from '../../support/request';

const changes: Extension = {
  id: 'changes',
  protocol: {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
  },
  install: () => ({}),
};
const listed: Extension = { id: 'com.example/listed', settings: { on: true }, install: () => ({}) };

const server = createServer(
  {
    info: { name: 'unit', version: '0' },
    tools: [defineTool({ name: 't', inputSchema: { type: 'object' }, handler: () => text('t') })],
    resources: [defineResource({ uri: 'test://r', name: 'r', read: () => ({ contents: [] }) })],
  },
  [changes, listed],
);
const json = (result: unknown) => JSON.parse((result as RawJson).json);

describe('an extension that is a feature of the protocol (protocol)', () => {
  it('makes discover advertise what it makes true, for the kinds of item served only, without listing it as an extension', async () => {
    const discovered = json(
      (await server.handle(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'server/discover' }))).result,
    );
    expect(discovered.capabilities).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      extensions: { 'com.example/listed': { on: true } },
    });
  });

  it('leaves it out of a legacy initialize, whose clients have no subscriptions/listen', async () => {
    const initialized = json(
      (
        await server.handle(
          mcpRequest(
            { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
            { era: 'legacy', protocolVersion: '2025-11-25', clientCapabilities: {} },
            { servesLegacy: true },
          ),
        )
      ).result,
    );
    expect(initialized.capabilities).toEqual({
      tools: {},
      resources: {},
      extensions: { 'com.example/listed': { on: true } },
    });
  });
});
