/**
 * What `scripts/build-skills.mjs` (and so `npm run check`, wrangler's build and every deploy)
 * refuses, each refusal naming the file and what to change (docs/skills.md), and what it makes of
 * a good skill: the frontmatter as a YAML 1.2 reader types it, every file with its digest, size and
 * type. Each case is a `skills/` folder written in a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSkills, SKILL_LIMITS } from '../../../scripts/skills/readSkills.mjs';

const root = new URL('../../..', import.meta.url).pathname;
const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A `skills/` folder holding `files` (path → content), in a fresh temporary directory. */
function skillsDir(files: Record<string, string | Buffer>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'skills-build-')), 'skills');
  made.push(dirname(dir));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

const skillMd = (frontmatter: string, body = '\nDo the thing.\n') => `---\n${frontmatter}\n---\n${body}`;
const refusal = (files: Record<string, string | Buffer> | string) => {
  try {
    readSkills(typeof files === 'string' ? files : skillsDir(files), 'skills');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the build accepted it');
};

/** `npm run build:skills` on `dir`, its assets beside it; its exit code, what it printed on stderr, and every asset's text. */
function buildFromCommandLine(dir: string) {
  const assets = join(dirname(dir), 'build');
  let status = 0;
  let stderr = '';
  try {
    // The limit only ends a build that hangs (reading a pipe), so a failure is reported, not waited for forever.
    execFileSync(process.execPath, [join(root, 'scripts/build-skills.mjs'), '--skills', dir, '--assets', assets], {
      cwd: dirname(dir),
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 60_000,
    });
  } catch (error) {
    ({ status, stderr } = error as { status: number; stderr: string });
  }
  const published = existsSync(assets)
    ? readdirSync(assets, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
        .join('\n')
    : '';
  return { status, stderr, published };
}

const TIDY = { 'tidy/SKILL.md': skillMd('name: tidy\ndescription: Tidies.') };
/** A file outside the skills folder, as a secrets file or /proc/self/environ would be. */
function secretBeside(dir: string): string {
  const secret = join(dirname(dir), 'secret.env');
  writeFileSync(secret, 'API_TOKEN=hunter2\n');
  return secret;
}

describe('the skills build refuses, naming the file', () => {
  it('a SKILL.md without frontmatter', () => {
    expect(refusal({ 'tidy/SKILL.md': '# Tidy\n' })).toContain('skills/tidy/SKILL.md must begin with YAML frontmatter');
  });

  it('a folder with no SKILL.md', () => {
    expect(refusal({ 'tidy/README.md': '# Tidy\n' })).toContain('skills/tidy/ has no SKILL.md');
  });

  it('a frontmatter without name, or without description', () => {
    expect(refusal({ 'tidy/SKILL.md': skillMd('description: Tidies.') })).toContain(
      'skills/tidy/SKILL.md: the frontmatter needs name:',
    );
    expect(refusal({ 'tidy/SKILL.md': skillMd('name: tidy') })).toContain(
      'skills/tidy/SKILL.md: the frontmatter needs description:',
    );
    expect(refusal({ 'tidy/SKILL.md': skillMd('name: tidy\ndescription: "  "') })).toContain(
      'skills/tidy/SKILL.md: the frontmatter needs description:',
    );
  });

  it('a name that breaks the Agent Skills naming rules', () => {
    for (const name of ['Tidy', 'ti--dy', '-tidy', 'tidy_up', 'x'.repeat(65)]) {
      expect(refusal({ 'tidy/SKILL.md': skillMd(`name: ${name}\ndescription: Tidies.`) }), name).toContain(
        `skills/tidy/SKILL.md: name "${name}" breaks the Agent Skills naming rules`,
      );
    }
    expect(refusal({ 'Tidy/SKILL.md': skillMd('name: Tidy\ndescription: Tidies.') })).toContain(
      "skills/Tidy/: a skill's folder is its name",
    );
  });

  it('a name that differs from its folder', () => {
    expect(refusal({ 'tidy/SKILL.md': skillMd('name: neat\ndescription: Tidies.') })).toContain(
      'skills/tidy/SKILL.md: name "neat" differs from its folder "tidy"',
    );
  });

  it('a skill over the limits: more than 512 files, more than 16 MiB', () => {
    const many = Object.fromEntries(Array.from({ length: SKILL_LIMITS.files }, (_, i) => [`big/files/f${i}.txt`, 'x']));
    expect(refusal({ 'big/SKILL.md': skillMd('name: big\ndescription: Big.'), ...many })).toContain(
      `skills/big/ has ${SKILL_LIMITS.files + 1} files: a skill has at most 512`,
    );
    const heavy = Buffer.alloc(SKILL_LIMITS.bytes, 0x61);
    expect(refusal({ 'big/SKILL.md': skillMd('name: big\ndescription: Big.'), 'big/data.txt': heavy })).toMatch(
      /skills\/big\/ holds 16777\d\d\d bytes: a skill holds at most 16777216/,
    );
  });

  it('metadata keys under the reserved prefix', () => {
    const frontmatter = 'name: tidy\ndescription: Tidies.\nmetadata:\n  io.modelcontextprotocol/priority: "1"';
    expect(refusal({ 'tidy/SKILL.md': skillMd(frontmatter) })).toContain(
      'skills/tidy/SKILL.md: metadata key "io.modelcontextprotocol/priority" is under the prefix "io.modelcontextprotocol/", reserved',
    );
  });

  it('two skills with one name', () => {
    const files = {
      'acme/refunds/SKILL.md': skillMd('name: refunds\ndescription: One.'),
      'beta/refunds/SKILL.md': skillMd('name: refunds\ndescription: Two.'),
    };
    expect(refusal(files)).toContain(
      'skills/beta/refunds/SKILL.md: the name "refunds" is skills/acme/refunds/SKILL.md\'s too',
    );
  });

  it("what hosts' YAML readers refuse, what JSON cannot carry, and a file whose name a URI cannot hold", () => {
    expect(refusal({ 'tidy/SKILL.md': skillMd('name: tidy\ndescription: &d Tidies.\nsummary: *d') })).toContain(
      'skills/tidy/SKILL.md: its frontmatter uses an anchor or alias',
    );
    expect(refusal({ 'tidy/SKILL.md': skillMd('name: tidy\ndescription: Tidies.\nlimit: .inf') })).toContain(
      'skills/tidy/SKILL.md: frontmatter field limit has no JSON form',
    );
    expect(refusal({ 'tidy/SKILL.md': skillMd('name: [tidy') })).toContain(
      'skills/tidy/SKILL.md: its frontmatter is not YAML',
    );
    expect(
      refusal({ 'tidy/SKILL.md': skillMd('name: tidy\ndescription: Tidies.'), 'tidy/my notes.md': 'x' }),
    ).toContain('skills/tidy/my notes.md: rename it');
    expect(
      refusal({ 'tidy/SKILL.md': skillMd('name: tidy\ndescription: Tidies.'), 'neat.ts': 'export default {};' }),
    ).toContain('skills/neat.ts names no skill');
  });

  it('lists every problem at once', () => {
    const message = refusal({ 'a/SKILL.md': '# A\n', 'b/SKILL.md': skillMd('name: c\ndescription: B.') });
    expect(message).toContain('skills/a/SKILL.md');
    expect(message).toContain('skills/b/SKILL.md');
  });
});

describe('the skills build reads plain files and folders only (a link or a pipe is refused, naming it)', () => {
  it('refuses a link in a skill to a file outside it, and publishes nothing', () => {
    const dir = skillsDir(TIDY);
    symlinkSync(secretBeside(dir), join(dir, 'tidy/notes.md'));
    const { status, stderr, published } = buildFromCommandLine(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('skills/tidy/notes.md is a symbolic link');
    expect(published).not.toContain('hunter2');
    expect(existsSync(join(dir, 'index.ts'))).toBe(false);
  });

  it('refuses a link even to a file or folder inside the skill', () => {
    const dir = skillsDir({ ...TIDY, 'tidy/a.md': '# A\n', 'tidy/refs/b.md': '# B\n' });
    symlinkSync('a.md', join(dir, 'tidy/copy.md'));
    symlinkSync('refs', join(dir, 'tidy/more'));
    const message = refusal(dir);
    expect(message).toContain('skills/tidy/copy.md is a symbolic link');
    expect(message).toContain('skills/tidy/more is a symbolic link');
  });

  it("refuses a link as a skill's SKILL.md, as a skill's folder, as a prefix folder, as a rules file", () => {
    const elsewhere = skillsDir({
      'tidy/SKILL.md': skillMd('name: tidy\ndescription: Tidies.'),
      'rules.ts': 'export default {};',
    });
    const dir = skillsDir({ 'neat/notes.md': '# Notes\n', 'acme/.keep': '' });
    symlinkSync(join(elsewhere, 'tidy/SKILL.md'), join(dir, 'neat/SKILL.md'));
    symlinkSync(join(elsewhere, 'tidy'), join(dir, 'tidy'));
    symlinkSync(elsewhere, join(dir, 'acme/billing'));
    symlinkSync(join(elsewhere, 'rules.ts'), join(dir, 'neat.ts'));
    const message = refusal(dir);
    expect(message).toContain('skills/neat/SKILL.md is a symbolic link');
    expect(message).toContain('skills/tidy is a symbolic link');
    expect(message).toContain('skills/acme/billing is a symbolic link');
    expect(message).toContain('skills/neat.ts is a symbolic link');
  });

  it('refuses a skills folder that is itself a link', () => {
    const elsewhere = skillsDir(TIDY);
    const dir = join(dirname(skillsDir({})), 'linked-skills');
    symlinkSync(elsewhere, dir);
    expect(refusal(dir)).toContain('skills is a symbolic link');
  });

  it('refuses a named pipe in a skill without waiting on it', () => {
    const dir = skillsDir(TIDY);
    execFileSync('mkfifo', [join(dir, 'tidy/pipe.txt')]);
    const { status, stderr } = buildFromCommandLine(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('skills/tidy/pipe.txt is a named pipe');
  });
});

describe('the skills build', () => {
  it('types the frontmatter as YAML 1.2 does, and gives each file its digest, size and type, SKILL.md first', () => {
    const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
    const md = skillMd(
      'name: tidy\ndescription: Tidies.\nversion: 1.0\nreleased: 2024-01-01\nquoted: "1.0"\nempty:\nmetadata:\n  author: me',
    );
    const skill = readSkills(
      skillsDir({
        'tidy/SKILL.md': md,
        'tidy/references/GUIDE.md': '# Guide\n',
        'tidy/assets/icon.png': png,
        'tidy/.DS_Store': 'x',
      }),
      'skills',
    )[0]!;
    expect(skill.frontmatter).toEqual({
      name: 'tidy',
      description: 'Tidies.',
      version: 1,
      released: '2024-01-01',
      quoted: '1.0',
      empty: null,
      metadata: { author: 'me' },
    });
    const digest = (bytes: string | Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    expect(skill.files.map(({ source: _source, ...file }) => file)).toEqual([
      { path: 'SKILL.md', digest: digest(md), size: Buffer.byteLength(md), mimeType: 'text/markdown' },
      { path: 'assets/icon.png', digest: digest(png), size: png.length, mimeType: 'image/png', binary: true },
      { path: 'references/GUIDE.md', digest: digest('# Guide\n'), size: 8, mimeType: 'text/markdown' },
    ]);
  });

  it('fails from the command line with the refusal, and writes no module (a fork then sees the message in npm run check)', () => {
    const dir = skillsDir({ 'tidy/SKILL.md': '# no frontmatter\n' });
    const assets = join(dirname(dir), 'build');
    let stderr = '';
    try {
      execFileSync(process.execPath, [join(root, 'scripts/build-skills.mjs'), '--skills', dir, '--assets', assets], {
        cwd: dirname(dir),
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (error) {
      stderr = (error as { stderr: string }).stderr;
    }
    expect(stderr).toContain('skills/tidy/SKILL.md must begin with YAML frontmatter');
    expect(existsSync(join(dir, 'index.ts'))).toBe(false);
  });

  it("writes a module that serves nothing, and imports only the package's types, for a fork's skills/ with no skill", () => {
    const dir = skillsDir({});
    execFileSync(
      process.execPath,
      [join(root, 'scripts/build-skills.mjs'), '--skills', dir, '--assets', join(dirname(dir), 'build')],
      { cwd: dirname(dir), stdio: 'pipe' },
    );
    const module = readFileSync(join(dir, 'index.ts'), 'utf8');
    expect(module).toContain('export const skills: readonly Extension[] = [];');
    // By the package's name: a packed install has no src/ to point into.
    expect(module.match(/^import .*$/gm)).toEqual(["import type { Extension } from 'mcp-worker-framework/skills';"]);
  });
});
