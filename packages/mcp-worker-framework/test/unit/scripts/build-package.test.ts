/**
 * scripts/build-package.mjs builds dist/, what a fork imports: every entry of package.json's
 * `exports` loads in Node as ESM (a fork's tests and scripts import it without a bundler), but the
 * four whose Durable Objects and entrypoint extend the Workers runtime's own `cloudflare:workers`,
 * which only workerd (or the vitest preset's stand-ins) provides.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const pkg = join(import.meta.dirname, '../../..');
const { exports } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { default: string }>;
};
/** The entries that import `cloudflare:workers`: loaded in workerd, or through the vitest preset. */
const RUNTIME_ONLY = ['./tasks', './notifications', './events', './signin'];
const modules = Object.entries(exports).flatMap(([entry, target]) =>
  typeof target === 'object' && target.default.endsWith('.js') && !RUNTIME_ONLY.includes(entry)
    ? [[entry, target.default] as const]
    : [],
);

describe('dist/, as Node loads it', () => {
  it('has an entry for each export of JavaScript', () => expect(modules.length).toBeGreaterThanOrEqual(9));

  it.each(modules)('imports %s (%s) in plain Node, as ESM', (_, file) => {
    const script = `import(${JSON.stringify(join(pkg, file))}).catch((error) => { console.error(error.message); process.exit(1); })`;
    expect(() => execFileSync(process.execPath, ['-e', script], { stdio: 'pipe' })).not.toThrow();
  });
});
