/**
 * The spec coverage table (docs/spec-coverage.md), generated from test/spec/requirements.json.
 *
 *   node scripts/spec-coverage.mjs           writes docs/spec-coverage.md
 *   node scripts/spec-coverage.mjs --check   fails when the table would change, when a normative
 *                                            sentence of the spec has no entry (or an entry no
 *                                            longer matches the spec), when an entry has neither a
 *                                            test nor a reason, or when a cited test does not exist
 *
 * The spec is read from ../shared/spec beside the repository (as CI lays it out); the normative
 * sentences are those with a bold MUST, MUST NOT, SHOULD, SHOULD NOT, REQUIRED, SHALL (RFC 2119).
 * Without that folder (a fork's clone) the comparison with the spec is skipped, and the rest is
 * still checked: every entry has a test or a reason, every cited test exists, the table is current.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
/** Beside the repository, whose root is two folders above this package. */
const specRoot = join(root, '../../../shared/spec');
const requirementsFile = join(root, 'test/spec/requirements.json');
const testDir = join(root, 'test/spec');
const docFile = join(root, 'docs/spec-coverage.md');
/** The spec's schema, copied for the tests (test/spec/expectSchema.ts) and `mcp-worker check` (scripts/check-worker.mjs). */
const schemaCopy = join(root, 'schema/2026-07-28.json');

/** The pages whose sentences bind a server (stdio and the changelog do not apply to this Worker). */
export const PAGES = [
  '2026-07-28/basic/index.mdx',
  '2026-07-28/basic/versioning.mdx',
  '2026-07-28/basic/transports/index.mdx',
  '2026-07-28/basic/transports/streamable-http.mdx',
  '2026-07-28/basic/patterns/index.mdx',
  '2026-07-28/basic/patterns/cancellation.mdx',
  '2026-07-28/basic/patterns/mrtr.mdx',
  '2026-07-28/basic/patterns/progress.mdx',
  '2026-07-28/basic/patterns/subscriptions.mdx',
  '2026-07-28/basic/authorization/index.mdx',
  '2026-07-28/basic/authorization/authorization-server-discovery.mdx',
  '2026-07-28/basic/authorization/client-registration.mdx',
  '2026-07-28/basic/authorization/security-considerations.mdx',
  '2026-07-28/server/discover.mdx',
  '2026-07-28/server/tools.mdx',
  '2026-07-28/server/resources.mdx',
  '2026-07-28/server/prompts.mdx',
  '2026-07-28/server/utilities/caching.mdx',
  '2026-07-28/server/utilities/completion.mdx',
  '2026-07-28/server/utilities/logging.mdx',
  '2026-07-28/server/utilities/pagination.mdx',
  '2026-07-28/client/elicitation.mdx',
  '2026-07-28/client/sampling.mdx',
  '2026-07-28/client/roots.mdx',
  '2025-11-25/lifecycle.mdx',
  '2025-11-25/transports.mdx',
  '2025-11-25/authorization.mdx',
];

const KEYWORD = /\*\*(MUST NOT|MUST|SHOULD NOT|SHOULD|REQUIRED|SHALL NOT|SHALL)\*\*/;
const LIST_ITEM = /^(?:[-*]|\d+\.)\s/;

