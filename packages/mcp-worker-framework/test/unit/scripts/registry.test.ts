/**
 * `npm run registry` (scripts/registry.mjs): `server.json` for the official MCP Registry, made
 * from the Server Card the built Worker serves and checked against the registry's schema
 * (2025-12-11, vendored in scripts/registry/ without its annotations). The end-to-end cases run
 * the script on a fixture server renamed in a temporary folder: its server.json follows.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { endpointUrl, Invalid } from '../../../src/http/settings/settingsTable';
import { problemsOf, SERVER_JSON_SCHEMA, serverJsonOf } from '../../../scripts/registry/serverJson.mjs';

const root = new URL('../../../', import.meta.url).pathname;
const schemaText = readFileSync(new URL('scripts/registry/server.schema.json', `file://${root}`), 'utf8');

const valid = {
  $schema: SERVER_JSON_SCHEMA,
  name: 'io.github.someone/weather',
  description: 'Weather forecasts for any city.',
  version: '1.2.3',
  remotes: [{ type: 'streamable-http', url: 'https://weather.someone.workers.dev/mcp' }],
};

describe('the vendored server.json schema', () => {
  it('is the 2025-12-11 schema, the one server.json names', () => {
    expect(JSON.parse(schemaText).$id).toBe(SERVER_JSON_SCHEMA);
    expect(SERVER_JSON_SCHEMA).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
  });

  it('keeps no annotation keyword: no description, example, examples or $comment outside property names', () => {
    const found: string[] = [];
    const walk = (node: unknown, path: string, isPropertyMap: boolean) => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}/${i}`, false));
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (!isPropertyMap && ['description', 'example', 'examples', '$comment'].includes(key))
          found.push(`${path}/${key}`);
        walk(value, `${path}/${key}`, !isPropertyMap && (key === 'properties' || key === 'definitions'));
      }
    };
    walk(JSON.parse(schemaText), '', false);
    expect(found).toEqual([]);
  });

  it("names no host but its own and json-schema.org (no package registry's)", () => {
    const hosts = new Set(
      [...schemaText.matchAll(/[a-z][a-z0-9+.-]*:\/\/([^/"\s\\]+)/gi)].map(([, host]) => host!.toLowerCase()),
    );
    expect([...hosts].sort()).toEqual(['json-schema.org', 'static.modelcontextprotocol.io']);
  });

  it('accepts a remote server', () => expect(problemsOf(valid)).toEqual([]));

  it.each([
    ['a name without a namespace', { ...valid, name: 'weather' }, '/name must match pattern'],
    ['a name with a space', { ...valid, name: 'io.github.someone/my weather' }, '/name must match pattern'],
    [
      'a description of 101 characters',
      { ...valid, description: 'x'.repeat(101) },
      '/description must NOT have more than 100 characters (from `card.description` in src/server.ts)',
    ],
    ['no name', { ...valid, name: undefined }, "must have required property 'name'"],
    ['no version', { ...valid, version: undefined }, "must have required property 'version'"],
    [
      'a remote without a URL',
      { ...valid, remotes: [{ type: 'streamable-http' }] },
      "/remotes/0 must have required property 'url'",
    ],
    [
      'a remote of type stdio',
      { ...valid, remotes: [{ type: 'stdio' }] },
      '/remotes/0/type must be equal to one of the allowed values',
    ],
    ['a website that is no URL', { ...valid, websiteUrl: 'our site' }, '/websiteUrl must match format "uri"'],
  ])('refuses %s', (_, document, problem) => {
    expect(problemsOf(JSON.parse(JSON.stringify(document))).join('\n')).toContain(problem);
  });
});

describe('server.json of a Server Card', () => {
  it("carries the card's identity and the endpoint as a streamable-http remote, and nothing the card says of its transport", () => {
    const card = {
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'com.example/weather',
      version: '2.0.0',
      title: 'Weather',
      description: 'Forecasts.',
      websiteUrl: 'https://example.com/weather',
      repository: { url: 'https://github.com/example/weather', source: 'github' },
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }],
      remotes: [{ type: 'streamable-http', url: 'http://localhost/mcp', supportedProtocolVersions: ['2026-07-28'] }],
    };
    expect(serverJsonOf(card, 'https://weather.example.com/mcp')).toEqual({
      $schema: SERVER_JSON_SCHEMA,
      name: card.name,
      version: card.version,
      title: card.title,
      description: card.description,
      websiteUrl: card.websiteUrl,
      repository: card.repository,
      icons: card.icons,
      remotes: [{ type: 'streamable-http', url: 'https://weather.example.com/mcp' }],
    });
  });
});

describe('server.json of a Worker whose clients send a header', () => {
  const card = { name: 'com.example/weather', version: '2.0.0', description: 'Forecasts.' };

  it('declares each header a required secret, its placeholders variables, valid against the schema', () => {
    const json = serverJsonOf(card, 'https://weather.example.com/mcp', { Authorization: 'Bearer <token>' });
    expect((json.remotes as Array<Record<string, unknown>>)[0]).toEqual({
      type: 'streamable-http',
      url: 'https://weather.example.com/mcp',
      headers: [
        {
          name: 'Authorization',
          description: 'Sent with every request: Bearer <token>',
          isRequired: true,
          isSecret: true,
          value: 'Bearer {token}',
          variables: {
            token: { description: "The token this server's owner gives you", isRequired: true, isSecret: true },
          },
        },
      ],
    });
    expect(problemsOf(json)).toEqual([]);
  });
});

describe('the endpoint URL (--url, PUBLIC_URL)', () => {
  it.each([
    'https://weather.someone.workers.dev/mcp',
    'https://mcp.example.com/mcp',
    'http://127.0.0.1:8787/mcp',
    'http://localhost:8787/mcp',
  ])('accepts %s', (url) => {
    expect(endpointUrl(url)).toBe(url);
  });

  it.each([
    'http://weather.example.com/mcp',
    'https://weather.example.com/',
    'https://weather.example.com/mcp/',
    'https://weather.example.com/api/mcp',
    'https://weather.example.com/mcp?key=1',
    'https://weather.example.com/mcp#top',
    'https://user:secret@weather.example.com/mcp',
    'ftp://weather.example.com/mcp',
    'weather.example.com/mcp',
  ])('refuses %s', (url) => {
    expect(endpointUrl(url)).toBeInstanceOf(Invalid);
  });
});

describe('npm run registry', () => {
  const folder = mkdtempSync(join(tmpdir(), 'registry-test-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  /** A Worker serving the edge fixture's definitions under another name and card, with its wrangler.toml; `bearer`, that mode listed. */
  function renamedFixture(card: Record<string, unknown>, vars: Record<string, string> = {}, bearer = false) {
    const name = `renamed-${Math.random().toString(36).slice(2, 8)}`;
    writeFileSync(
      join(folder, `${name}.ts`),
      `import { createRouter } from '${root}src/http/router';
import { createServer } from '${root}src/mcp';
import { bearer } from '${root}src/auth';
import { definitions } from '${root}test/fixtures/edge/server';
const router = createRouter(createServer({ info: { name: '${name}', version: '3.1.4', title: 'The renamed fixture' }, card: ${JSON.stringify(card)}, ...definitions }), ${bearer ? '[bearer]' : '[]'});
export default { fetch: (request: Request, env: Env, ctx: ExecutionContext) => router.fetch(request, env, ctx) };
`,
    );
    const vars_ = Object.entries(vars)
      .map(([key, value]) => `${key} = ${JSON.stringify(value)}`)
      .join('\n');
    writeFileSync(
      join(folder, `${name}.toml`),
      `name = "${name}"\nmain = "${name}.ts"\ncompatibility_date = "2026-11-01"\n[vars]\n${vars_}\n`,
    );
    return { name, config: join(folder, `${name}.toml`), out: join(folder, `${name}.server.json`) };
  }

  const run = async (...args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['scripts/registry.mjs', ...args], { cwd: root });
      return { code: 0, output: stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, output: failed.stdout + failed.stderr };
    }
  };

  it("writes the renamed server's server.json: its card's fields, its version, the --url as its remote", async () => {
    const card = {
      name: 'com.example.renamed/thing',
      description: 'A renamed fixture.',
      websiteUrl: 'https://example.com/thing',
    };
    const fixture = renamedFixture(card);
    const { code, output } = await run(
      '--config',
      fixture.config,
      '--out',
      fixture.out,
      '--url',
      'https://thing.someone.workers.dev/mcp',
    );
    expect(output).toContain(`wrote ${fixture.out} for com.example.renamed/thing 3.1.4`);
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(fixture.out, 'utf8'))).toEqual({
      $schema: SERVER_JSON_SCHEMA,
      name: 'com.example.renamed/thing',
      title: 'The renamed fixture',
      description: 'A renamed fixture.',
      version: '3.1.4',
      websiteUrl: 'https://example.com/thing',
      remotes: [{ type: 'streamable-http', url: 'https://thing.someone.workers.dev/mcp' }],
    });
  }, 60_000);

  it("declares the header of the Worker's auth mode (bearer), a secret the deployment sets standing in for it", async () => {
    writeFileSync(join(folder, '.dev.vars.example'), 'MCP_STATE_SECRET=\n# MCP_BEARER_TOKEN=\n');
    const fixture = renamedFixture(
      { name: 'com.example.renamed/guarded', description: 'Guarded.' },
      { AUTH_MODE: 'bearer' },
      true,
    );
    const { code, output } = await run(
      '--config',
      fixture.config,
      '--out',
      fixture.out,
      '--url',
      'https://guarded.example.com/mcp',
    );
    expect(output).not.toContain('declares none');
    expect(code).toBe(0);
    const [remote] = JSON.parse(readFileSync(fixture.out, 'utf8')).remotes;
    expect(remote.headers).toEqual([
      expect.objectContaining({ name: 'Authorization', value: 'Bearer {token}', isSecret: true }),
    ]);
  }, 60_000);

  it('takes PUBLIC_URL from [vars] when no --url is given', async () => {
    const fixture = renamedFixture(
      { name: 'com.example.renamed/public', description: 'Published at its PUBLIC_URL.' },
      { PUBLIC_URL: 'https://public.example.com/mcp' },
    );
    const { code, output } = await run('--config', fixture.config, '--out', fixture.out);
    expect(output).toContain('at https://public.example.com/mcp');
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(fixture.out, 'utf8')).remotes).toEqual([
      { type: 'streamable-http', url: 'https://public.example.com/mcp' },
    ]);
  }, 60_000);

  it('fails, naming card.description and the limit, when the description is longer than the registry takes', async () => {
    const fixture = renamedFixture({ name: 'com.example.renamed/wordy', description: 'w'.repeat(101) });
    const { code, output } = await run(
      '--config',
      fixture.config,
      '--out',
      fixture.out,
      '--url',
      'https://wordy.example.com/mcp',
    );
    expect(code).toBe(1);
    expect(output).toContain(
      '/description must NOT have more than 100 characters (from `card.description` in src/server.ts)',
    );
    expect(() => readFileSync(fixture.out)).toThrow();
  }, 60_000);

  it('fails, naming --url and PUBLIC_URL, without a URL', async () => {
    const fixture = renamedFixture({ name: 'com.example.renamed/nowhere', description: 'Nowhere.' });
    const { code, output } = await run('--config', fixture.config, '--out', fixture.out);
    expect(code).toBe(1);
    expect(output).toContain(
      `Pass --url (npm run registry -- --url https://${fixture.name}.<account>.workers.dev/mcp) or set PUBLIC_URL in [vars]`,
    );
  });

  it('fails on a URL that is no https endpoint at /mcp, saying why', async () => {
    const fixture = renamedFixture({ name: 'com.example.renamed/weather', description: 'A weather fixture.' });
    const { code, output } = await run('--config', fixture.config, '--url', 'https://weather.example.com/api');
    expect(code).toBe(1);
    expect(output).toContain('--url must be an https URL (http only on loopback) whose path is /mcp');
    expect(output).toContain('its path is "/api", not /mcp');
  });

  it('--check passes a Worker with a card, with a placeholder URL, writing nothing', async () => {
    const fixture = renamedFixture({ name: 'com.example.renamed/checked', description: 'A checked fixture.' });
    const { code, output } = await run('--check', '--config', fixture.config, '--out', fixture.out);
    expect(output).toMatch(
      /\.toml: the server\.json of com\.example\.renamed\/checked is valid against the MCP Registry's schema \(2025-12-11\)/,
    );
    expect(code).toBe(0);
    expect(() => readFileSync(fixture.out)).toThrow();
  }, 60_000);

  it('--check passes a Worker with sign-in on as docs/sign-in.md sets it up, its LOGIN_ settings in [vars]', async () => {
    writeFileSync(
      join(folder, 'signin.ts'),
      `import { bearer } from '${root}src/auth';
import { createWorker } from '${root}src/createWorker';
import { signIn } from '${root}src/signin';
const worker = createWorker(
  { info: { name: 'signed-in', version: '1.0.0' }, card: { name: 'com.example/signed-in', description: 'Signs users in.' }, tools: [] },
  { auth: [bearer, signIn()] },
);
export default { fetch: worker.fetch };
`,
    );
    writeFileSync(
      join(folder, 'signin.toml'),
      `name = "signed-in"
main = "signin.ts"
compatibility_date = "2026-11-01"
[vars]
AUTH_MODE = "signin"
AUTH_RESOURCE = "https://signed-in.example.com/mcp"
LOGIN_PROVIDER = "github"
LOGIN_CLIENT_ID = "an-oauth-app"
[[kv_namespaces]]
binding = "OAUTH_KV"
id = "00000000000000000000000000000000"
`,
    );
    const { code, output } = await run('--check', '--config', join(folder, 'signin.toml'));
    expect(output).toContain("the server.json of com.example/signed-in is valid against the MCP Registry's schema");
    expect(code).toBe(0);
  }, 60_000);
});
