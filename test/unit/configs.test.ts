/**
 * The tasks configuration is the default one with the Tasks extension on (docs/tasks.md): the two
 * wrangler files never drift apart, so turning tasks on is serving the other file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('wrangler.tasks.toml', () => {
  it('is wrangler.toml with the tasks entry and the Durable Object blocks, so the two never drift apart', () => {
    const read = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8');
    const body = (config: string) => config.replace(/^(#.*\n)+/, '').split('\n# Each task of a task tool')[0]!.trim();
    expect(body(read('wrangler.tasks.toml'))).toBe(body(read('wrangler.toml')).replace('main = "src/index.ts"', 'main = "src/with-tasks.ts"'));
    expect(read('wrangler.tasks.toml')).toContain('class_name = "McpTask"');
  });
});

describe('wrangler.oauth.toml', () => {
  it('is wrangler.toml with the sign-in entry, its settings and its KV namespace, so the two never drift apart', () => {
    const read = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8');
    const body = (config: string) => config.replace(/^(#.*\n)+/, '').split('\n# The authorization server\'s clients')[0]!.trim();
    const signIn = body(read('wrangler.oauth.toml'))
      .replace(/^# For "signin"[\s\S]*?^LOGIN_CLIENT_ID = .*\n/m, '')
      .replace('main = "src/with-sign-in.ts"', 'main = "src/index.ts"')
      .replace('AUTH_MODE = "signin"', 'AUTH_MODE = "none"')
      .replace(/\n# global_fetch_strictly_public .*\n/, '\n')
      .replace('(spec: cancellation);', '(spec: cancellation)')
      .replace('["enable_request_signal", "global_fetch_strictly_public"]', '["enable_request_signal"]');
    expect(signIn).toBe(body(read('wrangler.toml')));
    expect(read('wrangler.oauth.toml')).toMatch(/\[\[kv_namespaces\]\]\nbinding = "OAUTH_KV"/);
  });
});
