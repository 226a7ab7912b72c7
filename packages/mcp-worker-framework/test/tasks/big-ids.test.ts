/**
 * An integer id beyond 2^53 through the Tasks extension (the task fixture in workerd): the
 * request that creates a task, `tasks/get`, a refusal (whose log line, with REQUEST_LOGS =
 * "errors", is written), and the subscription id a listen stream tags its messages with are
 * all the id's exact digits (spec 2026-07-28 basic/index: the response MUST include the same id).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpHeaders, meta } from '../support/mcp';
import { rpc, startFixture, TASKS, type Fixture } from './harness';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture?.worker.dispose());

/** POSTs a request whose id is the source text `id`, as alice, declaring the Tasks extension. */
function send(id: string, method: string, params: Record<string, unknown>, name?: string): Promise<Response> {
  const body = {
    ...params,
    _meta: meta({ 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } } }),
  };
  return fetch(fixture.url, {
    method: 'POST',
    headers: mcpHeaders(method, name, { Authorization: 'Bearer alice' }),
    body: `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(body)}}`,
  });
}

describe('an integer id beyond 2^53 with tasks', () => {
  it('is echoed by the request that creates a task, by tasks/get and by a refusal', async () => {
    const created = await (
      await send('12345678901234567890123', 'tools/call', { name: 'work', arguments: { ms: 5000 } }, 'work')
    ).text();
    expect(
      created.startsWith('{"jsonrpc":"2.0","id":12345678901234567890123,"result":{"resultType":"task"'),
      created,
    ).toBe(true);
    const taskId = (JSON.parse(created) as { result: { taskId: string } }).result.taskId;

    const got = await (await send('-98765432109876543210', 'tasks/get', { taskId }, taskId)).text();
    expect(got.startsWith('{"jsonrpc":"2.0","id":-98765432109876543210,"result":{'), got).toBe(true);

    const unknown = 'A'.repeat(32);
    const refused = await send('55555555555555555555555', 'tasks/get', { taskId: unknown }, unknown);
    expect(refused.status).toBeLessThan(500);
    expect(await refused.text()).toMatch(/^\{"jsonrpc":"2\.0","id":55555555555555555555555,"error":\{"code":-326\d\d,/);
    await rpc(fixture.url, 'tasks/cancel', { taskId });
  });

  it('is the subscription id of a listen stream, digit for digit', async () => {
    const created = await rpc(fixture.url, 'tools/call', { name: 'work', arguments: { ms: 5000 } });
    const taskId = created.result!.taskId as string;
    const listen = await send('77777777777777777777777', 'subscriptions/listen', {
      notifications: { taskIds: [taskId] },
    });
    const reader = listen.body!.pipeThrough(new TextDecoderStream()).getReader();
    const timer = setTimeout(() => void reader.cancel(), 5_000);
    let text = '';
    try {
      // the acknowledgement, then the task's first status notification
      while (!text.includes('notifications/tasks')) {
        const next = await reader.read();
        if (next.done) break;
        text += next.value;
      }
    } finally {
      clearTimeout(timer);
      await reader.cancel().catch(() => {});
    }
    expect(text).toContain('"notifications/subscriptions/acknowledged"');
    expect(text).toContain('notifications/tasks');
    const tags = text.match(/"io\.modelcontextprotocol\/subscriptionId":[^,}]+/g);
    expect(tags?.length).toBeGreaterThanOrEqual(2);
    expect(new Set(tags)).toEqual(new Set(['"io.modelcontextprotocol/subscriptionId":77777777777777777777777']));
    await rpc(fixture.url, 'tasks/cancel', { taskId });
  });
});
