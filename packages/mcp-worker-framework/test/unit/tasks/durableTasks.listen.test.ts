/**
 * The Tasks extension's `subscriptions/listen` beside another extension's (notifications): each
 * adds to the acknowledgement and to `attach`, never replaces them (src/mcp/extension.ts, `listen`).
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../../src/mcp/createServer';
import type { Extension } from '../../../src/mcp/extension';
import { durableTasks } from '../../../src/tasks/durableTasks';
import { TASKS_EXTENSION } from '../../../src/tasks/toolFields';
import { fixtureTaskTools } from '../../tasks/tools';
import { mcpRequest } from '../../support/request';
import type { WorkerEnv } from '../../../src/env';

/** Honours toolsListChanged, and counts its attachments and detachments. */
const counted = { attached: 0, detached: 0 };
const other: Extension = {
  id: 'other',
  install: () => ({
    listen: (listen) => async (request) => {
      const reply = await listen(request);
      if (!reply.listen) return reply;
      const { acknowledgement } = reply.listen;
      return {
        listen: {
          ...reply.listen,
          acknowledgement: {
            ...acknowledgement,
            params: { ...acknowledgement.params, notifications: { toolsListChanged: true } },
          },
          attach: () => (counted.attached++, () => void counted.detached++),
        },
      };
    },
  }),
};

describe('the Tasks extension beside another listen extension', () => {
  it('keeps what the other honours in the acknowledgement, and attaches and detaches it too', async () => {
    const server = createServer(
      {
        info: { name: 'composed', version: '0' },
        tools: fixtureTaskTools,
      },
      [other, durableTasks()],
    );
    const reply = await server.handle(
      mcpRequest(
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'subscriptions/listen',
          params: { notifications: { toolsListChanged: true, taskIds: [] } },
        },
        { protocolVersion: '2026-07-28', clientCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        {
          env: {
            MCP_TASKS: { idFromName: () => ({}), get: () => ({}) },
            MCP_STATE_SECRET: 'unit',
          } as unknown as WorkerEnv,
        },
      ),
    );
    expect(reply.listen?.acknowledgement.params?.notifications).toEqual({ toolsListChanged: true, taskIds: [] });
    const detach = reply.listen?.attach?.(
      () => {},
      () => {},
    );
    expect(counted.attached).toBe(1);
    detach?.();
    expect(counted.detached).toBe(1);
  });
});
