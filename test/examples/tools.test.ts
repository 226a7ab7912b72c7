/** The example tools (src/tools/) in the template Worker, the GitHub API stood in for on loopback. */
import { describe, expect, it } from 'vitest';
import { type Call, type JsonRpcReply, meta, rpc as rpcTo, templateUrl } from '../support/mcp';

const ELICIT = meta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

const rpc = (method: string, call: Call = {}) => rpcTo(method, { url: templateUrl(), ...call });

describe('add', () => {
  it('returns the sum as structured content and as text', async () => {
    const { body } = await rpc('tools/call', { params: { name: 'add', arguments: { a: 2, b: 40 } } });
    expect(body.result).toMatchObject({ content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } });
  });
});

describe('github_repo', () => {
  it('calls an upstream with fetch and returns its data', async () => {
    const { body } = await rpc('tools/call', { params: { name: 'github_repo', arguments: { owner: 'cloudflare', repo: 'workers-sdk' } } });
    expect(body.result?.structuredContent).toMatchObject({ name: 'cloudflare/workers-sdk', stars: 3000, language: 'TypeScript' });
  });

  it('turns upstream failures into tool errors', async () => {
    const missing = await rpc('tools/call', { params: { name: 'github_repo', arguments: { owner: 'acme', repo: 'missing' } } });
    expect(missing.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/does not exist/) }] });
    const broken = await rpc('tools/call', { params: { name: 'github_repo', arguments: { owner: 'acme', repo: 'broken' } } });
    expect(broken.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/HTTP 503/) }] });
  });
});

describe('current_time', () => {
  it('answers in the zone mirrored into Mcp-Param-Timezone', async () => {
    const { status, body } = await rpc('tools/call', {
      params: { name: 'current_time', arguments: { timezone: 'Asia/Tokyo' } },
      headers: { 'Mcp-Param-Timezone': 'Asia/Tokyo' },
    });
    expect(status).toBe(200);
    expect(body.result?.content[0].text).toMatch(/GMT\+9|JST/);
  });

  it('asks for a time zone, or falls back to UTC for clients without forms', async () => {
    const ask = await rpc('tools/call', { params: { name: 'current_time', arguments: {}, _meta: ELICIT } });
    expect(ask.body.result?.inputRequests?.timezone?.method).toBe('elicitation/create');
    const answered = await rpc('tools/call', {
      params: { name: 'current_time', arguments: {}, _meta: ELICIT, inputResponses: { timezone: accept({ timezone: 'Asia/Tokyo' }) } },
    });
    expect(answered.body.result?.content[0].text).toMatch(/GMT\+9|JST/);
    const noForms = await rpc('tools/call', { params: { name: 'current_time', arguments: {} } });
    expect(noForms.body.result?.content[0].text).toMatch(/UTC/);
  });

  it('uses UTC for a legacy client, which cannot be asked', async () => {
    const response = await fetch(templateUrl(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'current_time', arguments: {} } }),
    });
    const body = (await response.json()) as JsonRpcReply;
    expect(body.result?.content[0].text).toMatch(/UTC/);
  });
});
