/**
 * `recordedNotifications()`: the notifications hub stood in for, in process (`testClient` on the
 * Worker, no workerd): given as the hub's binding, it records each change `notify` was given, so a
 * test asserts what a tool or a route told listeners without a Durable Object
 * (docs/notifications.md, "Test a tool that notifies"). What listeners then hear is workerd's
 * part: `startInWorkerd` runs the real hub.
 *
 *   const hub = recordedNotifications();
 *   const mcp = testClient(worker, { env: { MCP_NOTIFICATIONS: hub } });
 *   await mcp.callTool(renameDoc, { id: 'handbook', title: 'Handbook' });
 *   expect(hub.changes).toEqual([{ resourceUpdated: 'docs://handbook' }]);
 */

/**
 * A change as `notify` takes it (`Change` of `mcp-worker-framework/notifications`), written here
 * because the kit imports nothing of the Worker's layers (test/unit/import-graph.test.ts); the
 * test of `notify` on this stand-in keeps the two in step.
 */
export type RecordedChange = { resourceUpdated: string } | { listChanged: 'tools' | 'prompts' | 'resources' };

/** How the hub carries a change (`topicOf` of src/notifications/change.ts): `resource:<uri>` or `list:<kind>`. */
const RESOURCE = 'resource:';
const LIST = 'list:';

export interface RecordedNotifications {
  /** Every change the hub took, in order, as `notify` was given it. */
  readonly changes: RecordedChange[];
  /** The part of a Durable Object namespace `notify` uses. */
  idFromName(name: string): string;
  get(id: string): { publish(topic: string): Promise<void> };
}

export function recordedNotifications(): RecordedNotifications {
  const changes: RecordedChange[] = [];
  return {
    changes,
    idFromName: (name) => name,
    get: () => ({
      publish: async (topic) => {
        changes.push(
          topic.startsWith(RESOURCE)
            ? { resourceUpdated: topic.slice(RESOURCE.length) }
            : { listChanged: topic.slice(LIST.length) as 'tools' | 'prompts' | 'resources' },
        );
      },
    }),
  };
}
