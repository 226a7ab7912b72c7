/**
 * The README's "make it yours" step, applied to a copy of this repository: shared by
 * `npm run test:fork` (scripts/fork-check.mjs), which then checks the fork stays green, and by the
 * benchmark (bench/build.mjs), which measures the Worker such a fork ships.
 *
 *   copyRepository(root, fork);            // tracked and untracked-not-ignored files, node_modules linked
 *   makeItYours(fork, { name, cardName }); // the examples deleted, the server and package renamed
 *   const tool = addReadmeTool(root, fork); // the README's "Add a tool" tool, in `tools`
 *
 * A pattern that no longer matches means the template drifted from these steps: `fail` is called
 * (default: throw) with the step and why.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The examples (test/examples holds the Worker that runs them with tasks and sign-in on).
export const EXAMPLES = [
  'src/tools',
  'src/resources',
  'src/prompts',
  'views/world-clock',
  'skills/plan-a-meeting',
  'test/examples',
];

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
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.search(new RegExp(`^#{1,6} ${heading}$`, 'm'));
  if (start < 0) fail('read the README', `no "${heading}" section`);
  const section = readme.slice(readme.indexOf('\n', start)).split(/\n#{1,6} /)[0];
  const blocks = /```(?:ts\n\/\/ (\S+)|html\n<!-- (\S+) -->)\n([\s\S]*?)```/g;
  const files = [...section.matchAll(blocks)].map(([, ts, html, code]) => ({ path: ts ?? html, code }));
  if (files.length === 0) fail('read the README', `"${heading}" has no \`\`\`ts block starting with // <path>`);
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

/** Make it yours: no examples, a new name, the example's upstream var gone. */
export function makeItYours(fork, { name, cardName }, fail = throwing) {
  const edit = (file, pattern, replacement) => editFile(fork, file, pattern, replacement, fail);
  for (const folder of EXAMPLES) rmSync(join(fork, folder), { recursive: true, force: true });
  edit('src/server.ts', /^import .* from '\.\/(tools|resources|prompts)\/.*';\n/gm, '');
  edit('src/server.ts', /^(\s+)(resources|resourceTemplates|prompts): \[[^\]]*\],/gm, '$1$2: [],');
  edit('src/server.ts', /(info: \{ name: )'[^']*'/, `$1'${name}'`);
  // (on one line, as the formatter writes it: the template's longer text is wrapped onto the next)
  edit('src/server.ts', /^(\s+)instructions:\s*'[^']*'/m, "$1instructions: 'Greets people by name.'");
  edit('src/server.ts', /(card: \{\s+name: )'[^']*'/, `$1'${cardName}'`);
  const { name: templateName } = JSON.parse(readFileSync(join(fork, 'package.json'), 'utf8'));
  const named = (n) => new RegExp(`"name": "${n}"`, 'g');
  edit('package.json', named(templateName), `"name": "${name}"`);
  edit('package-lock.json', named(templateName), `"name": "${name}"`);
  edit('wrangler.toml', /^name = "[^"]*"/m, `name = "${name}"`);
  edit('wrangler.toml', /^(#.*\n)?GITHUB_API_URL = .*\n/m, ''); // with its comment line
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
  editFile(
    fork,
    'src/server.ts',
    /^(import .* from '\.\/mcp';\n)/m,
    `$1import { ${exported} } from './tools/${module}';\n`,
    fail,
  );
  editFile(fork, 'src/server.ts', /^(\s+)tools: \[[^\]]*\],/m, `$1tools: [${exported}],`, fail);
  return { ...tool, exported, toolName: /name: '([^']+)'/.exec(tool.code)?.[1] };
}
