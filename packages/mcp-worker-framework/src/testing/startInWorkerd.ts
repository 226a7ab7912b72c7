/**
 * The Worker in workerd through Miniflare's own API, built as `wrangler deploy` builds it:
 * the bundle from `wrangler deploy --dry-run`, the bindings (rate limits, Durable Objects, KV…),
 * compatibility date and flags from the wrangler config (wrangler's
 * `unstable_getMiniflareWorkerOptions`). Vars and secrets are only those the test states: neither
 * the config's `[vars]` nor a `.dev.vars` reach the Worker, so what your deployment sets never
 * changes what a test sees, and every other setting has its default (README, settings table).
 * AUTH_MODE is "none" unless the test says otherwise: a tool is tested without a credential, even
 * with auth modes listed in src/index.ts; a test of your auth sets `AUTH_MODE` and its secret. The Worker's outbound `fetch` can be answered by a function
 * (Miniflare's `outboundService`), so a tool that calls an API is tested without a server.
 *
 *   await using worker = await startInWorkerd({ outbound: () => Response.json({ ok: true }) });
 *   const mcp = testClient(worker);                       // in process, through Miniflare
 *   const overHttp = testClient(atUrl(`${worker.url}/mcp`)); // on loopback, as a client connects
 *
 * The Worker also listens on loopback (`url`), with a client's disconnect reaching it as its
 * request's abort signal; what it prints is kept (`logs()`); Durable Objects keep their state in
 * a folder of their own, deleted with the Worker.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { V4WorkerOptions } from 'miniflare';
import type { FetchTarget } from './testClient.js';

export interface WorkerdOptions {
  /** The wrangler config to build and run, relative to the current directory. Default: the project's `wrangler.toml`. */
  config?: string;
  /** The vars the Worker runs with (the config's `[vars]` are not read: a test states its settings); AUTH_MODE "none" unless set. */
  vars?: Record<string, string>;
  /** Secrets (what `wrangler secret put` would set), e.g. `MCP_STATE_SECRET`. */
  secrets?: Record<string, string>;
  /** Answers every `fetch()` the Worker makes to the outside. Default: the real network. */
  outbound?: (request: Request) => Response | Promise<Response>;
  /** Any other Miniflare worker option (KV namespaces, service bindings…), applied last. */
  miniflare?: Partial<V4WorkerOptions>;
  /**
   * Other Workers run in the same workerd, each in its own isolate, built from its config the same
   * way: one may bind this Worker's Durable Object classes (`script_name` = this config's `name`).
   */
  neighbours?: readonly NeighbourOptions[];
}

/** A Worker run beside the one under test (`WorkerdOptions.neighbours`), reached by its config's `name`. */
interface NeighbourOptions {
  config: string;
  vars?: Record<string, string>;
  secrets?: Record<string, string>;
}

/** A Durable Object's SQLite storage, read from the test (`exec` runs SQL inside the object). */
export interface DurableObjectStorage {
  exec<Row = Record<string, unknown>>(query: string, ...bindings: unknown[]): Promise<Row[]>;
}

