/**
 * The step runner of the maintainers' end-to-end checks (`npm run test:fork`, scripts/fork-check.mjs;
 * `npm run test:packed`, scripts/packed-check.mjs): each step a command, its output streamed and
 * kept, its duration recorded; a step that fails or outlives its limit ends the check loudly, with
 * the step, why, and where the copy is kept. `done()` prints every step's duration.
 *
 *   const steps = stepRunner('fork check', { keep: dir });
 *   await steps.run('npm test', 'npm', ['test'], { cwd: dir, limitMs: 10 * 60_000 });
 *   steps.done('a fork is green');
 */
import { spawn } from 'node:child_process';

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** `name` heads every line; `keep` is the folder a failure leaves behind for a post-mortem. */
export function stepRunner(name, { keep } = {}) {
  const started = Date.now();
  /** @type {{ label: string, ms: number }[]} */
  const timings = [];

  const summary = () => timings.map(({ label, ms }) => `  ${seconds(ms).padStart(8)}  ${label}`).join('\n');

  /** Ends the check: which step, why, the durations so far, and where the copy is. */
  function fail(step, why) {
    console.error(`\n${name} FAILED at "${step}": ${why}`);
    if (timings.length > 0) console.error(`steps before it:\n${summary()}`);
    if (keep) console.error(`(the copy is kept in ${keep})`);
    process.exit(1);
  }

  /** Times `work` (sync or async) as one step; a throw fails the check at that step. */
  async function time(label, work) {
    const at = Date.now();
    try {
      return await work();
    } catch (error) {
      fail(label, error instanceof Error ? error.message : String(error));
    } finally {
      timings.push({ label, ms: Date.now() - at });
    }
  }

  /**
   * Runs `command args` in `cwd`, its output streamed and returned (for the caller to inspect);
   * a non-zero exit, or a run past `limitMs` (killed with its children), fails the check.
   */
  function run(label, command, args, { cwd, limitMs = 10 * 60_000, env } = {}) {
    console.log(`\n── ${name}: ${label} (${command} ${args.join(' ')}, in ${cwd}) ──`);
    const at = Date.now();
    return new Promise((resolve) => {
      const child = spawn(command, args, {
        cwd,
        env: env ? { ...process.env, ...env } : process.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const collect = (stream, sink) => stream.on('data', (chunk) => ((output += chunk), sink.write(chunk)));
      collect(child.stdout, process.stdout);
      collect(child.stderr, process.stderr);
      const timer = setTimeout(() => {
        process.kill(-child.pid, 'SIGKILL');
        timings.push({ label, ms: Date.now() - at });
        fail(label, `still running after ${seconds(limitMs)}`);
      }, limitMs);
      child.on('error', (error) => fail(label, error.message));
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        timings.push({ label, ms: Date.now() - at });
        if (code !== 0) fail(label, `${command} ${args.join(' ')} exited with ${code ?? signal}`);
        console.log(`── ${name}: ${label} passed in ${seconds(Date.now() - at)} ──`);
        resolve(output.replace(/\x1b\[[0-9;]*m/g, ''));
      });
    });
  }

  /** Prints every step's duration and the total, with what passed. */
  function done(what) {
    console.log(`\n${name} passed in ${seconds(Date.now() - started)}: ${what}\n${summary()}`);
  }

  /** The duration of the step named `label` (its last run), in ms. */
  const took = (label) => timings.findLast((t) => t.label === label)?.ms;

  return { run, time, fail, done, took };
}
