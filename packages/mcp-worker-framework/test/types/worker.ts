/**
 * createWorker returns a Durable Object class per extension that runs in one, under the name the
 * entry exports it as, and nothing in its place when the extension is off (no stand-in class).
 */
import { apps } from '../../src/apps';
import { notifications } from '../../src/notifications';
import { tasks } from '../../src/tasks';
import { createWorker } from '../../src/worker';

declare const definition: Parameters<typeof createWorker>[0];

const plain = createWorker(definition, { extensions: [apps()] });
// @ts-expect-error tasks are off: no McpTask to export
export class NoTask extends plain.McpTask {}
// @ts-expect-error notifications are off: no McpNotifications to export
export class NoHub extends plain.McpNotifications {}
export const onlyFetch: (keyof typeof plain)[] = ['fetch'];

const withTasks = createWorker(definition, { extensions: [apps(), tasks()] });
export class McpTask extends withTasks.McpTask {}
// @ts-expect-error notifications are off
export class StillNoHub extends withTasks.McpNotifications {}

const both = createWorker(definition, { extensions: [tasks(), notifications()] });
export class BothTask extends both.McpTask {}
export class McpNotifications extends both.McpNotifications {}

const none = createWorker(definition);
// @ts-expect-error no extensions, no Durable Object
export class NoneTask extends none.McpTask {}

// Each class keeps its own type: the hub's RPC methods are there to call.
export const hubMethods: (keyof InstanceType<typeof both.McpNotifications>)[] = ['publish', 'deliver'];