export interface WorkerInWorkerd extends FetchTarget {
  /** Where the Worker listens on loopback, e.g. `http://127.0.0.1:39105`: its endpoint is `${url}/mcp`. */
  url: string;
  /** What the Worker has printed so far (`console.log`, `warn`, `error`), one entry per call. */
  logs(): string[];
  /** What it has printed at error level (`console.error`, an uncaught error): what an operator's alert would fire on. */
  errorLogs(): string[];
  /** The Worker's `env` as workerd gives it to the Worker. */
  env(): Promise<Record<string, unknown>>;
  /** The ids of the objects of a Durable Object binding that hold storage. */
  listDurableObjectIds(binding: string): Promise<string[]>;
  /** The storage of one object of a Durable Object binding, by the name it was addressed with or its id. */
  getDurableObjectStorage(binding: string, object: { name: string } | { id: string }): Promise<DurableObjectStorage>;
  /** Stops one object of a Durable Object binding, as the runtime does to an idle one; its storage stays. */
  evictDurableObject(binding: string, object: { name: string } | { id: string }): Promise<void>;
  /** A neighbour Worker (`WorkerdOptions.neighbours`), by its config's `name`, called in process. */
  neighbour(name: string): FetchTarget;
  /** Restarts the Worker as a deployment does: every isolate and object starts again; storage stays. */
  restart(): Promise<void>;
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const run = promisify(execFile);
/** Configs are found from the project the tests run in (a fork's root, where vitest runs), as wrangler finds them. */
const project = () => process.cwd();
/** The wrangler the kit imports (a peer dependency: the project's own). */
const wranglerBin = () =>
  join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');

/** Bundles being built or in use, by config: Workers started from one config share one build, removed with the last of them. */
const builds = new Map<string, { outdir: Promise<string>; users: number }>();

async function build(config: string): Promise<string> {
  const outdir = await mkdtemp(join(tmpdir(), 'mcp-worker-build-'));
  try {
    await run(process.execPath, [wranglerBin(), 'deploy', '--dry-run', '--outdir', outdir, '--config', config], {
      cwd: project(),
    });
    return outdir;
  } catch (error) {
    await rm(outdir, { recursive: true, force: true });
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`wrangler could not build ${config}:\n${stdout}${stderr}`);
  }
}

async function useBuild(config: string): Promise<{ outdir: string; release: () => Promise<void> }> {
  let entry = builds.get(config);
  if (!entry) {
    entry = { outdir: build(config), users: 0 };
    builds.set(config, entry);
  }
  entry.users++;
  const built = entry;
  const release = async () => {
    if (--built.users > 0) return;
    builds.delete(config);
    await rm(await built.outdir, { recursive: true, force: true });
  };
  try {
    return { outdir: await built.outdir, release };
  } catch (error) {
    await release().catch(() => {});
    throw error;
  }
}

/** A Worker as wrangler describes it (miniflare 4's shape), run from the bundle `wrangler deploy --dry-run` built. */
async function built(
  config: string,
  bindings: Record<string, string>,
  getOptions: typeof import('wrangler').unstable_getMiniflareWorkerOptions,
) {
  const { outdir, release } = await useBuild(config);
  // modulesRules serve wrangler's unbundled modules; the bundle is one ES module.
  const {
    workerOptions: { modulesRules: _rules, ...workerOptions },
    main,
  } = getOptions(config);
  const script = join(outdir, `${basename(main ?? 'index.ts').replace(/\.[cm]?[jt]s$/, '')}.js`);
  return {
    // Only what the test states: the config's [vars] and .dev.vars are the developer's, not the test's.
    worker: {
      ...(workerOptions as V4WorkerOptions),
      modulesRoot: outdir,
      modules: [{ type: 'ESModule', path: script }],
      bindings,
    },
    release,
  };
}

