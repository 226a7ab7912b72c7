/**
 * The example skill (skills/plan-a-meeting/), in workerd as deployed, its files read from static
 * assets by the official client's SkillsClient, which verifies each against its digest; and what
 * it teaches is real: every tool and resource it names is one this server serves.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInWorkerd, testClient, type WorkerInWorkerd } from 'mcp-worker-framework/testing';

let worker: WorkerInWorkerd;
beforeAll(async () => {
  worker = await startInWorkerd({ vars: { REQUEST_LOGS: 'off' } });
}, 120_000);
afterAll(() => worker?.dispose());

describe('the example skill plan-a-meeting', () => {
  it('is listed, publicly cached, read and verified by the official client, its reference file in a subfolder', async () => {
    const client = new Client({ name: 'example-skills', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${worker.url}/mcp`)));
    try {
      const skills = new SkillsClient(client);
      const { skills: entries, cacheScope } = await skills.list();
      expect(entries.map((s) => s.uri)).toEqual(['skill://plan-a-meeting/SKILL.md']);
      expect(cacheScope).toBe('public');
      const skill = entries[0]!;
      const main = await skills.read(skill);
      expect(main.verified).toBe(true);
      expect(main.body).toContain('references/choosing-zones.md');
      const reference = await skills.read(skill, 'references/choosing-zones.md');
      expect(reference.text).toContain('time://zones');
      const folder = await skills.readDirectory('skill://plan-a-meeting');
      expect(folder.resources).toContainEqual({
        uri: 'skill://plan-a-meeting/references',
        name: 'references',
        mimeType: 'inode/directory',
      });
    } finally {
      await client.close();
    }
  });

  it('names only tools and resources this server serves', async () => {
    const mcp = testClient(worker);
    const { result } = await mcp.readResource('skill://plan-a-meeting/SKILL.md');
    const text = (result.contents[0] as { text: string }).text;
    const tools = (await mcp.listTools()).result.tools.map((t) => t.name);
    for (const tool of ['world_clock', 'current_time']) {
      expect(text).toContain(`\`${tool}\``);
      expect(tools).toContain(tool);
    }
    expect(text).toContain('`time://zones`');
    expect((await mcp.readResource('time://zones')).result.contents).toHaveLength(1);
  });
});
