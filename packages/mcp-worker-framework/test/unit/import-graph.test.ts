/**
 * The source reads in one direction (docs/architecture.md: a module owns its types; shared ones
 * live in a leaf module): no file of `src/` imports, directly or through others, a file that imports it.
 * Type-only imports count too: a cycle of types is a cycle a reader has to untangle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const IMPORT = /(?:from|import) '(\.{1,2}\/[^']+)'/g;

/** The source file a relative specifier names: `./x.js` (as Node loads the built package) or `./x` is `x.ts`, `./dir` is `dir/index.ts`. */
function sourceOf(file: string, spec: string): string {
  const base = join(dirname(file), spec);
  const candidates = spec.endsWith('.js') ? [base.replace(/\.js$/, '.ts')] : [`${base}.ts`, join(base, 'index.ts')];
  return candidates.find(existsSync) ?? base;
}

/** Every .ts file under `dir`, with the project files it imports by a relative path. */
function importGraph(dir: string, graph = new Map<string, string[]>()): Map<string, string[]> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) importGraph(path, graph);
    else if (path.endsWith('.ts')) {
      const targets = [...readFileSync(path, 'utf8').matchAll(IMPORT)].map(([, spec]) => sourceOf(path, spec!));
      graph.set(path, targets);
    }
  }
  return graph;
}

/** The project files a .ts file imports for their types alone (`import type`, `export type`): none of it runs. */
function typeOnlyImports(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(/(?:import|export) type \{[^}]*\} from '(\.{1,2}\/[^']+)'/g)].map(
    ([, spec]) => sourceOf(path, spec!),
  );
}