export async function startInWorkerd(options: WorkerdOptions = {}): Promise<WorkerInWorkerd> {
  const config = resolve(project(), options.config ?? 'wrangler.toml');
  // wrangler builds in a process of its own meanwhile. Loaded here, not at the top: importing
  // wrangler takes seconds, and in-process tests never need it.
  const [{ Miniflare, convertV4MiniflareOptions }, { unstable_getMiniflareWorkerOptions, unstable_readConfig }] =
    await Promise.all([import('miniflare'), import('wrangler')]);
  const neighbours = options.neighbours ?? [];
  const builds = await Promise.allSettled(
    [{ config, vars: options.vars, secrets: options.secrets }, ...neighbours].map((worker) =>
      built(
        resolve(project(), worker.config),
        { AUTH_MODE: 'none', ...worker.vars, ...worker.secrets },
        unstable_getMiniflareWorkerOptions,
      ),
    ),
  );
  const release = () => Promise.all(builds.map((b) => (b.status === 'fulfilled' ? b.value.release() : undefined)));
  const failed = builds.find((b) => b.status === 'rejected');
  if (failed) {
    await release();
    throw failed.reason;
  }
  // Several Workers in one workerd are told apart by name, the one of their config (`script_name` names it too).
  const [workerOptions, ...others] = builds.map((b, index) => {
    const { worker } = (b as PromiseFulfilledResult<Awaited<ReturnType<typeof built>>>).value;
    if (neighbours.length === 0) return worker;
    const path = resolve(project(), index === 0 ? config : neighbours[index - 1]!.config);
    return { ...worker, name: unstable_readConfig({ config: path }, { hideWarnings: true }).name };
  }) as [V4WorkerOptions, ...V4WorkerOptions[]];
  const { outbound } = options;
  const printed: string[] = [];
  const printedErrors: string[] = [];
  const shared = {
    // workerd's console output, one message per console call: kept for the test instead of printed.
    handleStructuredLogs: ({ message, level }: { message: string; level: string }) => {
      printed.push(message);
      if (level === 'error') printedErrors.push(message);
    },
    // Lets a test read a Durable Object's storage (getDurableObjectStorage).
    unsafeInspectDurableObjects: workerOptions.durableObjects !== undefined,
  };
  const tested = {
    ...workerOptions,
    ...(outbound ? { outboundService: (request: unknown) => outbound(request as Request) as never } : {}),
    ...options.miniflare,
  };
  // wrangler describes the Worker in miniflare 4's option shape; miniflare 5's constructor takes
  // its own (a `workers` list of `{ config, dev }`), and converts the older shape for us.
  const miniflareOptions = convertV4MiniflareOptions(
    (others.length === 0 ? { ...shared, ...tested } : { ...shared, workers: [tested, ...others] }) as V4WorkerOptions,
  );
  const mf = new Miniflare(miniflareOptions);
  const dispose = async () => {
    await mf.dispose();
    await release();
  };
  let url: URL;
  try {
    url = await mf.ready;
  } catch (error) {
    await dispose();
    throw error;
  }
  const { name = '', durableObjects = {} } = workerOptions as V4WorkerOptions;
  /** A binding's class, as `getDurableObjectStorage` addresses it (the script is the Worker's own). */
  const classOf = (binding: string) => {
    const target = durableObjects[binding];
    if (target === undefined) throw new Error(`${config} has no Durable Object binding ${binding}`);
    return typeof target === 'string' ? target : target.className;
  };
  return {
    url: url.origin,
    // Miniflare speaks undici's Request and Response: hand it plain parts, hand back a standard Response.
    fetch: async (request: Request) => {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
      const response = await mf.dispatchFetch(request.url, {
        method: request.method,
        headers: [...request.headers],
        body,
      });
      return response as unknown as Response;
    },
    logs: () => [...printed],
    errorLogs: () => [...printedErrors],
    env: () => mf.getBindings(),
    listDurableObjectIds: (binding) => mf.listDurableObjectIds(binding),
    getDurableObjectStorage: (binding, object) =>
      mf.unsafeGetDurableObjectStorage(name, classOf(binding), object) as Promise<DurableObjectStorage>,
    evictDurableObject: (binding, object) => mf.unsafeEvictDurableObject(name, classOf(binding), object),
    neighbour: (neighbourName) => ({
      fetch: async (request: Request) => {
        const fetcher = await mf.getWorker(neighbourName);
        const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
        return (await fetcher.fetch(request.url, {
          method: request.method,
          headers: [...request.headers],
          body,
        })) as unknown as Response;
      },
    }),
    // The same options on the same port: workerd restarts; Durable Object storage is kept in Miniflare's folder until dispose.
    restart: () => mf.setOptions({ ...miniflareOptions, port: Number(url.port) }),
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}
