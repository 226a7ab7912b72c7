/**
 * `npm run build:skills`: builds the Agent Skills of `skills/` (docs/skills.md) for the Worker.
 * Each skill's files are copied, byte for byte, into its static assets (`build/skills/<path>/`),
 * and `skills/index.ts` is written: each skill's frontmatter (parsed here, as YAML 1.2) and its
 * files with their SHA-256 digests and sizes, handed to `servedSkills` (src/skills/), so nothing
 * is hashed or parsed in the Worker. A mistake (no frontmatter, a name that breaks the naming
 * rules, a skill over the limits, a symbolic link or a pipe…) fails the build, naming the file and what to change. wrangler
 * runs it before `wrangler dev`, `wrangler deploy` and every test build (`[build] command` in
 * wrangler.toml); `npm run check` runs it first. With no `skills/` folder it does nothing, and a
 * `skills/` with no skill serves none: no extension, no code, no bytes.
 *
 *   mcp-worker build [--skills skills] [--assets build]     (of the project in the current directory)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readInput } from './buildInput.mjs';
import { readSkills } from './skills/readSkills.mjs';

// The framework's own tree: its fixtures' skills import it by path, a fork's by the package's name.
const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { skills: { type: 'string', default: 'skills' }, assets: { type: 'string', default: 'build' } },
});
const skillsDir = resolve(values.skills);
const out = join(resolve(values.assets), 'skills');

/** How the generated module imports the framework: by the package's name, or by path for the framework's own fixtures. */
function skillsModule(skillsDir) {
  const path = relative(skillsDir, join(root, 'src/skills')).replaceAll('\\', '/');
  return relative(root, skillsDir).startsWith('..') ? 'mcp-worker-framework/skills' : path;
}

/** Writes `file` only when its bytes change, whole (a rename), since builds of several configs may run at once. */
function writeIfChanged(file, bytes) {
  if (existsSync(file) && readFileSync(file).equals(Buffer.from(bytes))) return;
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
}

function* filesUnder(dir, rel = '') {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(join(dir, rel))) {
    const path = rel ? `${rel}/${entry}` : entry;
    if (statSync(join(dir, path)).isDirectory()) yield* filesUnder(dir, path);
    else yield path;
  }
}

/** The generated module: the skills as data, and the rules files it imports; no import at all without skills. */
function moduleOf(skills) {
  const header = `/**
 * Made by \`mcp-worker build\` (node_modules/mcp-worker-framework/scripts/build-skills.mjs) from the
 * folders here (node_modules/mcp-worker-framework/docs/skills.md): each skill's frontmatter and
 * files, with their digests. wrangler remakes it before every dev, test and deploy, and npm run
 * check before it checks; commit it with your skills, never edit it.
 */\n`;
  if (skills.length === 0)
    return `${header}import type { Extension } from '${skillsModule(skillsDir)}';\n\nexport const skills: readonly Extension[] = [];\n`;
  const imports = [`import { servedSkills } from '${skillsModule(skillsDir)}';`];
  const entries = skills.map((skill, i) => {
    if (skill.rules) imports.push(`import rules${i} from './${skill.rules.slice(0, -'.ts'.length)}';`);
    const files = skill.files.map(({ source: _source, ...file }) => `      ${JSON.stringify(file)},`).join('\n');
    return `  {\n    path: ${JSON.stringify(skill.path)},\n    frontmatter: ${JSON.stringify(skill.frontmatter)},\n    files: [\n${files}\n    ],${skill.rules ? `\n    rules: rules${i},` : ''}\n  },`;
  });
  return `${header}${imports.join('\n')}\n\nexport const skills = servedSkills([\n${entries.join('\n')}\n]);\n`;
}

if (!existsSync(skillsDir)) {
  rmSync(out, { recursive: true, force: true });
  console.log(`skills: none (${relative(process.cwd(), skillsDir) || '.'}/<name>/SKILL.md)`);
  process.exit(0);
}
let skills;
try {
  skills = readSkills(skillsDir);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const wanted = new Set();
for (const skill of skills) {
  for (const file of skill.files) {
    const path = `${skill.path}/${file.path}`;
    wanted.add(path);
    writeIfChanged(join(out, path), readInput(file.source));
  }
  const bytes = skill.files.reduce((sum, file) => sum + file.size, 0);
  console.log(
    `skill ${skill.path}: ${skill.files.length} files, ${(bytes / 1024).toFixed(1)} KB → ${relative(process.cwd(), join(out, skill.path))}/`,
  );
}
for (const path of filesUnder(out))
  if (!wanted.has(path) && !path.endsWith('.tmp')) rmSync(join(out, path), { force: true });
writeIfChanged(join(skillsDir, 'index.ts'), moduleOf(skills));
if (skills.length === 0) console.log(`skills: none (${relative(process.cwd(), skillsDir) || '.'}/<name>/SKILL.md)`);
