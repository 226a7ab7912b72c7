/**
 * Every TypeScript block a user would paste compiles in the template (`npm run check`), and one
 * that is a whole file passes the fork's `biome ci` as pasted: the
 * ```ts blocks of the repository's README, this package's README and docs/*.md, type-checked
 * against the template's src/ with its own tsconfig files, as a fork would compile them.
 *
 * - A block whose first line names a file of the template (`// src/tools/<name>.ts`,
 *   `// test/<name>.test.ts`, `// views/<page>/main.ts`) is that file: it is written there (over
 *   the template's, if it has one) and compiled by the tsconfig of its folder (test/ and views/
 *   have their own). Two blocks that name one file are compiled in separate rounds.
 * - Any other block is pasted into src/index.ts: it is compiled beside it, with the imports of the
 *   template's src/index.ts that it does not make itself (`createWorker`, `serverDefinition`,
 *   `bearer`, `apps`, `skills`), and the global `Env`.
 * - A block whose first line names a script at the template's root (`// client.mts`) runs in Node:
 *   it is compiled by test/tsconfig.json, as the tests are.
 * - ```ts env=NAME,… declares the vars and secrets a block reads that the doc tells the user to
 *   add (in `.dev.vars.example` or `[vars]`): they are typed as `npm run cf-typegen` would.
 * - ```ts nocheck marks a fragment that is no file (an object's fields, one handler, a type shown
 *   for reading) or code inside this package: used sparingly, the check prints how many.
 *
 *   node scripts/check-docs.mjs            # the template around this package (../..)
 *   node scripts/check-docs.mjs --root DIR # another copy of the template (its README; this package's docs)
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('..', import.meta.url));

/** The folders of the template a block may name, each compiled by its own tsconfig. */
const PROJECTS = {
  src: 'tsconfig.json',
  skills: 'tsconfig.json',
  test: 'test/tsconfig.json',
  views: 'views/tsconfig.json',
};
const NAMED = /^\/\/ ((?:src|test|views|skills)\/[\w./-]+\.ts|[\w.-]+\.mts)\b/;
/** Where a block that names a file is written in the copy: a root script among the tests, which run in Node too. */
const placeOf = (path) => (path.includes('/') ? path : `test/root-scripts/${path}`);

/** The ```ts blocks of a Markdown file: `{ doc, line, info, code }`, line being the fence's. */
export function tsBlocks(doc, text) {
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    // A fence may be indented, in a list item: its lines lose that indentation (CommonMark, fenced code blocks).
    const fence = /^( *)```(ts|typescript)\b(.*)$/.exec(lines[i]);
    if (!fence) {
      if (/^ *```/.test(lines[i])) while (++i < lines.length && !/^ *```\s*$/.test(lines[i]));
      continue;
    }
    const start = i;
    const indent = fence[1].length;
    const body = [];
    while (++i < lines.length && !/^ *```\s*$/.test(lines[i]))
      body.push(lines[i].replace(new RegExp(`^ {0,${indent}}`), ''));
    blocks.push({
      doc,
      line: start + 1,
      info: fence[3].trim().split(/\s+/).filter(Boolean),
      code: `${body.join('\n')}\n`,
    });
  }
  return blocks;
}

/** The names a block imports or declares at its top level (enough to leave them out of the prelude). */
function ownNames(code) {
  const names = new Set();
  for (const [, list] of code.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}/gm))
    for (const part of list.split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.replace(/^type\s+/, '');
      if (name) names.add(name);
    }
  for (const [, name] of code.matchAll(/^import\s+(?:type\s+)?(\w+)\s+from/gm)) names.add(name);
  for (const [, name] of code.matchAll(/^import\s+\*\s+as\s+(\w+)/gm)) names.add(name);
  for (const [, name] of code.matchAll(/^(?:export\s+)?(?:const|let|function|class|interface|type)\s+(\w+)/gm))
    names.add(name);
  return names;
}

/** The import lines of the template's src/index.ts, each with the names it binds. */
function indexImports(template) {
  const text = readFileSync(join(template, 'src', 'index.ts'), 'utf8');
  return [...text.matchAll(/^import\s+(type\s+)?\{([^}]*)\}\s+from\s+('[^']+');$/gm)].map(([, type, list, from]) => ({
    type: Boolean(type),
    names: list
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
    from,
  }));
}

/** A block pasted into src/index.ts: the imports it would find there, for the names it does not bring. */
function prelude(imports, code) {
  const own = ownNames(code);
  return imports
    .map(({ type, names, from }) => ({ type, names: names.filter((n) => !own.has(n.replace(/^type\s+/, ''))), from }))
    .filter(({ names }) => names.length > 0)
    .map(({ type, names, from }) => `import ${type ? 'type ' : ''}{ ${names.join(', ')} } from ${from};`)
    .join('\n');
}

/** The Markdown a user reads: the template's README, this package's README and its docs. */
const markdownFiles = (root) => [
  join(root, 'README.md'),
  join(pkg, 'README.md'),
  ...readdirSync(join(pkg, 'docs'))
    .filter((entry) => entry.endsWith('.md'))
    .sort()
    .map((entry) => join(pkg, 'docs', entry)),
];

