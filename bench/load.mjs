/**
 * End to end under workerd: each contender's bundle served by the `workerd` binary alone
 * (no wrangler proxy) on loopback, loaded by autocannon at fixed concurrency for a fixed
 * time, in interleaved rounds. Bounded: every run stops at its duration (watchdog + 15 s).
 */
import autocannon from 'autocannon';
import { serveWithWorkerd } from '../scripts/workerd.mjs';
import { configOf, outDir } from './build.mjs';
import { expectationFor, OPS, wireHeaders } from './requests.mjs';
import { fixed, ratio, table } from './stats.mjs';

function run(url, op, { connections, seconds }) {
  if (!/^http:\/\/127\./.test(url)) throw new Error(`refusing a non-loopback target: ${url}`);
  const { method, body } = OPS[op];
  const headers = wireHeaders(op);
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, method, headers, body, connections, duration: seconds, timeout: 10 }, (error, result) => {
      clearTimeout(watchdog);
      if (error) reject(error);
      else resolve(result);
    });
    const watchdog = setTimeout(() => instance.stop(), (seconds + 15) * 1000);
  });
}

export async function underWorkerd({ rounds = 3, seconds = 3, connections = 32 } = {}) {
  const contenders = ['template', 'sdk', 'agents', 'bare'];
  const servers = {};
  for (const name of contenders) servers[name] = await serveWithWorkerd({ config: configOf(name), bundle: outDir(name) });
  const ops = Object.keys(OPS);
  const results = {};
  const record = (key, r, expectedStatus) => {
    const entry = (results[key] ??= { rps: [], p50: [], p99: [], errors: 0, unexpected: 0, total: 0 });
    entry.rps.push(r.requests.average);
    entry.p50.push(r.latency.p50);
    entry.p99.push(r.latency.p99);
    entry.errors += r.errors + r.timeouts;
    const wanted = r.statusCodeStats?.[expectedStatus]?.count ?? 0;
    entry.total += r.requests.total;
    entry.unexpected += Math.max(0, r.requests.total - wanted);
  };
  try {
    for (const name of contenders) {
      const response = await fetch(`${servers[name].url}/mcp`, { method: 'POST', headers: wireHeaders('tools/call'), body: OPS['tools/call'].body });
      if (!(await response.text()).includes(expectationFor(name, 'tools/call').contains)) throw new Error(`${name} does not answer tools/call`);
      await run(`${servers[name].url}/mcp`, 'tools/call', { connections, seconds: 1 }); // warm up
    }
    for (let round = 0; round < rounds; round++) {
      // operations and contenders both rotate, so no one always runs first after a switch
      for (const op of [...ops.slice(round % ops.length), ...ops.slice(0, round % ops.length)]) {
        // the bare Worker runs beside each operation, so "of bare" compares runs seconds apart
        const order = ['template', 'sdk', 'agents', 'bare'];
        for (let k = 0; k < order.length; k++) {
          const name = order[(k + round) % order.length];
          const expected = name === 'bare' ? 200 : OPS[op].expect.status;
          record(`${name} ${op}`, await run(`${servers[name].url}/mcp`, name === 'bare' ? 'tools/call' : op, { connections, seconds }), expected);
        }
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  // The median round: one disturbed run on a shared machine does not move it.
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const rows = ops.map((op) => {
    const rps = Object.fromEntries(contenders.map((name) => [name, median(results[`${name} ${op}`].rps)]));
    const t = results[`template ${op}`];
    const errors = contenders.reduce((sum, name) => sum + results[`${name} ${op}`].errors + results[`${name} ${op}`].unexpected, 0);
    return [
      op,
      fixed(rps.template, 0),
      `${fixed(mean(t.p50), 0)} / ${fixed(mean(t.p99), 0)}`,
      fixed(rps.sdk, 0),
      fixed(rps.agents, 0),
      fixed(rps.bare, 0),
      ratio(rps.template, rps.sdk),
      ratio(rps.template, rps.agents),
      `${fixed((rps.template / rps.bare) * 100, 0)}%`,
      String(errors),
    ];
  });
  return table(
    ['operation', 'template req/s (median round)', 'template ms p50 / p99', 'sdk req/s', 'agents req/s', 'bare req/s', 'template ÷ sdk', 'template ÷ agents', 'template of bare', 'errors (all)'],
    rows,
  );
}
