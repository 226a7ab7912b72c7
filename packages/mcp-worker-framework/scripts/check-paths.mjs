/**
 * Every path of this repository that the docs and the code's comments name must exist, so a
 * reader who follows one finds the file (`npm run check`). Read: the README and docs/ (links,
 * code spans and file maps, not examples of files you would write), and the comments of src/,
 * test/, scripts/ and bench/. A path is found as written, or with `.ts` (an import's name);
 * the examples' own files may be gone, since a fork deletes them (README, "Make it yours").
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const PATH = /(?<![\w./-])(?:src|test|docs|scripts|bench|\.ci)\/[\w./-]*\w(?:\/)?/g;
/** What a fork deletes with the examples: a doc may still name them. */
const EXAMPLES = /^(?:src\/(?:tools|resources|prompts)(?:\/|$)|test\/examples(?:\/|$))/;

function* files(dir, ext) {
  for (const entry of readdirSync(join(root, dir))) {
    const path = join(dir, entry);
    if (entry === 'node_modules' || entry.startsWith('.out')) continue;
    if (statSync(join(root, path)).isDirectory()) yield* files(path, ext);
    else if (ext.test(entry)) yield path;
  }
}

/**
 * The text of a Markdown file a reader follows: links and code spans, and fenced blocks with no
 * language (file maps); a fenced block in a language is an example of code you would write.
 */
const markdownText = (text) => {
  const maps = text.match(/^```\n[\s\S]*?^```/gm) ?? [];
  const prose = text.replace(/^```[\s\S]*?^```/gm, '').match(/\]\([^)]*\)|`[^`\n]+`/g) ?? [];
  return [...maps, ...prose].join('\n');
};

/** The comments of a source file. */
const commentText = (text) => text.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)?.join('\n') ?? '';

/** What a build or an install makes: named, but not in the repository. */
const MADE = /(?:^|\/)(?:\.out|node_modules|dist)(?:\/|$)/;

const found = (path) => {
  const clean = path.replace(/\/$/, '').replace(/[#:].*$/, '');
  return (
    EXAMPLES.test(clean) || MADE.test(clean) || existsSync(join(root, clean)) || existsSync(join(root, `${clean}.ts`))
  );
};

const sources = [
  ...['README.md', ...files('docs', /\.md$/)].map((file) => [file, markdownText]),
  ...['src', 'test', 'scripts', 'bench']
    .flatMap((dir) => [...files(dir, /\.(?:ts|mjs)$/)])
    .map((file) => [file, commentText]),
];
const missing = [];
for (const [file, text] of sources) {
  const lines = readFileSync(join(root, file), 'utf8');
  for (const path of new Set(text(lines).match(PATH) ?? []))
    if (!found(path)) missing.push(`${relative(root, join(root, file))}: ${path}`);
}
if (missing.length > 0) {
  console.error(`paths: ${missing.length} named but not found:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
  process.exit(1);
}
console.log(`paths: every path named in ${sources.length} files exists`);
