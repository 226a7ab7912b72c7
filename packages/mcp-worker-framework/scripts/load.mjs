/**
 * `npm run load`: the Worker under load, bounded in time and count, on loopback only. The
 * template (the repository's root) and the test fixture are built and served by the `workerd` binary itself; a
 * separate process (this one) sends, at high concurrency, a mix of valid and invalid
 * requests, then streaming (progress) calls half of which disconnect mid-stream. Prints
 * throughput, latency percentiles and answers by status; exits 1 if any valid request
 * failed, any answer was a 5xx, or the Worker stopped answering.
 * Options (env): LOAD_SECONDS (default 10 per phase), LOAD_CONCURRENCY (64), LOAD_MAX (200000).
 */
import { join, resolve } from 'node:path';
import { buildBundle, serveWithWorkerd } from './workerd.mjs';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY ?? 64);
const MAX_REQUESTS = Number(process.env.LOAD_MAX ?? 200_000);

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const headers = (method, name) => ({
  'content-type': 'application/json',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});
const rpc = (method, params = {}, name) => ({
  headers: headers(method, name),
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }),
});

/** The mix: what is sent, and the status (and JSON-RPC code) it must get. */
const MIX = [
  { kind: 'discover', ...rpc('server/discover'), status: 200, valid: true },
  { kind: 'tools/list', ...rpc('tools/list'), status: 200, valid: true },
  {
    kind: 'tools/call',
    ...rpc('tools/call', { name: 'add', arguments: { a: 1, b: 2 } }, 'add'),
    status: 200,
    valid: true,
  },
  {
    kind: 'resources/read',
    ...rpc('resources/read', { uri: 'time://zones' }, 'time://zones'),
    status: 200,
    valid: true,
  },
  { kind: 'bad JSON', headers: headers('server/discover'), body: '{"jsonrpc":', status: 400, code: -32700 },
  {
    kind: 'header mismatch',
    headers: headers('tools/list'),
    body: rpc('server/discover').body,
    status: 400,
    code: -32020,
  },
  {
    kind: 'missing _meta',
    headers: headers('server/discover'),
    body: '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}',
    status: 400,
    code: -32602,
  },
  { kind: 'unknown method', ...rpc('no/such'), status: 404, code: -32601 },
  {
    kind: 'old version',
    headers: { ...headers('server/discover'), 'mcp-protocol-version': '1900-01-01' },
    body: rpc('server/discover').body.replace('2026-07-28', '1900-01-01'),
    status: 400,
    code: -32022,
  },
  {
    kind: 'batch',
    headers: headers('server/discover'),
    body: '[{"jsonrpc":"2.0","id":1,"method":"server/discover"}]',
    status: 400,
    code: -32600,
  },
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** Closed-loop load: CONCURRENCY workers, each sending the next request as soon as it has an answer. */
async function phase(label, seconds, send) {
  const deadline = Date.now() + seconds * 1000;
  const stats = { sent: 0, statuses: {}, failures: [], latencies: [] };
  const worker = async (w) => {
    for (let i = w; Date.now() < deadline && stats.sent < MAX_REQUESTS; i += CONCURRENCY) {
      stats.sent++;
      const start = performance.now();
      try {
        const { status, problem } = await send(i);
        stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
        if (problem && stats.failures.length < 20) stats.failures.push(problem);
        if (problem) stats.failed = (stats.failed ?? 0) + 1;
      } catch (error) {
        stats.statuses.error = (stats.statuses.error ?? 0) + 1;
        stats.failed = (stats.failed ?? 0) + 1;
        if (stats.failures.length < 20) stats.failures.push(String(error?.cause?.code ?? error));
      }
      stats.latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  const sorted = stats.latencies.sort((a, b) => a - b);
  const fivexx = Object.entries(stats.statuses)
    .filter(([s]) => s >= '500' && s < '600')
    .reduce((n, [, c]) => n + c, 0);
  console.log(`\n## ${label}`);
  console.log(
    `requests ${stats.sent} in ${elapsed.toFixed(1)} s = ${(stats.sent / elapsed).toFixed(0)}/s, concurrency ${CONCURRENCY}`,
  );
  console.log(
    `latency ms p50 ${percentile(sorted, 50).toFixed(1)}, p90 ${percentile(sorted, 90).toFixed(1)}, p99 ${percentile(sorted, 99).toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)}`,
  );
  console.log(`answers by status ${JSON.stringify(stats.statuses)}; 5xx ${fivexx}; unexpected ${stats.failed ?? 0}`);
  for (const failure of stats.failures) console.log(`  ! ${failure}`);
  return fivexx === 0 && !stats.failed;
}

// The workerd binary itself, not the test kit: an entry Worker in front would cap the load it takes.
// The template is the repository's root, around this package; its build runs there.
const repository = resolve(import.meta.dirname, '../../..');
const templateConfig = join(repository, 'wrangler.toml');
const template = await serveWithWorkerd({
  config: templateConfig,
  bundle: buildBundle(templateConfig, undefined, repository),
  vars: { MCP_STATE_SECRET: 'load test' },
});
const fixture = await serveWithWorkerd({ config: 'test/conformance/wrangler.toml' });
let ok = true;
try {
  ok &&= await phase(`mixed valid and invalid requests (template, ${MIX.length} kinds)`, SECONDS, async (i) => {
    const request = MIX[i % MIX.length];
    const response = await fetch(`${template.url}/mcp`, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
    });
    const text = await response.text();
    let problem;
    if (response.status !== request.status)
      problem = `${request.kind}: status ${response.status} ${text.slice(0, 120)}`;
    else if (request.code !== undefined && JSON.parse(text).error?.code !== request.code)
      problem = `${request.kind}: ${text.slice(0, 120)}`;
    return { status: response.status, problem };
  });

  const stream = (token) => ({
    headers: headers('tools/call', 'test_tool_with_progress'),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: token,
      method: 'tools/call',
      params: { name: 'test_tool_with_progress', arguments: {}, _meta: { ...META, progressToken: token } },
    }),
  });
  ok &&= await phase(
    'streaming progress, half the clients disconnecting after the first event (conformance fixture)',
    SECONDS,
    async (i) => {
      const controller = new AbortController();
      const response = await fetch(`${fixture.url}/mcp`, { method: 'POST', ...stream(i), signal: controller.signal });
      const reader = response.body.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      if (!first.includes('notifications/progress'))
        return { status: response.status, problem: `no progress first: ${first.slice(0, 120)}` };
      if (i % 2 === 0) {
        controller.abort();
        return { status: response.status };
      }
      let text = first;
      for (let next = await reader.read(); !next.done; next = await reader.read())
        text += new TextDecoder().decode(next.value);
      return {
        status: response.status,
        problem: text.includes('Progress complete')
          ? undefined
          : `stream ended without the result: ${text.slice(-120)}`,
      };
    },
  );

  const health = await fetch(`${template.url}/mcp`, { method: 'POST', headers: MIX[0].headers, body: MIX[0].body });
  console.log(`\nafter the load: discover answers ${health.status}`);
  ok &&= health.status === 200;
} finally {
  await Promise.all([template.stop(), fixture.stop()]);
}
console.log(ok ? '\nload: OK (no 5xx, every valid request answered correctly)' : '\nload: FAILED');
process.exit(ok ? 0 : 1);
