/**
 * The README's "Make it yours", applied to a copy of the repository: shared by `npm run test:fork`
 * (scripts/fork-check.mjs), which then checks the fork stays green, by `npm run test:packed`
 * (scripts/packed-check.mjs), whose fork takes a newer version, and by the benchmark
 * (bench/build.mjs), which measures the Worker such a fork ships. `root` is the repository's root
 * (the template, with the README), never this package's folder.
 *
 *   copyRepository(root, fork);            // tracked and untracked-not-ignored files, node_modules linked
 *   copyTemplate(root, dir);               // the same without packages/ and the workspace: a fork on the published package
 *   copyClone(root, dir);                  // what a clone has, workspace copy included, no node_modules
 *   makeItYours(fork, { name, cardName }); // the examples the README names deleted, the server and package renamed
 *   const tool = addReadmeTool(root, fork); // the README's "Add a tool" tool, in `tools`
 *   addReadmeTests(root, fork);            // the README's "Test your tool" tests
 *
 * A pattern that no longer matches means the template drifted from these steps: `fail` is called
 * (default: throw) with the step and why.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const throwing = (step, why) => {
  throw new Error(`${step}: ${why}`);
};

/** Replaces `pattern` in a file of `dir`. */
export function editFile(dir, file, pattern, replacement, fail = throwing) {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  if (!pattern.test(text)) fail('make it yours', `${file} no longer contains ${pattern}`);
  writeFileSync(path, text.replace(pattern, replacement));
}

/** The ```ts and ```html blocks of a README section (any heading level) whose first line names their file (`// path`, `<!-- path -->`). */
export function readmeFiles(root, heading, fail = throwing) {
  return markdownFiles(join(root, 'README.md'), heading, fail);
}

/** The same, of a section of any Markdown file (a doc of the framework's). */
export function markdownFiles(file, heading, fail = throwing) {
  const text = readFileSync(file, 'utf8');
  const named = file.split('/').slice(-2).join('/');
  const start = text.search(new RegExp(`^#{1,6} ${literally(heading)}$`, 'm'));
  if (start < 0) fail(`read ${named}`, `no "${heading}" section`);
  const section = text.slice(text.indexOf('\n', start)).split(/\n#{1,6} /)[0];
  const blocks = /```(?:ts[^\n]*\n\/\/ ([^\s:,]+)[^\n]*|html\n<!-- (\S+) -->)\n([\s\S]*?)```/g;
  // The line that names the file is not part of it.
  const files = [...section.matchAll(blocks)].map(([, ts, html, code]) => ({ path: ts ?? html, code }));
  if (files.length === 0) fail(`read ${named}`, `"${heading}" has no \`\`\`ts block starting with // <path>`);
  return files;
}

/** What a copy without git leaves out: what .gitignore lists (outputs, installs, local secrets). */
const NOT_CLONED = [
  '.git',
  'node_modules',
  'dist',
  '.wrangler',
  '.dev.vars',
  'build',
  'bench/.out',
  'bench/node_modules',
  'test-output',
  'server.json',
];

/** The files of `root` a clone has: git's list, or, in a copy that is no repository (the fork check's), every file but NOT_CLONED. */
function filesOf(root) {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return listed.split('\0').filter(Boolean);
  } catch {
    const files = [];
    const walk = (dir) => {
      for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        if (NOT_CLONED.includes(path) || entry.name.endsWith('.log')) continue;
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile()) files.push(path);
      }
    };
    walk('');
    return files;
  }
}

/** A copy of what a clone of `root` has, with its node_modules (a symlink: no install, same versions). */
export function copyRepository(root, fork) {
  for (const file of new Set(filesOf(root))) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(fork, file)), { recursive: true });
    cpSync(join(root, file), join(fork, file));
  }
  symlinkSync(join(root, 'node_modules'), join(fork, 'node_modules'), 'dir');
}

/** What a clone of `root` has, workspace copy included, without node_modules: a fork that installs its own. */
export function copyClone(root, dir) {
  for (const file of new Set(filesOf(root))) {
    if (!existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(root, file), join(dir, file));
  }
}

/**
 * The template as a fork on the published package has it: what a clone of `root` has but
 * packages/, and no `workspaces` in package.json. No node_modules: the copy installs its own.
 */
