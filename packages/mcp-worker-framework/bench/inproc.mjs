/**
 * In-process cost: each contender's production bundle imported into Node 22, its fetch
 * handler called directly with prebuilt Requests (and the answer read to the end).
 * Contenders and operations are interleaved in small blocks, in rotating order, so drift
 * (JIT, GC, a busy neighbour) hits every contender alike. Prints median and p99 µs.
 * Request logs are off here (they would print to this process's output).
 */
import { pathToFileURL } from 'node:url';
import { unstable_readConfig as readConfig } from 'wrangler';
import { bundleOf, configOf, gzipBytes } from './build.mjs';
import { expectationFor, isBare, OPS, toRequest } from './requests.mjs';
import { fixed, percentile, ratio, table } from './stats.mjs';

const URL_ = 'http://127.0.0.1/mcp';
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} };

async function load(name) {
  const mod = await import(pathToFileURL(bundleOf(name)).href);
  const env = { ...readConfig({ config: configOf(name) }, { hideWarnings: true }).vars, REQUEST_LOGS: 'off' };
  return (request) => mod.default.fetch(request, env, ctx);
}

/** Runs `jobs` ({ contender, op, fetch }) interleaved; returns µs samples per job. */
export async function measure(jobs, { iterations, warmup, block = 50 }) {
  for (const job of jobs) {
    const response = await job.fetch(toRequest(URL_, job.op));
    const body = await response.text();
    const want = job.expect ?? expectationFor(job.contender, job.op);
    if (response.status !== want.status || !body.includes(want.contains)) {
      throw new Error(`${job.contender} ${job.op}: unexpected answer ${response.status} ${body.slice(0, 200)}`);
    }
    job.samples = [];
  }
  const run = async (job, count, record) => {
    const requests = Array.from({ length: count }, () => toRequest(URL_, job.op));
    for (const request of requests) {
      const start = performance.now();
      await (await job.fetch(request)).arrayBuffer();
      if (record) job.samples.push((performance.now() - start) * 1000);
    }
  };
  for (const [total, record] of [
    [warmup, false],
    [iterations, true],
  ]) {
    for (let done = 0, turn = 0; done < total; done += block, turn++) {
      for (let k = 0; k < jobs.length; k++)
        await run(jobs[(k + turn) % jobs.length], Math.min(block, total - done), record);
    }
  }
  for (const job of jobs) {
    const sorted = job.samples.sort((a, b) => a - b);
    job.median = percentile(sorted, 50);
    job.p99 = percentile(sorted, 99);
  }
  return jobs;
}

export async function inProcess({ iterations = 20_000, warmup = 2_000 } = {}) {
  const contenders = ['template', 'sdk', 'agents', 'bare', 'bare-parse'];
  const handlers = Object.fromEntries(await Promise.all(contenders.map(async (c) => [c, await load(c)])));
  const ops = Object.keys(OPS);
  const jobs = contenders.flatMap((contender) =>
    (isBare(contender) ? ['tools/call'] : ops).map((op) => ({ contender, op, fetch: handlers[contender] })),
  );
  await measure(jobs, { iterations, warmup });
  const find = (c, op) => jobs.find((j) => j.contender === c && j.op === op);
  const bare = find('bare', 'tools/call');
  const parse = find('bare-parse', 'tools/call');
  const rows = ops.map((op) => {
    const t = find('template', op);
    const sdk = find('sdk', op);
    const agents = find('agents', op);
    // Net of the runtime floor: what each spends above a Worker that only reads the body and answers.
    const net = (job) => job.median - bare.median;
    return [
      op,
      `${fixed(t.median)} / ${fixed(t.p99)}`,
      `${fixed(sdk.median)} / ${fixed(sdk.p99)}`,
      `${fixed(agents.median)} / ${fixed(agents.p99)}`,
      `${fixed(bare.median)} / ${fixed(bare.p99)}`,
      `${fixed(parse.median)} / ${fixed(parse.p99)}`,
      ratio(sdk.median, t.median),
      ratio(agents.median, t.median),
      `${ratio(net(sdk), net(t))} / ${ratio(net(agents), net(t))}`,
    ];
  });
  return table(
    [
      'operation',
      'template µs median / p99',
      'sdk µs',
      'agents µs',
      'bare µs',
      'bare + parse µs',
      'sdk ÷ template',
      'agents ÷ template',
      'net of bare: sdk / agents ÷ template',
    ],
    rows,
  );
}

/** The template with 10, 100, 1,000 tools: tools/list (first page) and tools/call of the last tool. */
export async function growth({ iterations = 10_000, warmup = 1_000 } = {}) {
  const counts = [10, 100, 1000];
  const jobs = [];
  for (const count of counts) {
    const fetch = await load(`growth-${count}`);
    // tools/list's first page shows the first 50 tools; echo is the last tool, called by name
    jobs.push({
      contender: 'template',
      count,
      op: 'tools/list',
      fetch,
      expect: { status: 200, contains: '"tools":[' },
    });
    jobs.push({ contender: 'template', count, op: 'tools/call', fetch });
  }
  await measure(jobs, { iterations, warmup });
  const at = (count, op) => jobs.find((j) => j.count === count && j.op === op);
  return table(
    ['tools registered', 'tools/list µs (median / p99)', 'tools/call µs (median / p99)', 'bundle gzip bytes'],
    counts.map((count) => [
      String(count),
      `${fixed(at(count, 'tools/list').median)} / ${fixed(at(count, 'tools/list').p99)}`,
      `${fixed(at(count, 'tools/call').median)} / ${fixed(at(count, 'tools/call').p99)}`,
      String(gzipBytes(bundleOf(`growth-${count}`))),
    ]),
  );
}
