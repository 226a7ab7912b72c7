/**
 * The test kit: test your own tools, resources and prompts in a few lines (README, "Test your tool").
 * `specCheck(worker)` registers the vitest tests that the Worker answers as the spec says, every
 * expected value taken from the server under test (a fork's test/spec.test.ts).
 * `testClient` calls the Worker's fetch in process; `startInWorkerd` runs it in workerd as wrangler builds it,
 * and serves it on loopback (`${worker.url}/mcp`) for a client that needs a URL (`atUrl`).
 * A task tool is tested with the client's `tasks` methods (`start`, `get`, `waitFor`); sign-in and views have kits of
 * their own: `mcp-worker-framework/testing/signin` and `mcp-worker-framework/testing/browser`.
 */
export {
  atUrl,
  JsonRpcError,
  TASKS,
  testClient,
  type Answer,
  type CallOptions,
  type CreateTaskResult,
  type DetailedTask,
  type FetchTarget,
  type JsonResult,
  type Notification,
  type TestClient,
  type TestClientOptions,
  type ToolAnswer,
  type ToolCallResult,
} from './testClient.js';
export { type RecordedChange, type RecordedNotifications, recordedNotifications } from './recordedNotifications.js';
export { breaking, type SpecCheckOptions, specCheck } from './specCheck.js';
export { readEvents, type Message } from './events.js';
export { textOf } from './textOf.js';
export {
  startInWorkerd,
  type DurableObjectStorage,
  type WorkerdOptions,
  type WorkerInWorkerd,
} from './startInWorkerd.js';
/** The tasks helpers of 1.0, deprecated: the client's `tasks` methods replace them (./tasks.ts). */
export { type Json, request, rpc, type TaskCall, type TaskReply, waitFor } from './tasks.js';
