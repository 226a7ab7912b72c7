/**
 * Notifications beside tasks, as a fork turns both on in src/index.ts (./composed.worker.ts): one
 * listen stream honours a list change and task ids together, and a route of the fork's own
 * notifies it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';
import { requestsTo } from '../support/mcp';
import { readEvents } from '../tasks/harness';

const TASKS = 'io.modelcontextprotocol/tasks';
let worker: WorkerInWorkerd;
beforeAll(async () => {
  worker = await startInWorkerd({
    config: 'test/notifications/composed.wrangler.toml',
    vars: { AUTH_MODE: 'bearer' },
    secrets: { MCP_BEARER_TOKEN: 'composed', MCP_STATE_SECRET: 'composed' },
  });
});
afterAll(() => worker?.dispose());

const asCaller = { Authorization: 'Bearer composed' };

describe('notifications beside tasks', () => {
  it('advertises listChanged and the Tasks extension, and no extension for notifications', async () => {
    const { body } = await requestsTo(`${worker.url}/mcp`).rpc('server/discover', { headers: asCaller });
    expect(body.result?.capabilities).toEqual({ tools: { listChanged: true }, extensions: { [TASKS]: {} } });
  });

  it('honours a list change and task ids on one stream, and delivers the change a route of the fork notifies', async () => {
    const response = await requestsTo(`${worker.url}/mcp`).post('subscriptions/listen', {
      id: 'both',
      params: { notifications: { toolsListChanged: true, taskIds: [] } },
      capabilities: { extensions: { [TASKS]: {} } },
      headers: asCaller,
    });
    let notified = false;
    const messages = await readEvents(response, (message) => {
      if (message.method === 'notifications/subscriptions/acknowledged' && !notified) {
        notified = true;
        void fetch(`${worker.url}/webhooks/tools`, { method: 'POST' });
      }
      return message.method === 'notifications/tools/list_changed';
    });
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: { toolsListChanged: true, taskIds: [] },
          _meta: { 'io.modelcontextprotocol/subscriptionId': 'both' },
        },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'both' } },
      },
    ]);
  });
});
