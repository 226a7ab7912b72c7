/**
 * Cold start under workerd: the time from spawning `workerd serve` to the first answered
 * `tools/list`, polled every millisecond: process start, module evaluation and the first request.
 * Beside it, the CPU time workerd spent until then (its threads' /proc schedstat, in ns), which
 * neighbours on a shared machine do not stretch. Contenders alternate run by run; the median of
 * `runs` per contender. Bounded: 10 s per start.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { workerdBinary } from '../scripts/workerd.mjs';
import { OPS, wireHeaders } from './requests.mjs';

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** One POST of tools/list; resolves with the status, or 0 when nothing listens yet. */
const ask = (url) =>
  new Promise((done) => {
    const { body } = OPS['tools/list'];
    const req = request(
      `${url}/mcp`,
      {
        method: 'POST',
        headers: { ...wireHeaders('tools/list'), 'content-length': Buffer.byteLength(body) },
        agent: false,
      },
      (res) => {
        res.resume();
        res.once('end', () => done(res.statusCode));
      },
    );
    req.once('error', () => done(0));
    req.end(body);
  });

/** CPU ms a process has run so far: the sum over its threads of /proc/<pid>/task/<tid>/schedstat's first field. */
function cpuMs(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1e6;
}

async function startOnce({ configFile, url }) {
  const started = performance.now();
  const child = spawn(workerdBinary(), ['serve', configFile], { stdio: 'ignore' });
  try {
    while (performance.now() - started < 10_000) {
      if ((await ask(url)) === 200) return { wall: performance.now() - started, cpu: cpuMs(child.pid) };
      if (child.exitCode !== null) throw new Error(`workerd exited with ${child.exitCode}`);
      await sleep(1);
    }
    throw new Error(`no answer from ${url} within 10 s`);
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    if (child.exitCode === null) await exited;
  }
}

/**
 * `targets`: name → { configFile, url } of a stopped server (serveWithWorkerd's config, its port
 * free again). Returns name → { wall, cpu }, the medians in ms, and with `base` (a name of
 * `targets`) also { wallOverBase, cpuOverBase }: the median of each run's difference to `base`'s
 * start in the same run, seconds apart, which a core's changing speed moves less than two medians.
 */
export async function coldStarts(targets, { runs = 7, base } = {}) {
  const times = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let run = 0; run < runs; run++) {
    const names = Object.keys(targets);
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + run) % names.length];
      times[name].push(await startOnce(targets[name]));
    }
  }
  const median = (values) => values.sort((a, b) => a - b)[(values.length - 1) >> 1];
  const over = (name, key) => median(times[name].map((r, i) => r[key] - times[base][i][key]));
  return Object.fromEntries(
    Object.entries(times).map(([name, starts]) => [
      name,
      {
        wall: median(starts.map((r) => r.wall)),
        cpu: median(starts.map((r) => r.cpu)),
        ...(base ? { wallOverBase: over(name, 'wall'), cpuOverBase: over(name, 'cpu') } : {}),
      },
    ]),
  );
}
