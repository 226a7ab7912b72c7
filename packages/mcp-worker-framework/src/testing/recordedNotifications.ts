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
import { type Change, type ListKind, uriOf } from '../notifications/change';

export interface RecordedNotifications {
  /** Every change the hub took, in order, as `notify` was given it. */
  readonly changes: Change[];
  /** The part of a Durable Object namespace `notify` uses. */
  idFromName(name: string): string;
  get(id: string): { publish(topic: string): Promise<void> };
}

export function recordedNotifications(): RecordedNotifications {
  const changes: Change[] = [];
  return {
    changes,
    idFromName: (name) => name,
    get: () => ({
      publish: async (topic) => {
        const uri = uriOf(topic);
        changes.push(
          uri === undefined ? { listChanged: topic.slice('list:'.length) as ListKind } : { resourceUpdated: uri },
        );
      },
    }),
  };
}
