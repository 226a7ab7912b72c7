/**
 * `npm run smoke -- <url> [--call name --args '{"k":"v"}']`: checks any MCP endpoint, local
 * or deployed, the way a client in mode `auto` connects: it probes `server/discover` and
 * falls back to `initialize` when the answer is not a modern one. Prints the era, the
 * negotiated version, serverInfo, capabilities, the Cache-Control of the discover answer and
 * the tools, and calls one tool if asked. Exits 1 with a readable reason when the endpoint
 * is unreachable or misbehaves. Built on the official client (@modelcontextprotocol/client).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

function usage(message) {
  if (message) console.error(`smoke: ${message}`);
  console.error('usage: npm run smoke -- <url> [--call <tool> --args <json>] [--header "Name: value"]...');
  process.exit(2);
}

const args = process.argv.slice(2);
let url;
let call;
let callArgs = {};
const headers = {};
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--call') call = args[++i];
  else if (arg === '--args') {
    try {
      callArgs = JSON.parse(args[++i] ?? '');
    } catch {
      usage('--args must be a JSON object');
    }
  } else if (arg === '--header') {
    const [name, ...value] = (args[++i] ?? '').split(':');
    headers[name.trim()] = value.join(':').trim();
  } else if (!url) url = arg;
  else usage(`unexpected argument ${arg}`);
}
if (!url) usage('missing the endpoint URL');
try {
  url = new URL(url);
} catch {
  usage(`not a URL: ${url}`);
}

/** Remembers the Cache-Control of the discover (or initialize) answer. */
const seen = {};
const transport = new StreamableHTTPClientTransport(url, {
  requestInit: { headers },
  fetch: async (input, init) => {
    const response = await fetch(input, init);
    const method =
      new Headers(init?.headers).get('Mcp-Method') ?? (typeof init?.body === 'string' && JSON.parse(init.body).method);
    if ((method === 'server/discover' || method === 'initialize') && response.ok)
      seen.cacheControl ??= response.headers.get('Cache-Control');
    return response;
  },
});
const client = new Client({ name: 'mcp-smoke', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });

const fail = (what, error) => {
  const cause = error?.cause?.code ?? error?.cause?.message ?? '';
  console.error(`smoke: FAILED ${what}: ${error?.message ?? error}${cause ? ` (${cause})` : ''}`);
  process.exit(1);
};
const show = (label, value) =>
  console.log(`${label.padEnd(14)} ${typeof value === 'string' ? value : JSON.stringify(value)}`);

try {
  await client.connect(transport);
} catch (error) {
  fail(`to connect to ${url.href}`, error);
}
show('endpoint', url.href);
show('era', client.getProtocolEra() ?? 'unknown');
show('version', client.getNegotiatedProtocolVersion() ?? 'unknown');
show('serverInfo', client.getServerVersion() ?? '(none)');
show('capabilities', client.getServerCapabilities() ?? {});
show('cache-control', seen.cacheControl ?? '(none)');
if (client.getServerCapabilities()?.tools) {
  try {
    const { tools } = await client.listTools();
    show('tools', tools.map((t) => t.name).join(', ') || '(none)');
  } catch (error) {
    fail('tools/list', error);
  }
}
if (call) {
  try {
    const result = await client.callTool({ name: call, arguments: callArgs });
    show(`call ${call}`, result.structuredContent ?? result.content);
    if (result.isError) fail(`tools/call ${call}`, 'the tool reported an error');
  } catch (error) {
    fail(`tools/call ${call}`, error);
  }
}
await client.close();
console.log('smoke: OK');
