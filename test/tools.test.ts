/** The example tools (src/tools/), tested with the test kit as a fork tests its own. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import worker from '../src/index';
import { startInWorkerd, testClient, textOf, type WorkerInWorkerd } from 'mcp-worker-framework/testing';

const mcp = testClient(worker);
const elicitation = { elicitation: {} };

describe('add', () => {
  it('returns the sum as structured content and as text', async () => {
    const { result } = await mcp.callTool('add', { a: 2, b: 40 });
    expect(result).toMatchObject({ content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } });
  });

  it('reports arguments that break its schema as a tool error', async () => {
    const { result } = await mcp.callTool('add', { a: 'two', b: 2 });
    expect(result.isError).toBe(true);
  });
});

describe('github_repo, the GitHub API answered by a mock in workerd', () => {
  const repos: Record<string, () => Response> = {
    '/repos/cloudflare/workers-sdk': () =>
      Response.json({
        full_name: 'cloudflare/workers-sdk',
        description: 'Home to Wrangler',
        stargazers_count: 3000,
        forks_count: 700,
        language: 'TypeScript',
        html_url: 'https://github.com/cloudflare/workers-sdk',
      }),
    '/repos/acme/broken': () => new Response(null, { status: 503 }),
  };
  /** Every path the tool asked the mock for. */
  const asked: string[] = [];
  let inWorkerd: WorkerInWorkerd;
  beforeAll(async () => {
    inWorkerd = await startInWorkerd({
      vars: { GITHUB_API_URL: 'https://github.test', REQUEST_LOGS: 'off' },
      outbound: (request) => {
        asked.push(new URL(request.url).pathname);
        const answer = repos[new URL(request.url).pathname];
        return answer ? answer() : Response.json({ message: 'Not Found' }, { status: 404 });
      },
    });
  }, 120_000);
  afterAll(() => inWorkerd?.dispose());

  it('looks a repository up and returns its data', async () => {
    const { result } = await testClient(inWorkerd).callTool('github_repo', {
      owner: 'cloudflare',
      repo: 'workers-sdk',
    });
    expect(result.structuredContent).toMatchObject({
      name: 'cloudflare/workers-sdk',
      stars: 3000,
      language: 'TypeScript',
    });
  });

  it.each([
    ['..', 'admin'],
    ['.', 'admin'],
    ['cloudflare', '..'],
    ['cloudflare', '.'],
    ['-cloudflare', 'workers-sdk'],
    ['cloud--flare', 'workers-sdk'],
    ['cloudflare', 'workers-sdk?x=1'],
    ['cloudflare', 'a/b'],
    ['%2e%2e', 'admin'],
  ])('refuses owner %j, repository %j (names GitHub does not allow) before any upstream call', async (owner, repo) => {
    const before = asked.length;
    const { result } = await testClient(inWorkerd).callTool('github_repo', { owner, repo });
    expect(result.isError).toBe(true);
    expect(asked.slice(before)).toEqual([]);
  });

  it('turns upstream failures into tool errors', async () => {
    const github = testClient(inWorkerd);
    const missing = await github.callTool('github_repo', { owner: 'acme', repo: 'missing' });
    expect(missing.result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/does not exist/) }],
    });
    const broken = await github.callTool('github_repo', { owner: 'acme', repo: 'broken' });
    expect(broken.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/HTTP 503/) }] });
  });
});

describe('current_time', () => {
  it('answers in the zone it is given (mirrored into Mcp-Param-Timezone)', async () => {
    const { result } = await mcp.callTool('current_time', { timezone: 'Asia/Tokyo' });
    expect(textOf(result)).toMatch(/GMT\+9|JST/);
  });

  it('asks for a time zone when the client can show a form, and answers from the reply', async () => {
    const ask = await mcp.callTool('current_time', {}, { capabilities: elicitation });
    expect(ask.result.inputRequests?.timezone).toMatchObject({ method: 'elicitation/create' });
    const inputResponses = { timezone: { action: 'accept', content: { timezone: 'Asia/Tokyo' } } };
    const answered = await mcp.callTool('current_time', {}, { capabilities: elicitation, inputResponses });
    expect(textOf(answered.result)).toMatch(/GMT\+9|JST/);
  });

  it('falls back to UTC for a client without forms, and for a legacy client', async () => {
    expect(textOf((await mcp.callTool('current_time')).result)).toMatch(/UTC/);
    const legacy = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'current_time', arguments: {} },
      }),
    });
    const reply = (await (
      await worker.fetch(legacy as never, { MCP_STATE_SECRET: 'test' } as never, {} as ExecutionContext)
    ).json()) as { result: { content: { text: string }[] } };
    expect(reply.result.content[0]?.text).toMatch(/UTC/);
  });
});
