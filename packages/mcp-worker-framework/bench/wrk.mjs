/**
 * The load generator: `wrk` (native, one thread, fixed connections), driven by a Lua script per
 * operation that POSTs the request with its headers. While it runs, the CPU time of wrk, of the
 * server process and of the whole machine is sampled from /proc, so each figure shows whether the
 * generator or the Worker was the busy one, and whether neighbours took the cores. Bounded: wrk stops at its duration; a watchdog kills it 15 s after that.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { here } from './build.mjs';
import { requestOf, wireHeaders } from './requests.mjs';

/** Installs wrk from Debian's packages when it is missing (this needs root, as on this project's machines). */
export function ensureWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return;
  } catch (error) {
    // wrk --version exits 1 after printing its version: it is there
    if (error.code !== 'ENOENT') return;
  }
  if (process.getuid?.() !== 0) throw new Error('wrk is missing: install it (apt-get install wrk) or run as root');
  console.error('wrk is missing: installing it with `apt-get install -y wrk` (as root)');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

const luaString = (value) => {
  const fence = '='.repeat(4);
  if (value.includes(`]${fence}]`)) throw new Error('unexpected Lua fence in a request');
  return `[${fence}[${value}]${fence}]`;
};

/** Writes the Lua script for one operation (wrk adds Host and Content-Length itself). */
function scriptFor(op) {
  const dir = join(here, '.out', 'wrk');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${op.replace(/\W/g, '-')}.lua`);
  const headers = Object.entries(wireHeaders(op)).map(
    ([name, value]) => `wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`,
  );
  writeFileSync(
    file,
    [`wrk.method = "POST"`, `wrk.body = ${luaString(requestOf(op).body)}`, ...headers, ''].join('\n'),
  );
  return file;
}

export const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User + system CPU ticks of a process (fields 14 and 15 of /proc/<pid>/stat), or NaN once it is gone. */
export function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return Number.NaN;
  }
}

/** Busy and total CPU ticks of the whole machine (first line of /proc/stat; idle and iowait are not busy). */
function machineTicks() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const ticks = fields.slice(0, 8).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - ticks[3] - ticks[4], total };
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

const UNIT = { us: 1e-3, ms: 1, s: 1000 };
const millis = (text) => {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  return match ? Number(match[1]) * UNIT[match[2]] : Number.NaN;
};

/** Reads wrk's report: rate, latency percentiles (--latency), errors, and non-2xx answers. */
export function parseReport(text) {
  const number = (re) => Number(re.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? Number.NaN),
    requests: number(/(\d+) requests in/),
    p50: millis(/\s50%\s+(\S+)/.exec(text)?.[1]),
    p99: millis(/\s99%\s+(\S+)/.exec(text)?.[1]),
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
  };
}

/**
 * Loads `url` with operation `op` for `seconds`; `serverPid` is the workerd process, whose CPU
 * share is sampled over the same window as wrk's (the middle of the run: from a quarter of it,
 * at most 0.5 s, in, to as long before the end).
 */
export async function wrk(url, op, { serverPid, seconds = 3, connections = 32 } = {}) {
  if (!/^http:\/\/127\./.test(url)) throw new Error(`refusing a non-loopback target: ${url}`);
  const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', scriptFor(op), url], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let problems = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (problems += chunk));
  const watchdog = setTimeout(() => child.kill('SIGKILL'), (seconds + 15) * 1000);
  const exited = new Promise((done) => child.once('exit', done));
  const lead = Math.min(0.5, seconds / 4);
  const window = seconds - 2 * lead;
  await sleep(lead * 1000);
  const before = { wrk: cpuTicks(child.pid), server: cpuTicks(serverPid), machine: machineTicks() };
  await sleep(window * 1000);
  const after = { wrk: cpuTicks(child.pid), server: cpuTicks(serverPid), machine: machineTicks() };
  const code = await exited;
  clearTimeout(watchdog);
  // wrk reports a broken Lua script on stderr and then loads the server with GETs anyway
  if (code !== 0 || problems) throw new Error(`wrk exited with ${code}: ${problems}${out}`);
  const share = (who) => (after[who] - before[who]) / TICKS_PER_SECOND / window;
  const machineBusy = (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total);
  return { ...parseReport(out), wrkCpu: share('wrk'), serverCpu: share('server'), machineBusy };
}
