/**
 * `npm run conformance`: serves the conformance fixture Worker (test/conformance/) with
 * `wrangler dev` (workerd) on a free loopback port, runs the official suite
 * (@modelcontextprotocol/conformance) with `--requirements 2026-07-28`, and prints what its
 * summary means here: the required scenarios pass or not; any other (an extension not
 * implemented, a pending scenario) is reported as not required, not as a failure. Then the suite
 * again on the legacy wire. Exits non-zero if a scored scenario, or one of the not-scored
 * scenarios this template also promises (ALSO_REQUIRED), fails.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The Tasks extension's scenarios: the fixture serves task tools (docs/tasks.md), so all must pass. */
const TASKS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];
/**
 * The Skills extension's server scenarios (SEP-2640): extension scenarios, outside every frozen
 * requirement set, so each runs on its own (`--scenario`, the 2026-07-28 wire); the fixture serves
 * the Skills fixture's skills (test/fixtures/skills). Every check must be SUCCESS: no FAILURE and,
 * stricter than the suite's exit code, no WARNING (a SHOULD the server could keep).
 */
const SKILLS = ['sep-2640-skills-enumeration', 'sep-2640-skills-directory', 'sep-2640-skills-manifest'];
/** Not scored by the suite, but part of what the template promises. */
const ALSO_REQUIRED = [
  'json-schema-2020-12',
  'http-header-validation',
  'http-custom-header-server-validation',
  ...TASKS,
];

/**
 * The legacy run (2025-11-25 wire, no --requirements) may fail only these: each needs what a
 * stateless server cannot have, a session or a request from the server to the client.
 */
export const LEGACY_IMPOSSIBLE = {
  'tools-call-with-logging': 'needs the log level set by an earlier request (session state)',
  'tools-call-sampling': 'needs a server-to-client sampling request during the call',
  'tools-call-elicitation': 'needs a server-to-client elicitation request during the call',
  'elicitation-sep1034-defaults': 'needs a server-to-client elicitation request during the call',
  'elicitation-sep1330-enums': 'needs a server-to-client elicitation request during the call',
  'resources-subscribe': 'subscriptions live in a session',
  'resources-unsubscribe': 'subscriptions live in a session',
};
/** An installed binary, from the nearest node_modules/.bin up from here (a workspace hoists them to the repository's root). */
function bin(name, dir = resolve(import.meta.dirname, '..')) {
  const path = join(dir, 'node_modules', '.bin', name);
  if (existsSync(path)) return path;
  if (dirname(dir) === dir) throw new Error(`${name} is not installed: npm install`);
  return bin(name, dirname(dir));
}

/**
 * The suite's summary, read: each scenario (`✓ name: 4 passed, 0 failed`), and which of them
 * it lists under "Not scored for <version>".
 */
function scenarios(summary) {
  const [scoredPart, notScoredPart = ''] = summary.split(/^Not scored for .*$/m);
  const notScored = new Set([...notScoredPart.matchAll(/^\s*[✓✗] ([\w-]+)/gm)].map((m) => m[1]));
  return [...scoredPart.matchAll(/^([✓✗]) ([\w-]+): (\d+) passed, (\d+) failed$/gm)].map(
    ([line, mark, name, passed]) => ({
      line,
      name,
      passed: mark === '✓',
      checks: Number(passed),
      scored: !notScored.has(name),
    }),
  );
}

