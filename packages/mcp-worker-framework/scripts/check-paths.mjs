/**
 * Every path that the docs and the code's comments name must exist, so a reader who follows one
 * finds the file (`npm run check`). Read: this package's docs/ (and its README and changelog, when
 * there), the repository's README (the template's front door, which links into this package's
 * docs), and the comments of this package's src/, test/, scripts/ and bench/. Each Markdown link
 * to a file must reach it from the file that holds the link; a path named in a code span, a file
 * map or a comment is found as written, or with `.ts` (an import's name), in this package or in
 * the template around it (the fork's `src/index.ts`, `wrangler.toml`…); the examples' own files
 * may be gone, since a fork deletes them (README, "Make it yours").
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** This package, and the repository around it: the template, whose README is the front door. */
const pkg = new URL('..', import.meta.url).pathname;
const repo = join(pkg, '../..');
const PATH = /(?<![\w./-])(?:src|test|docs|scripts|bench|packages|\.ci)\/[\w./-]*\w(?:\/)?/g;
/** What a fork deletes with the examples: a doc may still name them. */
const EXAMPLES = /^(?:src\/(?:tools|resources|prompts)(?:\/|$)|test\/examples(?:\/|$))/;

function* files(dir, ext) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === 'node_modules' || entry.startsWith('.out')) continue;
    if (statSync(path).isDirectory()) yield* files(path, ext);
    else if (ext.test(entry)) yield path;
  }
}

/** A fenced block in a language is an example of code you would write; one with none is a file map. */
const FENCED = /^```[\s\S]*?^```/gm;
/** The text of a Markdown file a reader follows: code spans, and fenced blocks with no language (file maps). */
const markdownText = (text) => {
  const maps = text.match(/^```\n[\s\S]*?^```/gm) ?? [];
  const spans = text.replace(FENCED, '').match(/`[^`\n]+`/g) ?? [];
  return [...maps, ...spans].join('\n');
};
/** The file targets of a Markdown file's links (no scheme, no site path, no bare anchor), without their anchors. */
const linkTargets = (text) =>
  [...text.replace(FENCED, '').matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target.replace(/#.*$/, ''))
    .filter((target) => target !== '' && !/^(?:[a-z][a-z0-9+.-]*:|\/)/i.test(target));

/** The comments of a source file (a block comment opens after a space or a line's start, so a glob's `/*` in a string opens none). */
const commentText = (text) => text.match(/(?:^|\s)\/\*[\s\S]*?\*\/|\/\/[^\n]*/gm)?.join('\n') ?? '';

/** What a build or an install makes: named, but not in the repository. */
const MADE = /(?:^|\/)(?:\.out|node_modules|dist)(?:\/|$)/;

const exists = (base, path) => existsSync(join(base, path)) || existsSync(join(base, `${path}.ts`));
/** A named path, found in one of the folders it may be read from. */
const found = (path, bases) => {
  const clean = path.replace(/\/$/, '').replace(/[#:].*$/, '');
  return EXAMPLES.test(clean) || MADE.test(clean) || bases.some((base) => exists(base, clean));
};

const optional = (file) => (existsSync(file) ? [file] : []);
/** Each file read, with the text of it that names paths and the folders those paths are read from. */
const sources = [
  ...[join(repo, 'README.md')].map((file) => [file, markdownText, [repo]]),
  ...[
    ...optional(join(pkg, 'README.md')),
    ...optional(join(pkg, 'CHANGELOG.md')),
    ...files(join(pkg, 'docs'), /\.md$/),
  ].map((file) => [file, markdownText, [pkg, repo]]),
  ...['src', 'test', 'scripts', 'bench']
    .flatMap((dir) => [...files(join(pkg, dir), /\.(?:ts|mjs)$/)])
    .map((file) => [file, commentText, [pkg, repo]]),
];
/**
 * The template's own files, which a fork keeps: their comments may name only what a fork has, its
 * own files and the package's as installed (`node_modules/mcp-worker-framework/docs/…`), never a
 * folder of this repository a fork does not have (docs/, scripts/, packages/…). Issue 44, item 5.
 */
const FORK_PATH =
  /(?<![\w./-])(?:node_modules\/mcp-worker-framework\/)?(?:src|test|docs|scripts|bench|packages|\.ci|views|skills)\/[\w./-]*\w/g;
const hashComments = (text) => text.match(/#[^\n]*/g)?.join('\n') ?? '';
const templateFiles = [
  ...['wrangler.toml', '.dev.vars.example'].map((file) => [file, hashComments]),
  ...['tsconfig.json', 'biome.jsonc', 'vitest.config.ts', 'vitest.browser.config.ts', 'skills/index.ts'].map((file) => [
    file,
    commentText,
  ]),
  ...['src', 'test', 'views']
    .filter((dir) => existsSync(join(repo, dir)))
    .flatMap((dir) => [...files(join(repo, dir), /\.(?:ts|json)$/)])
    .map((file) => [relative(repo, file), commentText]),
].filter(([file]) => existsSync(join(repo, file)));
/** A path a comment of the template names that a fork cannot open, and why. */
function unreachableInFork(path, root = repo) {
  if (!/^(?:node_modules\/mcp-worker-framework\/|src\/|test\/|views\/|skills\/)/.test(path))
    return `${path}: a fork has no ${path.split('/')[0]}/ (name node_modules/mcp-worker-framework/${path.replace(/^packages\/mcp-worker-framework\//, '')})`;
  const clean = path.replace(/\/$/, '');
  return EXAMPLES.test(clean) || exists(root, clean) ? undefined : `${path}: not found`;
}

const missing = [];
for (const [file, text] of templateFiles) {
  for (const path of new Set(text(readFileSync(join(repo, file), 'utf8')).match(FORK_PATH) ?? [])) {
    const why = unreachableInFork(path);
    if (why) missing.push(`${file} (a fork's own file): ${why}`);
  }
}
for (const [file, text, bases] of sources) {
  const lines = readFileSync(file, 'utf8');
  const named = relative(repo, file);
  for (const path of new Set(text(lines).match(PATH) ?? [])) if (!found(path, bases)) missing.push(`${named}: ${path}`);
  if (file.endsWith('.md'))
    for (const target of new Set(linkTargets(lines)))
      if (!existsSync(join(dirname(file), decodeURI(target)))) missing.push(`${named}: link ${target}`);
}
if (missing.length > 0) {
  console.error(`paths: ${missing.length} named but not found:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `paths: every path named in ${sources.length} files exists, and the ${templateFiles.length} files a fork keeps name only what a fork has`,
);
