/**
 * Reads the skills of a `skills/` folder (docs/skills.md) as `scripts/build-skills.mjs` builds
 * them: every folder with a `SKILL.md` is a skill (a folder without one is a prefix of the skills
 * below it, `skills/acme/refunds` → `skill://acme/refunds/SKILL.md`), and every file in it,
 * folders included, is one of its files. The frontmatter is parsed as YAML 1.2 (the core schema
 * hosts and the conformance suite compare it with); each file gets its SHA-256 digest, size and
 * MIME type. Whatever a host would refuse, or the specification forbids, is refused here, each
 * problem naming its file and what to change, all of them at once; so is anything but a plain file
 * or folder (`../buildInput.mjs`: a link would publish its target, a pipe hang the build).
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { isAlias, isNode, parseDocument, visit } from 'yaml';
import { inputKind, readInput } from '../buildInput.mjs';

/** skills.mdx, Limits: per skill, SKILL.md included. */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 };
/** agent-skills.md, `name` field (ASCII, as the conformance suite checks it: notes.md). */
const NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
/** A file or folder name that needs no escaping in a `skill://` URI, nor in an asset's path. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
/** skills.mdx, Frontmatter: keys of `metadata` reserved for MCP extensions. */
const RESERVED = 'io.modelcontextprotocol/';
/** conformance.md, sep-2640-skillmd-frontmatter: how hosts find the frontmatter (a BOM is dropped first). */
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
/** Why anything but a plain file or folder is refused, and what to do instead. */
const PLAIN =
  'skills hold plain files and folders only, since what the build reads it publishes to every client; put the file itself there, or delete it';

const TYPES = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.css': 'text/css',
  '.xml': 'application/xml',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.py': 'text/x-python',
  '.sh': 'text/x-shellscript',
  '.sql': 'application/sql',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.wasm': 'application/wasm',
};
const BINARY = /^(?:image\/(?!svg)|audio\/|video\/|font\/)|^application\/(?:pdf|zip|gzip|wasm|octet-stream)$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The skills under `dir`, as the generated `skills/index.ts` lists them, each with `rules` (the
 * path of `skills/<path>.ts`, when there is one) and each file with `source` (where it is read
 * from). Throws one error listing every problem, each starting with the file it is in, as `label`
 * names the folder (default: relative to the working directory).
 */
export function readSkills(dir, label = relative(process.cwd(), dir) || '.') {
  const problems = [];
  const at = (...path) => [label, ...path].join('/');
  const skills = [];
  const rules = new Map();
  const find = (rel) => {
    const folder = join(dir, rel);
    for (const entry of readdirSync(folder).sort()) {
      if (entry.startsWith('.')) continue;
      const path = rel ? `${rel}/${entry}` : entry;
      const kind = inputKind(join(folder, entry));
      if (kind === 'folder') {
        if (!NAME.test(entry))
          problems.push(
            `${at(path)}/: a skill's folder is its name (and a prefix folder part of its URI): 1-64 of a-z, 0-9 and "-", not at either end, no "--"; rename it`,
          );
        else if (inputKind(join(folder, entry, 'SKILL.md')) !== undefined) skills.push(path);
        else if (!find(path))
          problems.push(
            `${at(path)}/ has no SKILL.md: every skill is a folder with a SKILL.md at its root (docs/skills.md)`,
          );
      } else if (kind !== 'file') problems.push(`${at(path)} is ${kind}: ${PLAIN}`);
      else if (entry.endsWith('.ts') && path !== 'index.ts') rules.set(path.slice(0, -'.ts'.length), path);
    }
    return skills.some((skill) => skill.startsWith(`${rel}/`));
  };
  const top = inputKind(dir);
  if (top === 'folder') find('');
  else if (top !== undefined) problems.push(`${label} is ${top}: ${PLAIN}`);
  const built = skills.map((path) => readSkill(dir, path, at, problems));
  for (const [path, file] of rules) {
    if (!skills.includes(path))
      problems.push(
        `${at(file)} names no skill: it sets who sees ${at(path)}/, which has no SKILL.md; rename or delete it`,
      );
  }
  const byName = new Map();
  for (const skill of built) {
    const other = byName.get(skill.frontmatter.name);
    if (other && skill.frontmatter.name !== '')
      problems.push(
        `${at(skill.path, 'SKILL.md')}: the name "${skill.frontmatter.name}" is ${at(other.path, 'SKILL.md')}'s too: give each skill its own name (hosts tell skills apart by name)`,
      );
    else byName.set(skill.frontmatter.name, skill);
    if (rules.has(skill.path)) skill.rules = rules.get(skill.path);
  }
  if (problems.length > 0) throw new Error(`skills refused:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return built;
}

function readSkill(dir, path, at, problems) {
  const files = [];
  const walk = (rel) => {
    for (const entry of readdirSync(join(dir, path, rel)).sort()) {
      if (entry.startsWith('.')) continue; // .DS_Store, .gitkeep: never part of a skill
      const file = rel ? `${rel}/${entry}` : entry;
      if (!FILE_NAME.test(entry))
        problems.push(
          `${at(path, file)}: rename it: the names of a skill's files and folders may use letters, digits, ".", "_" and "-" (they are part of its skill:// URI)`,
        );
      const kind = inputKind(join(dir, path, file));
      if (kind === 'folder') walk(file);
      else if (kind === 'file') files.push(file);
      else problems.push(`${at(path, file)} is ${kind}: ${PLAIN}`);
    }
  };
  walk('');
  files.sort((a, b) => (a === 'SKILL.md' ? -1 : b === 'SKILL.md' ? 1 : a < b ? -1 : 1));
  const read = files.flatMap((file) => {
    const source = join(dir, path, file);
    let bytes;
    try {
      bytes = readInput(source); // a file swapped for a link or a pipe since it was listed is refused too
    } catch (error) {
      problems.push(`${at(path, file)} cannot be read as a plain file (${error.code ?? error.message}): ${PLAIN}`);
      return [];
    }
    const mimeType = TYPES[extname(file).toLowerCase()] ?? 'text/plain';
    const text = BINARY.test(mimeType) ? undefined : decode(bytes);
    return {
      path: file,
      digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      size: bytes.length,
      mimeType: text === undefined && !BINARY.test(mimeType) ? 'application/octet-stream' : mimeType,
      ...(text === undefined ? { binary: true } : {}),
      source,
      text,
    };
  });
  const total = read.reduce((sum, file) => sum + file.size, 0);
  if (read.length > SKILL_LIMITS.files)
    problems.push(
      `${at(path)}/ has ${read.length} files: a skill has at most ${SKILL_LIMITS.files}, SKILL.md included (skills.mdx, Limits); split it, or move files out`,
    );
  if (total > SKILL_LIMITS.bytes)
    problems.push(
      `${at(path)}/ holds ${total} bytes: a skill holds at most ${SKILL_LIMITS.bytes} (16 MiB, skills.mdx, Limits); make its files smaller, or fewer`,
    );
  const skillMd = read[0];
  if (skillMd?.path !== 'SKILL.md') {
    // Refused above when it is a link or a pipe; a folder named SKILL.md is refused here.
    if (inputKind(join(dir, path, 'SKILL.md')) === 'folder')
      problems.push(`${at(path, 'SKILL.md')} is a folder: a skill's SKILL.md is a file`);
    return { path, frontmatter: { name: '', description: '' }, files: [] };
  }
  const frontmatter =
    skillMd.text === undefined
      ? fail(problems, `${at(path, 'SKILL.md')} is not UTF-8 text`)
      : frontmatterOf(skillMd.text, at(path, 'SKILL.md'), path.split('/').pop(), problems);
  return {
    path,
    frontmatter: frontmatter ?? { name: '', description: '' },
    files: read.map(({ text: _text, ...file }) => file),
  };
}