/** What a fork compiles: its manifest, configs, src/, skills/index.ts, Env, and node_modules linked. */
function copyTemplate(root, into) {
  for (const file of [
    'package.json',
    'tsconfig.json',
    'biome.jsonc',
    'worker-configuration.d.ts',
    'test/tsconfig.json',
    'views/tsconfig.json',
    'views/env.d.ts',
    'skills/index.ts',
  ])
    if (existsSync(join(root, file))) {
      mkdirSync(dirname(join(into, file)), { recursive: true });
      cpSync(join(root, file), join(into, file));
    }
  cpSync(join(root, 'src'), join(into, 'src'), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(into, 'node_modules'), 'dir');
}

/**
 * Compiles the blocks of `files` (default: the template's README, this package's README and docs)
 * in copies of the template at `root`; returns how many were checked, the ones marked nocheck, and
 * each error as `doc:line: message`.
 */
export function checkDocs({ root = join(pkg, '..', '..'), files = markdownFiles(root) } = {}) {
  const resolve = createRequire(join(root, 'package.json')).resolve;
  const tsc = join(dirname(resolve('typescript/package.json')), 'bin', 'tsc');
  const biomeBin = join(dirname(resolve('@biomejs/biome/package.json')), 'bin', 'biome');
  const blocks = files.flatMap((file) => tsBlocks(relative(root, file), readFileSync(file, 'utf8')));
  const skipped = blocks.filter((b) => b.info.includes('nocheck'));
  const checked = blocks.filter((b) => !b.info.includes('nocheck'));
  const imports = indexImports(root);
  // Round r holds the r-th block that names each file; every block that names none is in round 0.
  const rounds = [];
  const seen = new Map();
  for (const block of checked) {
    const named = NAMED.exec(block.code)?.[1];
    const path = named ? placeOf(named) : `src/doc-${block.doc.replace(/[^\w]+/g, '-')}-${block.line}.ts`;
    const round = seen.get(path) ?? 0;
    seen.set(path, round + 1);
    const head = named ? '' : `${prelude(imports, block.code)}\n`;
    (rounds[round] ??= []).push({ ...block, path, text: head + block.code, offset: head.split('\n').length - 1 });
  }
  const errors = [];
  const dir = mkdtempSync(join(tmpdir(), 'mcp-docs-'));
  try {
    rounds.forEach((placed, r) => {
      const copy = join(dir, `round-${r}`);
      copyTemplate(root, copy);
      const declared = [
        ...new Set(
          placed.flatMap((b) => b.info.filter((i) => i.startsWith('env=')).flatMap((i) => i.slice(4).split(','))),
        ),
      ];
      if (declared.length > 0) {
        const fields = declared.map((name) => `${name}: string;`).join(' ');
        writeFileSync(
          join(copy, 'src', 'doc-env.d.ts'),
          `declare namespace Cloudflare { interface Env { ${fields} } }\ninterface Env { ${fields} }\n`,
        );
      }
      for (const block of placed) {
        mkdirSync(dirname(join(copy, block.path)), { recursive: true });
        writeFileSync(join(copy, block.path), block.text);
      }
      // A whole file a user pastes must also pass the fork's `biome ci` (format and lint), as pasted.
      const whole = placed.filter((b) => !b.path.startsWith('src/doc-'));
      if (whole.length > 0) {
        const biome = spawnSync(
          process.execPath,
          [biomeBin, 'ci', '--colors=off', '--vcs-enabled=false', ...whole.map((b) => b.path)],
          { cwd: copy, encoding: 'utf8' },
        );
        for (const [, file, category] of `${biome.stdout}${biome.stderr}`.matchAll(
          /^(\S+\.m?ts)(?::\d+:\d+)? ((?:format|lint\/\S+|assist\/\S+))/gm,
        )) {
          const block = whole.find((b) => b.path === file);
          if (block)
            errors.push(
              `${block.doc}:${block.line}: biome ${category}: as pasted, \`npm run check\` of a fork fails (\`npm run format\` would change it)`,
            );
        }
      }
      const projects = new Set(placed.map((b) => PROJECTS[b.path.split('/')[0]]));
      for (const project of projects) {
        const run = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
          cwd: copy,
          encoding: 'utf8',
        });
        for (const line of `${run.stdout}${run.stderr}`.split('\n').filter(Boolean)) {
          const at = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line);
          const block = at && placed.find((b) => b.path === at[1]);
          // An error outside the blocks (the template's own src/) is the template's, and npm run check's.
          if (block) errors.push(`${block.doc}:${block.line + Number(at[2]) - block.offset}: ${at[4]}`);
          else if (!at && run.status !== 0 && !/^\s/.test(line)) errors.push(`${project} (round ${r}): ${line}`);
          else if (at)
            errors.push(`${relative(copy, join(copy, at[1]))} (beside the docs' blocks, round ${r}): ${at[4]}`);
        }
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { checked: checked.length, skipped, errors: [...new Set(errors)] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const { checked, skipped, errors } = checkDocs(at > 0 ? { root: process.argv[at + 1] } : {});
  if (errors.length > 0) {
    console.error(
      `docs: ${errors.length} errors in the TypeScript blocks a user would paste:\n${errors.map((e) => `  - ${e}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log(
    `docs: ${checked} TypeScript blocks compile in the template (${skipped.length} marked nocheck: ${skipped.map((b) => `${b.doc}:${b.line}`).join(', ')})`,
  );
}