/** Prints what a run of the modern suite means for this template; returns the scenarios that must pass and did not. */
function report(all) {
  const required = all.filter((s) => s.scored || ALSO_REQUIRED.includes(s.name));
  const notRun = ALSO_REQUIRED.filter((name) => !all.some((s) => s.name === name));
  const missing = [...required.filter((s) => !s.passed).map((s) => s.name), ...notRun];
  const checks = required.reduce((sum, s) => sum + s.checks, 0);
  const scored = required.filter((s) => s.scored).length;
  const total = required.length + notRun.length;
  console.log(
    `conformance 2026-07-28: ${total - missing.length} of ${total} required scenarios pass (${scored} scored by the suite, ${total - scored} promised by the template), ${checks} checks`,
  );
  for (const name of missing) console.log(`  ${all.find((s) => s.name === name)?.line ?? `✗ ${name}: not run`}`);
  // A scenario the suite does not score and the template does not promise (an extension not
  // implemented here, a pending one) is reported as such, never as a failure of this run.
  const optional = all.filter((s) => !s.passed && !required.includes(s));
  if (optional.length > 0)
    console.log(
      `conformance 2026-07-28: not scored and not required here, failing: ${optional.map((s) => s.name).join(', ')}`,
    );
  return missing;
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function waitForWorker(url, dev, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (dev.exitCode !== null) throw new Error(`wrangler dev exited with ${dev.exitCode}`);
    try {
      if ((await fetch(url)).status === 405) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the fixture Worker did not answer at ${url} within ${timeoutMs / 1000} s`);
}

const [port, inspectorPort] = [await freePort(), await freePort()];
const url = `http://127.0.0.1:${port}/mcp`;
const dev = spawn(
  bin('wrangler'),
  [
    'dev',
    '-c',
    'test/conformance/wrangler.toml',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspectorPort),
    '--log-level',
    'error',
  ],
  // From this package's folder, where the config's [build] command finds scripts/.
  { cwd: resolve(import.meta.dirname, '..'), stdio: ['ignore', 'ignore', 'pipe'], detached: true },
);
// The fixture's tools fail on purpose (the suite checks how errors are reported), and the Worker
// logs each failure: its log is shown only when the run fails.
let workerLog = '';
dev.stderr.on('data', (chunk) => (workerLog += chunk));
const stopDev = () => {
  try {
    process.kill(-dev.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stopDev);

let code = 1;
try {
  await waitForWorker(url, dev);
  const out = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  const suite = async (args) => {
    const child = spawn(bin('conformance'), ['server', '--url', url, '-o', out, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const exit = await new Promise((resolve) => child.on('close', resolve));
    return { exit, output, summary: output.slice(output.indexOf('=== SUMMARY ===')) };
  };
  console.log(`conformance: suite against ${url} (fixture under wrangler dev), details in ${out}`);

  const modern = await suite(['--requirements', '2026-07-28']);
  const missing = report(scenarios(modern.summary));

  console.log('\nconformance: the Skills extension (SEP-2640), each scenario on its own');
  for (const name of SKILLS) {
    const run = await suite(['--scenario', name]);
    const [, passed = '0', total = '?', failed = '?', warnings = '?'] =
      /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(run.output) ?? [];
    const clean = run.exit === 0 && passed === total && failed === '0' && warnings === '0';
    console.log(
      `  ${clean ? '✓' : '✗'} ${name}: ${passed} of ${total} checks SUCCESS, ${failed} failed, ${warnings} warnings`,
    );
    if (!clean) missing.push(name);
  }

  console.log('\nconformance: legacy clients (2025-11-25 wire, the suite without --requirements)');
  const legacy = await suite([]);
  const failed = [...legacy.summary.matchAll(/✗ ([\w-]+):/g)].map((m) => m[1]);
  const unexpected = failed.filter((name) => !(name in LEGACY_IMPOSSIBLE));
  const passedChecks = scenarios(legacy.summary).reduce((sum, s) => sum + s.checks, 0);
  console.log(
    `conformance legacy: ${passedChecks} checks pass; ${failed.length - unexpected.length} scenarios need what a stateless server cannot have:`,
  );
  for (const name of failed)
    console.log(
      `  ${name in LEGACY_IMPOSSIBLE ? '-' : '✗'} ${name}: ${LEGACY_IMPOSSIBLE[name] ?? 'UNEXPECTED failure'}`,
    );

  code = modern.exit === 0 && missing.length === 0 && unexpected.length === 0 ? 0 : 1;
  console.log(
    code === 0
      ? 'conformance: all scored 2026-07-28 scenarios pass; legacy fails only where a session is needed'
      : 'conformance: FAILED',
  );
} catch (error) {
  console.error(`conformance: ${error.message}`);
} finally {
  stopDev();
}
if (code !== 0 && workerLog) console.error(`conformance: the fixture Worker's log (wrangler dev):\n${workerLog}`);
process.exit(code);