const fail = (problems, problem) => void problems.push(problem);

function decode(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The frontmatter as hosts read it, or undefined (with the problems) when they would refuse it. */
function frontmatterOf(text, where, folder, problems) {
  const found = FRONTMATTER.exec(text.replace(/^\uFEFF/, ''));
  if (!found)
    return fail(
      problems,
      `${where} must begin with YAML frontmatter: a line "---", then name: and description:, then a line "---"`,
    );
  const document = parseDocument(found[1], { prettyErrors: false });
  if (document.errors.length > 0)
    return fail(problems, `${where}: its frontmatter is not YAML: ${document.errors[0].message}`);
  let construct;
  visit(document, (_, node) => {
    if (isAlias(node) || (isNode(node) && node.anchor)) construct ??= 'an anchor or alias';
    else if (isNode(node) && node.tag && !/^tag:yaml\.org,2002:/.test(node.tag)) construct ??= `the tag ${node.tag}`;
  });
  if (construct)
    return fail(
      problems,
      `${where}: its frontmatter uses ${construct}, which hosts' YAML readers refuse; write the values out`,
    );
  const value = document.toJS();
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail(problems, `${where}: its frontmatter must be a mapping of fields (name:, description:, …)`);
  const before = problems.length;
  const { name, description, metadata } = value;
  if (typeof name !== 'string' || name === '')
    problems.push(`${where}: the frontmatter needs name:, the skill's name ("${folder}", its folder's)`);
  else if (!NAME.test(name))
    problems.push(
      `${where}: name "${name}" breaks the Agent Skills naming rules: 1-64 of a-z, 0-9 and "-", not at either end, no "--"`,
    );
  else if (name !== folder)
    problems.push(`${where}: name "${name}" differs from its folder "${folder}": they must be equal (rename one)`);
  if (typeof description !== 'string' || description.trim() === '')
    problems.push(`${where}: the frontmatter needs description:, what the skill does and when to use it`);
  else if (description.length > 1024)
    problems.push(`${where}: description has ${description.length} characters; the Agent Skills limit is 1024`);
  if (typeof metadata === 'object' && metadata !== null) {
    for (const key of Object.keys(metadata)) {
      if (key.startsWith(RESERVED))
        problems.push(
          `${where}: metadata key "${key}" is under the prefix "${RESERVED}", reserved for MCP extensions (skills.mdx, Frontmatter); choose a key of your own`,
        );
    }
  }
  const odd = unrepresentable(value);
  if (odd) problems.push(`${where}: frontmatter field ${odd} has no JSON form (.inf, .nan); quote it`);
  return problems.length === before ? value : undefined;
}

/** The first value JSON cannot carry as hosts parsed it (a non-finite number), by its path. */
function unrepresentable(value, path = '') {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path.slice(1);
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = unrepresentable(inner, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}
