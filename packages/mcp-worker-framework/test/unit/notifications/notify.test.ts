/**
 * `notify` (src/notifications/notify.ts) in process, with a hub namespace that records what it is
 * asked: the change checked before any object is addressed, the binding required, one coordinator
 * per topic, and a coordinator's refusal surfaced to the caller, never dropped.
 */
import { describe, expect, it } from 'vitest';
import { createWorker } from '../../../src/createWorker';
import { defineTool, text } from '../../../src/mcp';
import { notifications } from '../../../src/notifications';
import { NOTIFICATION_LIMITS } from '../../../src/notifications/notificationLimits';
import { recordedNotifications } from '../../../src/testing/recordedNotifications';
import { testClient } from '../../../src/testing/testClient';
import { notify } from '../../../src/notifications/notify';
import type { WorkerEnv } from '../../../src/env';

/** A hub namespace whose coordinators record the topics published, or refuse them. */
function hub(refusal?: Error) {
  const published: { object: string; topic: string }[] = [];
  const namespace = {
    idFromName: (name: string) => name,
    get: (object: string) => ({
      publish: async (topic: string) => {
        if (refusal) throw refusal;
        published.push({ object, topic });
      },
    }),
  };
  return { published, env: { MCP_NOTIFICATIONS: namespace } as unknown as WorkerEnv };
}

describe('notify', () => {
  it('publishes a resource change and a list change through a coordinator, the same one for each repeat of a change', async () => {
    const { published, env } = hub();
    await notify(env, { resourceUpdated: 'file:///a' });
    await notify(env, { listChanged: 'tools' });
    await notify(env, { resourceUpdated: 'file:///a' });
    expect(published.map((p) => p.topic)).toEqual(['resource:file:///a', 'list:tools', 'resource:file:///a']);
    expect(published[0]!.object).toMatch(/^publish:\d$/);
    expect(published[2]!.object).toBe(published[0]!.object);
  });

  it('refuses what is not a change with a TypeError, before any object is addressed', async () => {
    const { published, env } = hub();
    const bad = [
      {},
      { resourceUpdated: 7 },
      { resourceUpdated: '' },
      { resourceUpdated: 'x'.repeat(NOTIFICATION_LIMITS.uriChars + 1) },
      { listChanged: 'roots' },
      { resourceUpdated: 'file:///a', listChanged: 'tools' },
    ];
    for (const change of bad) await expect(notify(env, change as never)).rejects.toBeInstanceOf(TypeError);
    expect(published).toEqual([]);
  });

  it('throws, naming the binding, when the deployment has no hub', async () => {
    await expect(notify({} as WorkerEnv, { listChanged: 'tools' })).rejects.toThrow(/binding MCP_NOTIFICATIONS/);
    const { env } = hub();
    await expect(notify(env, { listChanged: 'tools' }, { binding: 'OTHER_HUB' })).rejects.toThrow(/binding OTHER_HUB/);
  });

  it('answers a tool that notifies without a hub (in process, no workerd) with an error naming the binding, not "Internal error"', async () => {
    const touch = defineTool({
      name: 'touch',
      inputSchema: { type: 'object' },
      handler: async (_, { env }) => {
        await notify(env, { listChanged: 'tools' });
        return text('touched');
      },
    });
    const worker = createWorker(
      { info: { name: 'no-hub', version: '1' }, tools: [touch] },
      { extensions: [notifications()] },
    );
    await expect(testClient(worker).callTool(touch)).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/binding MCP_NOTIFICATIONS .*wrangler\.toml.*startInWorkerd/),
      data: { binding: 'MCP_NOTIFICATIONS' },
    });
  });

  it("records what a tool notified in process, on the test kit's stand-in hub", async () => {
    const rename = defineTool({
      name: 'rename',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      handler: async ({ id }, { env }) => {
        await notify(env, { resourceUpdated: `docs://${id}` });
        await notify(env, { listChanged: 'resources' });
        return text('renamed');
      },
    });
    const worker = createWorker(
      { info: { name: 'recorded', version: '1' }, tools: [rename] },
      { extensions: [notifications()] },
    );
    const hub = recordedNotifications();
    await testClient(worker, { env: { MCP_NOTIFICATIONS: hub } }).callTool(rename, { id: 'handbook' });
    expect(hub.changes).toEqual([{ resourceUpdated: 'docs://handbook' }, { listChanged: 'resources' }]);
  });

  it('throws when the hub does not accept the change, with the hub’s reason as its cause', async () => {
    const reason = new Error('1 of 8 hub shards did not take the change');
    const { env } = hub(reason);
    const failure = await notify(env, { resourceUpdated: 'file:///a' }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/did not accept the change \(resource:file:\/\/\/a\)/);
    expect((failure as Error).cause).toBe(reason);
  });
});
