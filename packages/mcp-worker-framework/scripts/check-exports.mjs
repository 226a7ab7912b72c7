#!/usr/bin/env node
/**
 * No export that nothing imports (`npm run check`): an export of `src/` is used when a file of
 * the package (its source, tests, scripts, benchmarks) or of the template at the repository's
 * root imports it, directly or through a re-export, or when a public entry point of package.json
 * `exports` hands it on. Anything else is code a reader keeps in mind for nothing: delete it, or,
 * when only its own file uses it, drop the `export`.
 *
 * A careful scan of the text, not of the compiler's graph (TypeScript 7 has no JS API yet):
 * `export function|const|class|type|interface|enum NAME`, `export { … } from`, `import { … } from`,
 * `import * as`, `const { … } = await import(…)`, each by a relative path or the package's name.
 * A default export is the entry of a Worker or a config, never named by an import: not checked.
 *
 *   node scripts/check-exports.mjs            # lists what nothing imports; exits 1 when there is any
 *   node scripts/check-exports.mjs --package DIR   # another package (its tests: test/unit/scripts/check-exports.test.ts)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const at = process.argv.indexOf('--package');
const pkg = at === -1 ? resolve(import.meta.dirname, '..') : resolve(process.argv[at + 1]);
const root = resolve(pkg, '../..');
const PACKAGE = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));

/** Every source-like file under `dir` (no node_modules, builds or fixtures of other trees). */
function files(dir, found = []) {
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    if (['node_modules', 'dist', '.wrangler', '.out', 'build', 'test-output'].includes(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, found);
    else if (/\.(ts|mts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** The public entry points: `exports` of package.json, each from its build under dist back to its source. */
const entries = new Map(
  Object.entries(PACKAGE.exports)
    .filter(([, target]) => typeof target === 'object')
    .map(([subpath, target]) => [
      subpath === '.' ? PACKAGE.name : `${PACKAGE.name}/${subpath.slice(2)}`,
      join(pkg, target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
    ]),
);

/**
 * Exports a script reads by name from modules it imports by a computed path: scripts/settings.mjs
 * bundles every auth mode's module and reads its `docs` (the settings they add to the table).
 */
const READ_BY_NAME = [
  { name: 'docs', files: /^src\/(auth\/[^/]+|signin\/signIn|events\/eventsSettings)\.ts$/ },
  // Named by the declarations the build emits (`tsc -p tsconfig.build.json`, TS4023): the settings
  // tables of the auth modes have inferred types made of it.
  { name: 'Setting', files: /^src\/http\/settings\/settingsTable\.ts$/ },
];

/** The file a specifier names, or undefined when it is no file of `src/` (a package, node:…). */
function target(from, specifier) {
  if (entries.has(specifier)) return entries.get(specifier);
  if (!specifier.startsWith('.')) return undefined;
  // A script's bundled source names the package's files from the package's root (esbuild's resolveDir).
  const base =
    from.startsWith(join(pkg, 'scripts/')) && specifier.startsWith('./src/')
      ? join(pkg, specifier)
      : resolve(dirname(from), specifier);
  // A relative import carries `.js`, as Node resolves ESM; its source is the `.ts` beside it.
  const source = base.endsWith('.js') ? `${base.slice(0, -3)}.ts` : undefined;
  return [source, base, `${base}.ts`, join(base, 'index.ts')].find(
    (path) => path !== undefined && existsSync(path) && statSync(path).isFile(),
  );
}

/** `a, type b as c` → [['a', 'a'], ['b', 'c']]: each name as the source file exports it, and as it is known here. */
const names = (list) =>
  list
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((part) => {
      const [name, alias] = part.split(/\s+as\s+/);
      return [name.trim(), (alias ?? name).trim()];
    });

const source = files(join(pkg, 'src'));
const readers = [
  ...source,
  ...['test', 'scripts', 'bench', 'cli'].flatMap((dir) => files(join(pkg, dir))),
  ...['src', 'test'].flatMap((dir) => files(join(root, dir))),
];

/** What each file of `src/` exports by name: its own declarations, and what it hands on from another file. */
const exported = new Map();
/** `file → name` pairs something imports (or re-exports). */
const used = new Set();
const use = (file, name) => used.add(`${file}\0${name}`);
/** Re-exports: `file:name` → the `file:name` it hands on. */
const handsOn = new Map();
/** Files imported whole (`import * as`, a dynamic import not destructured). */
const whole = new Set();

for (const file of readers) {
  const text = readFileSync(file, 'utf8');
  const inSource = file.startsWith(join(pkg, 'src/'));
  if (inSource) {
    const own = [
      ...text.matchAll(
        /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|abstract\s+class|type|interface|enum)\s+([A-Za-z_$][\w$]*)/gm,
      ),
    ].map((match) => match[1]);
    exported.set(file, new Set(own));
  }
  // At the start of a line: a module's re-export; anywhere in a script: the source it bundles.
  const reexport = inSource
    ? /^export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/gm
    : /export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g;
  for (const [, list, specifier] of text.matchAll(reexport)) {
    const from = target(file, specifier);
    if (!from) continue;
    for (const [name, alias] of names(list)) {
      use(from, name);
      if (inSource) {
        exported.get(file).add(alias);
        handsOn.set(`${file}\0${alias}`, `${from}\0${name}`);
      }
    }
  }
  for (const [, list, specifier] of text.matchAll(
    /import\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*'([^']+)'/g,
  )) {
    const from = target(file, specifier);
    if (from) for (const [name] of names(list)) use(from, name);
  }
  // Declaration merging (`declare module '../mcp/define' { interface ToolFields … }`) needs the interface exported.
  for (const [, specifier, body] of text.matchAll(/declare\s+module\s+'([^']+)'\s*\{([\s\S]*?)\n\}/g)) {
    const from = target(file, specifier);
    if (from) for (const [, name] of body.matchAll(/interface\s+([\w$]+)/g)) use(from, name);
  }
  for (const [, specifier] of text.matchAll(/import\s+\*\s+as\s+[\w$]+\s+from\s*'([^']+)'/g)) {
    const from = target(file, specifier);
    if (from) whole.add(from);
  }
  for (const [, list, specifier] of text.matchAll(/\{([^}]*)\}\s*=\s*await\s+import\('([^']+)'\)/g)) {
    const from = target(file, specifier);
    if (from) for (const [name] of names(list.replace(/:\s*[\w$]+/g, ''))) use(from, name);
  }
  for (const [, specifier] of text.matchAll(/\(await\s+import\('([^']+)'\)\)/g)) {
    const from = target(file, specifier);
    if (from) whole.add(from);
  }
}

for (const [file, own] of exported)
  for (const { name, files } of READ_BY_NAME) if (own.has(name) && files.test(relative(pkg, file))) use(file, name);
// A public entry point hands on everything it exports.
for (const entry of entries.values()) for (const name of exported.get(entry) ?? []) use(entry, name);
// What is used through a re-export is used where it is declared.
let grew = true;
while (grew) {
  grew = false;
  for (const [at, from] of handsOn)
    if ((used.has(at) || whole.has(at.split('\0')[0])) && !used.has(from)) {
      used.add(from);
      grew = true;
    }
}

const unused = [...exported]
  .filter(([file]) => !whole.has(file))
  .flatMap(([file, own]) =>
    [...own].filter((name) => !used.has(`${file}\0${name}`)).map((name) => `${relative(pkg, file)}: ${name}`),
  )
  .sort();

if (unused.length === 0) {
  console.log(`check-exports: every export of src/ is imported (${exported.size} files)`);
} else {
  console.error(
    `check-exports: ${unused.length} exports of src/ that nothing imports (delete them, or drop \`export\`):`,
  );
  for (const line of unused) console.error(`  ${line}`);
  process.exit(1);
}
