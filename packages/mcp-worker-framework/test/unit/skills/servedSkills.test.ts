/**
 * The Skills extension in the protocol core, no HTTP (docs/skills.md): what `servedSkills` makes
 * of a built manifest, through the seam every extension uses (resources it adds, listed or only
 * read; methods for legacy clients too); a server without skills declares and serves nothing;
 * a skill file read without the ASSETS binding names it.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../../src/mcp/createServer';
import { defineResource } from '../../../src/mcp/define';
import { RawJson } from '../../../src/mcp/json';
import { servedSkills, SKILLS_EXTENSION, type BuiltSkill } from '../../../src/skills';
import { mcpRequest } from '../../support/request';

const DIGEST = `sha256:${'0'.repeat(64)}`;
const built: BuiltSkill[] = [
  {
    path: 'tidy',
    frontmatter: { name: 'tidy', description: 'Tidies.', version: 1 },
    files: [
      { path: 'SKILL.md', digest: DIGEST, size: 40, mimeType: 'text/markdown' },
      { path: 'references/GUIDE.md', digest: DIGEST, size: 8, mimeType: 'text/markdown' },
    ],
  },
];
const info = { name: 'skills', version: '1.0.0' };
const withSkills = createServer({ info }, [...servedSkills(built)]);

const json = (result: unknown) => (result instanceof RawJson ? JSON.parse(result.json) : result);
const answer = async (
  server: typeof withSkills,
  method: string,
  params: Record<string, unknown> = {},
  legacy = false,
) => {
  const reply = await server.handle(
    mcpRequest(
      { jsonrpc: '2.0', id: 1, method, params },
      legacy ? { era: 'legacy', protocolVersion: '2025-11-25', clientCapabilities: {} } : undefined,
    ),
  );
  return reply.error ?? json(reply.result);
};

describe('a server with skills', () => {
  it('declares the extension with directoryRead, and resources, which the extension requires', async () => {
    expect((await answer(withSkills, 'server/discover')).capabilities).toEqual({
      resources: {},
      extensions: { [SKILLS_EXTENSION]: { directoryRead: true } },
    });
  });

  it('lists the SKILL.md in resources/list and reads every file, listed or not', async () => {
    expect((await answer(withSkills, 'resources/list')).resources).toEqual([
      { uri: 'skill://tidy/SKILL.md', name: 'tidy', description: 'Tidies.', mimeType: 'text/markdown' },
    ]);
    const read = await answer(withSkills, 'resources/read', { uri: 'skill://tidy/references/GUIDE.md' });
    // No ASSETS here: the read reaches the file's resource, which names the binding and the build.
    expect(read).toMatchObject({ code: -32603, data: { setting: 'ASSETS' } });
    expect(read.message).toMatch(/ASSETS is not bound: skills are read from static assets/);
  });

  it("answers skills/list with each entry, its URIs derived from the skill's path", async () => {
    expect(await answer(withSkills, 'skills/list')).toMatchObject({
      resultType: 'complete',
      ttlMs: 300_000,
      cacheScope: 'public',
      skills: [
        {
          uri: 'skill://tidy/SKILL.md',
          frontmatter: { name: 'tidy', description: 'Tidies.', version: 1 },
          resources: [
            { uri: 'skill://tidy/SKILL.md', digest: DIGEST, size: 40 },
            { uri: 'skill://tidy/references/GUIDE.md', digest: DIGEST, size: 8 },
          ],
        },
      ],
    });
  });

  it('serves a legacy client the same methods, without resultType and caching hints', async () => {
    const got = await answer(withSkills, 'skills/get', { uri: 'skill://tidy/SKILL.md' }, true);
    expect(Object.keys(got).sort()).toEqual(['_meta', 'skill']);
    expect(
      (await answer(withSkills, 'resources/directory/read', { uri: 'skill://tidy/references' }, true)).resources,
    ).toEqual([{ uri: 'skill://tidy/references/GUIDE.md', name: 'GUIDE.md', mimeType: 'text/markdown' }]);
  });

  it('refuses at load a resource the definition and the skills both serve', () => {
    const clash = defineResource({ uri: 'skill://tidy/SKILL.md', name: 'clash', read: () => ({ contents: [] }) });
    expect(() => createServer({ info, resources: [clash] }, [...servedSkills(built)])).toThrow(
      'resource "skill://tidy/SKILL.md" is defined twice',
    );
  });
});

describe('a server without skills', () => {
  it('gets no extension from an empty manifest, so declares nothing and serves no skills method', async () => {
    expect(servedSkills([])).toEqual([]);
    const none = createServer({ info }, [...servedSkills([])]);
    expect((await answer(none, 'server/discover')).capabilities).toEqual({});
    expect(await answer(none, 'skills/list')).toMatchObject({ code: -32601 });
    expect(await answer(none, 'resources/directory/read', { uri: 'skill://tidy' })).toMatchObject({ code: -32601 });
  });
});