export function copyTemplate(root, dir) {
  for (const file of new Set(filesOf(root))) {
    if (file.startsWith('packages/') || !existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(root, file), join(dir, file));
  }
  const { workspaces, ...manifest } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The text of the README's "Make it yours" step whose bold title starts with `title`, on one line. */
export function makeItYoursStep(dir, title, fail = throwing) {
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const section = readme.slice(readme.search(/^## Make it yours$/m)).split(/\n## /)[0];
  const steps = section.split(/^(?=\d+\. \*\*)/m).slice(1);
  const step = steps.find((text) => text.replace(/^\d+\. \*\*/, '').startsWith(title));
  if (!step) fail('read the README', `"Make it yours" has no step "${title}"`);
  return step.split(/\n(?=\S)/)[0].replace(/\s+/g, ' ');
}

const literally = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What the README's "Delete the examples" step names: every `path` in it that is a file or folder
 * of the fork; of a folder it names as "all of `test/` but `a` and `b`" (or "every file of"), all but those.
 */
export function examplesOf(dir, fail = throwing) {
  const step = makeItYoursStep(dir, 'Delete the examples', fail);
  // A path after "in" is where a line goes (`their lines in \`src/server.ts\``), not an example.
  const named = [...new Set([...step.matchAll(/(?<!\bin )`([^`\s]+)`/g)].map(([, path]) => path))];
  const deleted = [];
  for (const path of named) {
    if (!/[/.]/.test(path) || !existsSync(join(dir, path))) continue;
    const but = new RegExp(`(?:all|every file) of \`${literally(path)}\` but ((?:\`[^\`]+\`(?:,? and |, )?)+)`).exec(
      step,
    );
    if (!but) {
      if (!named.some((other) => other !== path && path.startsWith(other.replace(/\/?$/, '/')))) deleted.push(path);
      continue;
    }
    const kept = [...but[1].matchAll(/`([^`]+)`/g)].map(([, name]) => name.replace(path, ''));
    const folder = path.replace(/\/?$/, '/');
    for (const entry of readdirSync(join(dir, path))) if (!kept.includes(entry)) deleted.push(`${folder}${entry}`);
  }
  if (!deleted.some((path) => path.startsWith('src/tools')))
    fail('read the README', `"Delete the examples" names no example that is there (it names ${named.join(', ')})`);
  return deleted;
}

/** Make it yours, as the README says: no examples (step "Delete the examples"), a new name (step "Names"). Returns what it deleted. */
export function makeItYours(fork, { name, cardName }, fail = throwing) {
  const edit = (file, pattern, replacement) => editFile(fork, file, pattern, replacement, fail);
  const examples = examplesOf(fork, fail);
  for (const path of examples) rmSync(join(fork, path), { recursive: true, force: true });
  // "their lines in `src/server.ts`"
  edit('src/server.ts', /^import .* from '\.\/(tools|resources|prompts)\/.*';\n/gm, '');
  edit('src/server.ts', /^(\s+)(tools|resources|resourceTemplates|prompts): \[[^\]]*\],/gm, '$1$2: [],');
  // "and `GITHUB_API_URL` in `wrangler.toml`", with its comment line
  if (makeItYoursStep(fork, 'Delete the examples', fail).includes('`GITHUB_API_URL` in `wrangler.toml`'))
    edit('wrangler.toml', /^(#.*\n)?GITHUB_API_URL = .*\n/m, '');
  // Step "Names": `name` in package.json and wrangler.toml, `info` and `card` in src/server.ts.
  const names = makeItYoursStep(fork, 'Names', fail);
  for (const said of ['`name` in `package.json`', '`wrangler.toml`', '`info` in `src/server.ts`', '`card`'])
    if (!names.includes(said)) fail('read the README', `the step "Names" no longer says ${said}`);
  edit('src/server.ts', /(info: \{ name: )'[^']*'/, `$1'${name}'`);
  // (on one line, as the formatter writes it: the template's longer text is wrapped onto the next)
  edit('src/server.ts', /^(\s+)instructions:\s*'[^']*'/m, "$1instructions: 'Greets people by name.'");
  edit('src/server.ts', /(card: \{\s+name: )'[^']*'/, `$1'${cardName}'`);
  edit('package.json', /^( {2}"name": )"[^"]*"/m, `$1"${name}"`);
  edit('wrangler.toml', /^name = "[^"]*"/m, `name = "${name}"`);
  return examples;
}

/** Adds an import line to a file of `dir`, after its last one. */
export function addImport(dir, file, line, fail = throwing) {
  editFile(dir, file, /^((?:import [^;]*;\n)+)(?![\s\S]*^import )/m, `$1${line}\n`, fail);
}

/**
 * Adds the README's "Add a tool" tool to the fork, exactly as the README shows it, and lists it
 * in `tools` of src/server.ts. Returns its block ({ path, code }), its export and its tool name.
 */
export function addReadmeTool(root, fork, fail = throwing) {
  const [tool] = readmeFiles(root, 'Add a tool', fail);
  const exported = /export const (\w+)/.exec(tool.code)?.[1];
  const module = /^src\/tools\/(.+)\.ts$/.exec(tool.path)?.[1];
  if (!exported || !module)
    fail('add a tool', `the README's tool block (${tool.path}) does not export a tool from src/tools/`);
  mkdirSync(dirname(join(fork, tool.path)), { recursive: true });
  writeFileSync(join(fork, tool.path), tool.code);
  addImport(fork, 'src/server.ts', `import { ${exported} } from './tools/${module}';`, fail);
  editFile(fork, 'src/server.ts', /^(\s+)tools: \[[^\]]*\],/m, `$1tools: [${exported}],`, fail);
  return { ...tool, exported, toolName: /name: '([^']+)'/.exec(tool.code)?.[1] };
}

/** Writes the README's "Test your tool" tests into the fork, exactly as the README shows them; returns their blocks. */
export function addReadmeTests(root, fork, fail = throwing) {
  const tests = readmeFiles(root, 'Test your tool', fail);
  for (const { path, code } of tests) {
    mkdirSync(dirname(join(fork, path)), { recursive: true });
    writeFileSync(join(fork, path), code);
  }
  return tests;
}
