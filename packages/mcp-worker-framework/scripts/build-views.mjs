/**
 * `npm run build:views`: builds each view page, `views/<page>/index.html`, into one
 * self-contained document, `build/views/<page>.html`, which the Worker serves from its static
 * assets (docs/apps.md). A host loads a view from `resources/read`, never from the server's
 * origin, so its scripts and styles are inlined: each `<script type="module" src="./x.ts">` becomes
 * the script bundled with esbuild (the bundler wrangler itself uses; tree-shaken, minified), and
 * the CSS that script imports becomes a `<style>` in the head. wrangler runs it before
 * `wrangler dev`, `wrangler deploy` and the dry run of `npm run check` and of every test build
 * (`[build] command` in wrangler.toml), so no one has to remember it. It reads plain files and
 * folders only (`./buildInput.mjs`): a symbolic link or a pipe anywhere in `views/` fails the build,
 * naming it, and so does a file from outside the project (or its packages) in a page's bundle,
 * since whatever it reads ends up in the page every host loads.
 *
 *   mcp-worker build [--views views] [--assets build]     prints each page's size, raw and gzip
 */
import { mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { inputKind, readInput } from './buildInput.mjs';

// The project is the one in the current directory (a fork's root: `mcp-worker build`, run by wrangler).
const root = process.cwd();
const { values } = parseArgs({ options: { views: { type: 'string' }, assets: { type: 'string' } } });
const sources = values.views ? resolve(values.views) : join(root, 'views');
const out = join(values.assets ? resolve(values.assets) : join(root, 'build'), 'views');
const shown = (path) => relative(process.cwd(), path) || '.';
const PLAIN =
  'views hold plain files and folders only, since what the build reads ends up in the page every host loads; put the file itself there, or delete it';
const isInside = (dir, path) => {
  const rel = relative(dir, path);
  return !rel.startsWith('..') && !isAbsolute(rel);
};
const SCRIPT = /<script\b[^>]*\bsrc="\.\/([\w./-]+\.ts)"[^>]*><\/script>/g;
const LOCAL_REFERENCE = /\b(?:src|href)="\.{0,2}\/(?!\/)[^"]*"/;

/**
 * zod's `z` namespace, which the client SDK under `App` imports whole, re-exports every locale
 * (`z.locales`), so all forty reach the bundle (about 260 KB minified) though only English is
 * used. A view speaks to its host, not to people in zod's error messages: English alone.
 */
const englishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, ({ path, importer, resolveDir }) =>
      /[\\/]zod[\\/]/.test(importer) ? { path: join(resolveDir, path), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, ({ path }) => ({
      contents: `export { default as en } from ${JSON.stringify(join(path, '..', 'en.js'))};`,
      resolveDir: join(path, '..'),
    }));
  },
};

/**
 * esbuild follows links and imports anywhere: every file it loads (by its real path) must be in
 * the views folder, the project, or an installed package, so a link's target elsewhere, or an
 * import of `/home/you/.docker/config.json`, fails the build instead of landing in the page.
 */
const withinProject = (folders) => ({
  name: 'within-project',
  setup(build) {
    build.onLoad({ filter: /.*/, namespace: 'file' }, ({ path }) =>
      folders.some((folder) => isInside(folder, path)) || path.split(sep).includes('node_modules')
        ? undefined
        : {
            errors: [
              {
                text: `${path} is outside the project: a view bundles the project's files and its packages only; copy it in`,
              },
            ],
          },
    );
  },
});

async function bundle(entry) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    plugins: [englishOnly, withinProject([realpathSync(sources), realpathSync(root)])],
    logLevel: 'silent',
  });
  const text = (ext) =>
    result.outputFiles
      .filter((f) => f.path.endsWith(ext))
      .map((f) => f.text)
      .join('');
  return { js: text('.js'), css: text('.css') };
}

/** One page: its HTML with each TypeScript entry inlined as a module script and the CSS it imports as a style. */
async function buildPage(page) {
  const dir = join(sources, page);
  const where = shown(join(dir, 'index.html'));
  let html = readInput(join(dir, 'index.html')).toString('utf8');
  if (!/^\s*<!doctype html>/i.test(html))
    throw new Error(`${where} must start with <!doctype html> (spec extensions/apps: a view is an HTML5 document)`);
  const styles = [];
  for (const [tag, file] of [...html.matchAll(SCRIPT)]) {
    const entry = resolve(dir, file);
    if (!isInside(dir, entry))
      throw new Error(
        `${where}: ./${file} is outside the page's folder; a page's scripts are its own (import shared code from one of them)`,
      );
    const { js, css } = await bundle(entry);
    // Inside an inline script, "</script" would end it early.
    if (/<\/script/i.test(js))
      throw new Error(`${where}: the bundle of ${file} contains "</script", which would end the inline script`);
    html = html.replace(tag, () => `<script type="module">${js}</script>`);
    if (css) styles.push(css);
  }
  const left = LOCAL_REFERENCE.exec(html);
  if (left)
    throw new Error(
      `${where}: ${left[0]} would not load in a host, which reads the view from resources/read; import it from the page's script, or inline it`,
    );
  if (styles.length > 0) {
    if (!/<\/head>/i.test(html)) throw new Error(`${where} needs a <head> for the styles its script imports`);
    html = html.replace(/<\/head>/i, () => `<style>${styles.join('')}</style></head>`);
  }
  return html;
}

/** Every entry under `dir` that is not a plain file or folder, as a problem naming it. */
function notPlain(dir, problems = []) {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    const kind = inputKind(path);
    if (kind === 'folder') notPlain(path, problems);
    else if (kind !== 'file') problems.push(`${shown(path)} is ${kind}: ${PLAIN}`);
  }
  return problems;
}

const top = inputKind(sources);
const problems =
  top === 'folder' ? notPlain(sources) : top === undefined ? [] : [`${shown(sources)} is ${top}: ${PLAIN}`];
if (problems.length > 0) {
  console.error(`views refused:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  process.exit(1);
}
const pages =
  top === 'folder'
    ? readdirSync(sources).filter(
        (name) =>
          inputKind(join(sources, name)) === 'folder' && inputKind(join(sources, name, 'index.html')) === 'file',
      )
    : [];
// Builds of several configs (tests start wrangler.toml and test/wrangler.toml at once) may run
// together: each file is replaced whole (a rename), and only files of pages gone are removed.
mkdirSync(out, { recursive: true });
for (const file of readdirSync(out))
  if (file.endsWith('.html') && !pages.includes(file.slice(0, -'.html'.length)))
    rmSync(join(out, file), { force: true });
for (const page of pages) {
  const html = await buildPage(page);
  const partial = join(out, `.${page}.${process.pid}.tmp`);
  writeFileSync(partial, html);
  renameSync(partial, join(out, `${page}.html`));
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `view ${page}: ${kb(Buffer.byteLength(html))}, ${kb(gzipSync(html).length)} gzip → ${shown(join(out, `${page}.html`))}`,
  );
}
if (pages.length === 0) console.log('views: none (views/<page>/index.html)');
