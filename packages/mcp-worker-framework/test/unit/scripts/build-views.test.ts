/**
 * What `scripts/build-views.mjs` (wrangler's build, and so every dev, test and deploy) reads of a
 * `views/` folder: plain files and folders of the project only. A view page is shared and copied
 * like a skill (`git clone` and `cp -r` keep links), and what the build reads ends up in the page
 * every host loads. Each case is a `views/` folder written in a temporary directory and built from
 * the command line.
 */
import { execFileSync } from 'node:child_process';
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

const root = new URL('../../..', import.meta.url).pathname;
const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A `views/` folder holding `files` (path → content), in a fresh temporary directory. */
function viewsDir(files: Record<string, string>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'views-build-')), 'views');
  made.push(dirname(dir));
  mkdirSync(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const page = (src = './main.ts') =>
  `<!doctype html><html><head></head><body><p id="out"></p><script type="module" src="${src}"></script></body></html>`;
const script = (imports = '') => `${imports}\ndocument.getElementById('out')!.textContent = 'built';\n`;

/** A file outside the views folder (a secrets file), named `name`. */
function secretBeside(dir: string, name: string, content: string): string {
  const secret = join(dirname(dir), name);
  writeFileSync(secret, content);
  return secret;
}

/** `npm run build:views` on `dir`, its assets beside it: its exit code, stderr, and the pages it wrote. */
function build(dir: string) {
  const assets = join(dirname(dir), 'build');
  let status = 0;
  let stderr = '';
  try {
    // The limit only ends a build that hangs (reading a pipe), so a failure is reported, not waited for forever.
    execFileSync(process.execPath, [join(root, 'scripts/build-views.mjs'), '--views', dir, '--assets', assets], {
      cwd: dirname(dir),
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 60_000,
    });
  } catch (error) {
    ({ status, stderr } = error as { status: number; stderr: string });
  }
  const out = join(assets, 'views');
  const pages = existsSync(out)
    ? Object.fromEntries(readdirSync(out).map((file) => [file, readFileSync(join(out, file), 'utf8')]))
    : {};
  return { status, stderr, pages };
}

describe('the views build', () => {
  it('builds a page into one file, its script inline', () => {
    const { status, pages } = build(viewsDir({ 'clock/index.html': page(), 'clock/main.ts': script() }));
    expect(status).toBe(0);
    expect(pages['clock.html']).toMatch(/<script type="module">[^<]*"built"[^<]*<\/script>/);
  });

  it('builds the views of the project in the current directory when not told where (mcp-worker build in a fork)', () => {
    const dir = viewsDir({ 'clock/index.html': page(), 'clock/main.ts': script() });
    execFileSync(process.execPath, [join(root, 'scripts/build-views.mjs')], { cwd: dirname(dir), stdio: 'pipe' });
    expect(readFileSync(join(dirname(dir), 'build/views/clock.html'), 'utf8')).toContain('"built"');
  });
});

describe('the views build reads plain files and folders of the project only (a link or a pipe is refused, naming it)', () => {
  it("refuses a link as a page's index.html, to a file outside it, and builds nothing of it", () => {
    const dir = viewsDir({ 'clock/main.ts': script() });
    symlinkSync(secretBeside(dir, 'secret.html', page().replace('<p', 'hunter2<p')), join(dir, 'clock/index.html'));
    const { status, stderr, pages } = build(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('views/clock/index.html is a symbolic link');
    expect(JSON.stringify(pages)).not.toContain('hunter2');
  });

  it('refuses a link as the script a page names, and as a file its script imports', () => {
    const dir = viewsDir({ 'clock/index.html': page(), 'clock/main.ts': script("import data from './data.json';") });
    symlinkSync(secretBeside(dir, 'secret.json', '{ "token": "hunter2" }'), join(dir, 'clock/data.json'));
    const second = viewsDir({ 'clock/index.html': page() });
    symlinkSync(secretBeside(second, 'main.ts', "console.log('hunter2');"), join(second, 'clock/main.ts'));
    for (const [linked, folder] of [
      ['views/clock/data.json', dir],
      ['views/clock/main.ts', second],
    ] as const) {
      const { status, stderr, pages } = build(folder);
      expect(status, linked).toBe(1);
      expect(stderr).toContain(`${linked} is a symbolic link`);
      expect(JSON.stringify(pages)).not.toContain('hunter2');
    }
  });

  it('refuses a page folder that is a link, and a views folder that is a link', () => {
    const elsewhere = viewsDir({ 'clock/index.html': page(), 'clock/main.ts': script() });
    const dir = viewsDir({});
    symlinkSync(join(elsewhere, 'clock'), join(dir, 'clock'));
    expect(build(dir).stderr).toContain('views/clock is a symbolic link');
    const linked = join(dirname(viewsDir({})), 'linked');
    symlinkSync(elsewhere, linked);
    expect(build(linked).stderr).toContain('linked is a symbolic link');
  });

  it("refuses a page's script outside its folder, and an import from outside the project", () => {
    const dir = viewsDir({ 'clock/index.html': page('./../shared/main.ts'), 'shared/main.ts': script() });
    const escaping = build(dir);
    expect(escaping.status).toBe(1);
    expect(escaping.stderr).toContain("views/clock/index.html: ./../shared/main.ts is outside the page's folder");
    const secret = secretBeside(dir, 'secret.json', '{ "token": "hunter2" }');
    const outside = viewsDir({
      'clock/index.html': page(),
      'clock/main.ts': script(`import data from ${JSON.stringify(secret)}; console.log(data);`),
    });
    const imported = build(outside);
    expect(imported.status).toBe(1);
    expect(imported.stderr).toContain(`${secret} is outside the project`);
    expect(JSON.stringify(imported.pages)).not.toContain('hunter2');
  });

  it('refuses a named pipe in a page without waiting on it', () => {
    const dir = viewsDir({ 'clock/index.html': page(), 'clock/main.ts': script("import text from './notes.txt';") });
    execFileSync('mkfifo', [join(dir, 'clock/notes.txt')]);
    const { status, stderr } = build(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('views/clock/notes.txt is a named pipe');
  });
});