/** Every normative sentence of a page, in order; a sentence that ends in ":" carries the list below it. */
export function extract(page, text) {
  const blocks = text
    .replace(/^---[\s\S]*?---\n/, '')
    .replace(/```[\s\S]*?```/g, '\n\n')
    .split(/\n\s*\n|\n(?=\s*(?:[-*]|\d+\.)\s)|\n(?=\|)/)
    .map((block) => block.replace(/\s+/g, ' ').trim());
  const found = [];
  blocks.forEach((block, index) => {
    for (const sentence of block.split(/(?<=[.!?:])\s+(?=[A-Z*`[])/)) {
      const level = KEYWORD.exec(sentence)?.[1];
      if (!level) continue;
      let text = sentence.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1');
      if (text.endsWith(':')) {
        const items = [];
        for (
          let next = index + 1;
          next < blocks.length &&
          LIST_ITEM.test(blocks[next]) &&
          !/^\d+\.\s/.test(blocks[next]) &&
          !KEYWORD.test(blocks[next]);
          next++
        ) {
          items.push(blocks[next].replace(/^[-*]\s/, ''));
        }
        if (items.length > 0) text += ` ${items.join('; ')}`;
      }
      found.push({ page: page.replace(/\.mdx$/, ''), level, text });
    }
  });
  return found;
}

export function extractAll() {
  return PAGES.flatMap((page) => extract(page, readFileSync(join(specRoot, page), 'utf8')));
}

/** The names of every `it('…')` in test/spec (single-quoted literals, as the suites write them). */
function testNames() {
  const names = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) {
        for (const match of readFileSync(path, 'utf8').matchAll(/\bit\(\s*'((?:[^'\\]|\\.)*)'/g)) {
          const name = match[1].replace(/\\(.)/g, '$1');
          if (names.has(name)) throw new Error(`test name used twice in test/spec: ${name}`);
          names.set(name, relative(root, path));
        }
      }
    }
  };
  walk(testDir);
  return names;
}

const levelOrder = ['MUST', 'MUST NOT', 'REQUIRED', 'SHALL', 'SHALL NOT', 'SHOULD', 'SHOULD NOT'];
const isMust = (level) => level.startsWith('MUST') || level === 'REQUIRED' || level.startsWith('SHALL');

export function render(requirements, names) {
  const count = (filter) => requirements.filter(filter).length;
  const tested = (r) => r.tests?.length > 0;
  const lines = [
    '# Spec coverage',
    '',
    'Every normative sentence (bold MUST, MUST NOT, SHOULD, SHOULD NOT, REQUIRED) of the pages of',
    'revision 2026-07-28 that can bind a server, and of the 2025-11-25 pages the legacy path serves,',
    'with the test in `test/spec/` that proves it or the reason it does not bind this Worker.',
    'Generated from `test/spec/requirements.json` by `node scripts/spec-coverage.mjs`; `npm run check`',
    'fails if a sentence of the spec has no entry, an entry has neither a test nor a reason, or a cited',
    'test does not exist. Behaviour changes made to meet these sentences: [spec-edges.md](spec-edges.md).',
    '',
    '| | MUST / MUST NOT / REQUIRED | SHOULD / SHOULD NOT |',
    '| --- | ---: | ---: |',
    `| binds a server: tested | ${count((r) => isMust(r.level) && tested(r) && r.binds === 'server')} | ${count((r) => !isMust(r.level) && tested(r) && r.binds === 'server')} |`,
    `| binds a server: not tested, reason given (not applicable to this Worker, or a deliberate choice) | ${count((r) => isMust(r.level) && !tested(r) && r.binds === 'server')} | ${count((r) => !isMust(r.level) && !tested(r) && r.binds === 'server')} |`,
    `| binds another party (client, authorization server, intermediary, tool author): the server's side tested | ${count((r) => isMust(r.level) && tested(r) && r.binds !== 'server')} | ${count((r) => !isMust(r.level) && tested(r) && r.binds !== 'server')} |`,
    `| binds another party: reason given | ${count((r) => isMust(r.level) && !tested(r) && r.binds !== 'server')} | ${count((r) => !isMust(r.level) && !tested(r) && r.binds !== 'server')} |`,
    `| total | ${count((r) => isMust(r.level))} | ${count((r) => !isMust(r.level))} |`,
    '',
  ];
  let page;
  for (const r of requirements) {
    if (r.page !== page) {
      page = r.page;
      lines.push(`## ${page}`, '', '| id | level | sentence | covered by |', '| --- | --- | --- | --- |');
    }
    const cell = (text) => text.replace(/\|/g, '\\|');
    const cover = tested(r)
      ? r.tests.map((t) => `test: \`${cell(t)}\` (${names.get(t)})`).join('<br>') +
        (r.reason ? `<br>${cell(r.reason)}` : '')
      : `${r.binds === 'server' || r.reason?.startsWith('binds') ? '' : `binds the ${r.binds}: `}${cell(r.reason ?? '')}`;
    lines.push(`| ${r.id} | ${r.level} | ${cell(r.text)} | ${cover} |`);
    const next = requirements[requirements.indexOf(r) + 1];
    if (!next || next.page !== page) lines.push('');
  }
  return lines.join('\n');
}

function main() {
  const requirements = JSON.parse(readFileSync(requirementsFile, 'utf8'));
  const names = testNames();
  const problems = [];
  const haveSpec = existsSync(specRoot);
  const spec = haveSpec ? extractAll() : [];
  const key = (r) => `${r.page}\n${r.text}`;
  const listed = new Map(requirements.map((r) => [key(r), r]));
  for (const sentence of spec) {
    if (!listed.has(key(sentence))) problems.push(`no entry for ${sentence.page}: ${sentence.text}`);
  }
  if (haveSpec && readFileSync(join(specRoot, '2026-07-28/schema.json'), 'utf8') !== readFileSync(schemaCopy, 'utf8')) {
    problems.push('schema/2026-07-28.json differs from ../shared/spec/2026-07-28/schema.json: copy it again');
  }
  const inSpec = new Set(spec.map(key));
  const ids = new Set();
  for (const r of requirements) {
    if (haveSpec && !inSpec.has(key(r))) problems.push(`${r.id}: no longer a sentence of the spec: ${r.text}`);
    if (ids.has(r.id)) problems.push(`${r.id}: id used twice`);
    ids.add(r.id);
    if (!levelOrder.includes(r.level)) problems.push(`${r.id}: unknown level ${r.level}`);
    if (!['server', 'client', 'authorization server', 'intermediary', 'author'].includes(r.binds))
      problems.push(`${r.id}: unknown party ${r.binds}`);
    if (!(r.tests?.length > 0) && !r.reason?.trim()) problems.push(`${r.id}: neither a test nor a reason`);
    for (const test of r.tests ?? [])
      if (!names.has(test)) problems.push(`${r.id}: cited test does not exist in test/spec: ${test}`);
  }
  const table = render(requirements, names);
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(docFile, 'utf8');
    } catch {}
    if (current !== table) problems.push('docs/spec-coverage.md is out of date: run node scripts/spec-coverage.mjs');
    if (problems.length > 0) {
      console.error(problems.join('\n'));
      process.exit(1);
    }
    console.log(
      `spec coverage: ${requirements.length} sentences, each with a test or a reason${haveSpec ? '' : ' (the spec text is not beside this repository, as in a fork: not compared with it)'}`,
    );
  } else {
    writeFileSync(docFile, table);
    if (problems.length > 0) {
      console.error(problems.join('\n'));
      process.exit(1);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
