/**
 * The official client's Skills extension (`@modelcontextprotocol/client/ext/skills`, SDK 2.4)
 * against the Skills fixture (test/fixtures/skills) in workerd, over real HTTP on loopback: it
 * lists every skill, gets each, reads every file and verifies its size, digest and (for SKILL.md)
 * frontmatter, and reads directories; on the 2026-07-28 wire and on the legacy one, where the
 * extension is negotiated in `initialize` and its results carry no caching hints.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';

let worker: WorkerInWorkerd;
beforeAll(async () => {
  worker = await startInWorkerd({ config: 'test/fixtures/skills/wrangler.toml' });
}, 120_000);
afterAll(() => worker?.dispose());

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function skillsClient(mode: 'auto' | 'legacy') {
  const client = new Client({ name: 'e2e-skills', version: '1.0.0' }, { versionNegotiation: { mode } });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${worker.url}/mcp`)));
  return { client, skills: new SkillsClient(client) };
}

describe.each(['auto', 'legacy'] as const)('the official SkillsClient, versionNegotiation %s', (mode) => {
  it('lists every skill, gets each, reads and verifies every file', async () => {
    const { client, skills } = await skillsClient(mode);
    expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.frontmatter.name)).toEqual(['refunds', 'git-workflow', 'pdf-processing']);
    let files = 0;
    for (const entry of listing.skills) {
      const { skill, ttlMs, cacheScope } = await skills.get(entry.uri);
      expect(skill).toEqual(entry);
      expect(ttlMs).toBe(mode === 'auto' ? 60_000 : undefined);
      expect(cacheScope).toBe(mode === 'auto' ? 'public' : undefined);
      for (const resource of skill.resources as { uri: string; size: number }[]) {
        // read() throws SkillVerificationError on a size, digest or frontmatter mismatch.
        const file = await skills.read(skill, resource.uri);
        expect(file.verified).toBe(true);
        expect(file.bytes.length).toBe(resource.size);
        if (resource.uri === skill.uri) expect(file.frontmatter).toEqual(skill.frontmatter);
        files++;
      }
    }
    expect(files).toBe(listing.skills.reduce((sum, s) => sum + (s.resources as unknown[]).length, 0));
    // The frontmatter arrives as a YAML 1.2 reader types it: version: 1.0 is a number, a date a string.
    expect(listing.skills[2]!.frontmatter).toMatchObject({
      version: 1,
      enabled: true,
      released: '2024-01-01',
      reviewed: null,
      metadata: { version: '2.1' },
    });
  });

  it("reads a skill's directories, with subfolders to descend into", async () => {
    const { skills } = await skillsClient(mode);
    const root = await skills.readDirectory('skill://pdf-processing');
    expect(root.resources.filter((r) => r.mimeType === 'inode/directory').map((r) => r.name)).toEqual([
      'assets',
      'references',
      'scripts',
      'templates',
    ]);
    expect(root.ttlMs).toBe(mode === 'auto' ? 60_000 : undefined);
    const regional = await skills.readDirectory('skill://pdf-processing/templates/regional');
    expect(regional.resources).toEqual([
      {
        uri: 'skill://pdf-processing/templates/regional/eu-invoice.md',
        name: 'eu-invoice.md',
        mimeType: 'text/markdown',
      },
    ]);
  });
});
