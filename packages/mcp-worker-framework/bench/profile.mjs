/**
 * `node bench/profile.mjs [contender] [operation] [seconds] [--alloc]`: a CPU profile of one
 * contender under workerd while wrk loads it, taken over workerd's inspector (Chrome DevTools
 * protocol, Profiler.start/stop). Prints the functions with the most self time, and writes the
 * whole profile to bench/.out/<contender>.cpuprofile (open it in Chrome DevTools).
 * With `--alloc`, a sampling heap profile instead (HeapProfiler.startSampling): the bytes each
 * function allocates per request on the JavaScript heap, which is what the garbage collector's
 * share of the CPU profile is paid for.
 * Run `npm run bench` (or `node bench/build.mjs`) first: it builds the bundles.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { freePort, serveWithWorkerd } from '../scripts/workerd.mjs';
import { configOf, here, outDir } from './build.mjs';
import { SERVED } from './load.mjs';
import { opFor } from './requests.mjs';
import { fixed, table } from './stats.mjs';
import { ensureWrk, wrk } from './wrk.mjs';

/** One DevTools protocol session over a WebSocket (Node 22's global WebSocket). */
async function devtools(url) {
  const socket = new WebSocket(url);
  await new Promise((done, fail) => {
    socket.addEventListener('open', done, { once: true });
    socket.addEventListener('error', fail, { once: true });
  });
  let next = 0;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.fail(new Error(`${JSON.stringify(message.error)}`));
    else waiter.done(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((done, fail) => {
        const id = ++next;
        pending.set(id, { done, fail });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/**
 * A profile's call frame as "function file:line": in the bundle, the source's own file, line and
 * name through the bundle's source map (wrangler writes one beside it), not the minified ones.
 */
function frameNamer(bundle) {
  const dir = outDir(bundle);
  const mapFile = readdirSync(dir).find((file) => file.endsWith('.js.map'));
  const map = mapFile && new SourceMap(JSON.parse(readFileSync(join(dir, mapFile), 'utf8')));
  return ({ functionName, url, lineNumber, columnNumber }) => {
    const entry = map && url.endsWith('.js') && lineNumber >= 0 ? map.findEntry(lineNumber, columnNumber) : undefined;
    if (entry?.originalSource) {
      const path = entry.originalSource;
      const source = path.includes('node_modules/')
        ? path.replace(/^.*node_modules\//, '') // a package's own file, e.g. @cfworker/json-schema/src/validate.ts
        : path.replace(/^(?:\.\.\/)+|^.*\/(?=src\/)/, '');
      return `${entry.name ?? functionName ?? '(anonymous)'} ${source}:${entry.originalLine + 1}`;
    }
    return `${functionName || '(anonymous)'} ${url ? `${url.split('/').pop()}:${lineNumber + 1}` : ''}`.trim();
  };
}

/** Self time per function (name, file:line), in % of all samples, largest first. */
function selfTimes(profile, frameName) {
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const byFunction = new Map();
  for (const node of profile.nodes) {
    const key = frameName(node.callFrame);
    byFunction.set(key, (byFunction.get(key) ?? 0) + (counts.get(node.id) ?? 0));
  }
  const total = profile.samples.length;
  return [...byFunction].sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, share: n / total }));
}

/** Bytes allocated per function (self), largest first, from a sampling heap profile. */
function allocations(profile, frameName) {
  const bytes = new Map();
  const walk = (node) => {
    const key = frameName(node.callFrame);
    bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return [...bytes].sort((a, b) => b[1] - a[1]);
}

/**
 * Serves one contender under workerd with its inspector open, warms it up, then runs `measure`
 * with the DevTools session and a function that loads it with wrk for `seconds`.
 */
async function underLoad(name, op, seconds, measure) {
  ensureWrk();
  const { bundle, vars } = SERVED[name];
  op = opFor(bundle, op); // the contender's own tool for tools/call (bench/requests.mjs)
  const inspector = await freePort();
  // The workerd binary itself, not the test kit: the profile is of the Worker alone, through workerd's own inspector.
  const server = await serveWithWorkerd({
    config: configOf(bundle),
    bundle: outDir(bundle),
    vars,
    args: [`--inspector-addr=127.0.0.1:${inspector}`],
  });
  try {
    const targets = await (await fetch(`http://127.0.0.1:${inspector}/json/list`)).json();
    const session = await devtools(targets[0].webSocketDebuggerUrl);
    await wrk(`${server.url}/mcp`, op, { serverPid: server.pid, seconds: 1 }); // warm up
    try {
      await measure(session, () => wrk(`${server.url}/mcp`, op, { serverPid: server.pid, seconds }), bundle);
    } finally {
      session.close();
    }
  } finally {
    await server.stop();
  }
}

export function allocationProfile(name = 'template', op = 'tools/call', seconds = 3) {
  return underLoad(name, op, seconds, async (session, load, bundle) => {
    await session.send('HeapProfiler.enable');
    // every 512 bytes, counting what minor and major collections have already freed
    await session.send('HeapProfiler.startSampling', {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const { requests } = await load();
    const { profile: result } = await session.send('HeapProfiler.stopSampling');
    writeFileSync(join(here, '.out', `${bundle}.heapprofile`), JSON.stringify(result));
    const rows = allocations(result, frameNamer(bundle));
    const total = rows.reduce((sum, [, bytes]) => sum + bytes, 0);
    console.log(
      `${name} ${op}: ${requests} requests while sampled, ≈ ${fixed(total / requests, 0)} bytes allocated per request\n`,
    );
    console.log(
      table(
        ['function (self)', 'bytes per request'],
        rows.slice(0, 30).map(([fn, bytes]) => [fn, fixed(bytes / requests, 0)]),
      ),
    );
  });
}

export function profile(name = 'template', op = 'tools/call', seconds = 5) {
  return underLoad(name, op, seconds, async (session, load, bundle) => {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 100 });
    await session.send('Profiler.start');
    const { rps, requests } = await load();
    const { profile: result } = await session.send('Profiler.stop');
    const file = join(here, '.out', `${bundle}.cpuprofile`);
    writeFileSync(file, JSON.stringify(result));
    console.log(`${name} ${op}: ${fixed(rps, 0)} req/s while profiled; profile in ${file}\n`);
    // the profile spans the wrk run; its requests share the profiled time
    const perRequest = (result.endTime - result.startTime) / requests;
    console.log(
      table(
        ['function (self time)', 'share of samples', 'µs per request'],
        selfTimes(result, frameNamer(bundle))
          .slice(0, 30)
          .map((f) => [f.name, `${fixed(f.share * 100, 1)}%`, fixed(f.share * perRequest, 1)]),
      ),
    );
  });
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const args = process.argv.slice(2);
  const alloc = args.includes('--alloc');
  const [name, op, seconds] = args.filter((arg) => arg !== '--alloc');
  await (alloc ? allocationProfile : profile)(name, op, seconds ? Number(seconds) : undefined);
}