/** Each cycle found by a depth-first walk, as the chain of files that closes it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    const at = path.indexOf(file);
    if (at !== -1) return void found.push([...path.slice(at), file].map((f) => relative(root, f)));
    if (done.has(file)) return;
    done.add(file);
    path.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    path.pop();
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

describe('import graph of src/', () => {
  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toHaveLength(1);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles(importGraph(join(root, 'src')))).toEqual([]);
  });

  it('keeps the protocol core standing alone: src/mcp imports nothing outside src/mcp, type-only imports included', () => {
    const outside = [...importGraph(join(root, 'src/mcp'))].flatMap(([file, targets]) =>
      targets
        .filter((target) => !target.startsWith(join(root, 'src/mcp/')) && !target.endsWith('.json'))
        .map((target) => `${relative(root, file)} → ${relative(root, target)}`),
    );
    expect(outside).toEqual([]);
  });

  it('has each layer reach the core only through its public index or its one internal entry (src/mcp/internal.ts)', () => {
    const entries = [join(root, 'src/mcp/index.ts'), join(root, 'src/mcp/internal.ts')];
    const around = [...importGraph(join(root, 'src'))].filter(
      ([file]) => layerOf(file) !== 'mcp' && LAYERS.includes(layerOf(file)),
    );
    const intoCore = around.flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) === 'mcp' && !entries.includes(target))
        .map((target) => `${relative(root, file)} → ${relative(root, target)}`),
    );
    expect(around.length).toBeGreaterThan(50); // the layers are really read
    expect(intoCore).toEqual([]);
  });

  it('keeps the settings of the Worker above the layers that declare them: only the entries import src/env.ts', () => {
    const env = join(root, 'src/env.ts');
    const importers = [...importGraph(join(root, 'src'))].filter(([, targets]) => targets.includes(env));
    expect(importers.map(([file]) => relative(root, file)).sort()).toEqual([
      'src/createWorker.ts',
      'src/worker/index.ts',
    ]);
  });

  it("keeps the test kit out of the Worker: src/testing takes only types of the core and of the tasks' records, and no Worker file imports it", () => {
    const testing = join(root, 'src/testing/');
    const graph = importGraph(join(root, 'src'));
    const intoKit = [...graph].flatMap(([file, targets]) =>
      file.startsWith(testing) ? [] : targets.filter((t) => t.startsWith(testing)).map(() => relative(root, file)),
    );
    const fromKit = [...graph.keys()]
      .filter((file) => file.startsWith(testing))
      .flatMap((file) => {
        const outside = (targets: string[]) => targets.filter((t) => graph.has(t) && !t.startsWith(testing));
        const typeOnly = typeOnlyImports(file);
        return outside(graph.get(file)!)
          .filter((target) => !typeOnly.includes(target) || !KIT_TYPES.includes(layerOf(target)))
          .map((target) => `${relative(root, file)} → ${relative(root, target)}`);
      });
    // The kit's imports are really read: testClient types its answers from the core's tool schemas.
    expect(typeOnlyImports(join(testing, 'testClient.ts'))).toContain(join(root, 'src/mcp/toolSchema.ts'));
    expect(intoKit).toEqual([]);
    expect(fromKit).toEqual([]);
  });

  it("keeps the extensions below the Worker: no extension imports createWorker, whose types of extensions are the core's", () => {
    const createWorker = join(root, 'src/createWorker.ts');
    const extensions = ['tasks', 'notifications', 'apps', 'skills'];
    const graph = importGraph(join(root, 'src'));
    const importers = [...graph]
      .filter(([file, targets]) => extensions.includes(layerOf(file)) && targets.includes(createWorker))
      .map(([file]) => relative(root, file));
    expect([...graph.keys()].filter((file) => extensions.includes(layerOf(file))).length).toBeGreaterThan(30);
    expect(importers).toEqual([]);
  });

  it('keeps the direction of every layer: each imports only the layers below it', () => {
    const found = new Map<string, Set<string>>();
    for (const [file, targets] of importGraph(join(root, 'src'))) {
      const from = layerOf(file);
      if (!LAYERS.includes(from)) continue;
      for (const target of targets) {
        const to = layerOf(target);
        if (to !== from && !target.endsWith('.json')) found.set(from, (found.get(from) ?? new Set()).add(to));
      }
    }
    const wrong = [...found].flatMap(([from, tos]) =>
      [...tos].filter((to) => !BELOW[from]!.includes(to)).map((to) => `src/${from} → src/${to}`),
    );
    expect(wrong).toEqual([]);
  });
});

/**
 * The layers around the core; `createWorker` is src/createWorker.ts, which composes them, and
 * src/worker/index.ts its public entry; src/env.ts types the settings from the http and auth layers,
 * so none of them may import it (each names the env through the core); src/testing is the test
 * kit, which runs in Node beside the Worker.
 */
const LAYERS = ['mcp', 'http', 'auth', 'signin', 'tasks', 'notifications', 'events', 'apps', 'skills'];
/** What each layer may import: the core first, which imports none of them. */
const BELOW: Record<string, readonly string[]> = {
  mcp: [],
  apps: ['mcp'],
  skills: ['mcp'],
  // The page at `/` lists an extension's items through its `page`, knowing none by name.
  http: ['mcp'],
  auth: ['mcp', 'http'],
  signin: ['mcp', 'http'],
  // An extension's value for createWorker is typed by the core (`WorkerExtension`, src/mcp/workerExtension.ts).
  tasks: ['mcp'],
  // The hub and `notify` need the core only: they are no part of the HTTP edge.
  notifications: ['mcp'],
  // The events' Durable Objects and `emit` need the core; subscribe reads one row of the settings table.
  events: ['mcp', 'http'],
};

/** What the kit's answers are typed by (type-only): the core, and the task a `tasks/get` shows (spec extensions/tasks, `DetailedTask`). */
const KIT_TYPES = ['mcp', 'tasks'];

/** `src/{layer}/…` → the layer; a file directly in src/ is its own (`createWorker`). */
function layerOf(file: string): string {
  const [first, second] = relative(join(root, 'src'), file).split('/');
  return second === undefined ? first!.replace(/\.ts$/, '') : first!;
}
