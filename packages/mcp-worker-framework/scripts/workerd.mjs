/**
 * Serves a Worker's production bundle with the `workerd` binary itself, on loopback, with
 * no proxy in front: what the benchmarks and `npm run load` need (Miniflare's entry Worker in
 * front of the Worker costs throughput, and they pass workerd flags of their own). Tests start
 * Workers with the test kit instead (src/testing/startInWorkerd.ts), as a fork does.
 *
 *   const worker = await serveWithWorkerd({ config: 'wrangler.toml', vars: { X: '1' } });
 *   ... fetch(worker.url) ...
 *   await worker.stop();
 *
 * `args` adds workerd options (e.g. `--inspector-addr=127.0.0.1:9229`), `v8Flags` V8's (e.g.
 * `--perf-basic-prof`); `pid` is workerd's process id,
 * `configFile` its config (to spawn it again, e.g. to time a cold start).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { unstable_readConfig as readConfig } from 'wrangler';

const require = createRequire(import.meta.url);

/** The workerd binary that ships in the npm package wrangler depends on. */
export function workerdBinary() {
  const workerd = dirname(
    require.resolve('workerd/package.json', { paths: [dirname(require.resolve('wrangler/package.json'))] }),
  );
  const platform = dirname(
    require.resolve(
      `@cloudflare/workerd-${process.platform}-${process.arch === 'x64' ? '64' : process.arch}/package.json`,
      { paths: [workerd] },
    ),
  );
  return join(platform, 'bin', 'workerd');
}

export const freePort = () =>
  new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

/**
 * Builds the bundle exactly as `wrangler deploy` would, into a fresh folder; wrangler runs the
 * config's `[build] command` in `cwd` (the project's folder: the template's is the repository's root).
 */
export function buildBundle(config, outdir = mkdtempSync(join(tmpdir(), 'mcp-bundle-')), cwd = process.cwd()) {
  const wrangler = join(dirname(require.resolve('wrangler/package.json')), 'bin', 'wrangler.js');
  const built = spawnSync(process.execPath, [wrangler, 'deploy', '--dry-run', '-c', config, '--outdir', outdir], {
    cwd,
    encoding: 'utf8',
  });
  if (built.status !== 0) {
    // wrangler's own words, without its colours, banner and log path: what the author must change.
    const said = `${built.stdout}${built.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
    const error = said.slice(Math.max(0, said.indexOf('[ERROR]'))).replace(/^\[ERROR\]\s*/, '');
    throw new Error(
      `wrangler deploy --dry-run failed: ${error.split('\n🪵')[0].replace(/\s+/g, ' ').trim() || `exit ${built.status}`}`,
    );
  }
  return outdir;
}

const capnpString = (value) => JSON.stringify(String(value));

export async function serveWithWorkerd({
  config,
  vars = {},
  bundle = buildBundle(config),
  port,
  args = [],
  v8Flags = [],
}) {
  const settings = readConfig({ config: resolve(config) }, { hideWarnings: true });
  const main = readdirSync(bundle).find((file) => file.endsWith('.js'));
  const bindings = Object.entries({ ...settings.vars, ...vars }).map(
    ([name, value]) => `(name = ${capnpString(name)}, text = ${capnpString(value)})`,
  );
  const listenPort = port ?? (await freePort());
  const capnp = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (${v8Flags.length > 0 ? `\n  v8Flags = [${v8Flags.map(capnpString).join(', ')}],` : ''}
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${listenPort}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = ${capnpString(main)}, esModule = embed ${capnpString(main)}) ],
  compatibilityDate = ${capnpString(settings.compatibility_date)},
  compatibilityFlags = [${settings.compatibility_flags.map(capnpString).join(', ')}],
  bindings = [${bindings.join(', ')}],
);
`;
  const file = join(bundle, `workerd-${listenPort}.capnp`);
  writeFileSync(file, capnp);
  // stdout carries console.log (request logs): not kept, so a benchmark does not buffer it.
  const child = spawn(workerdBinary(), ['serve', ...args, file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited: ${stderr}`);
    try {
      await fetch(url);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`workerd did not listen on ${url}: ${stderr}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  return {
    url,
    pid: child.pid,
    configFile: file,
    bundle,
    name: basename(config),
    logs: () => stderr,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}
