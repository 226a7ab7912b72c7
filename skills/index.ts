/**
 * Made by `mcp-worker build` (node_modules/mcp-worker-framework/scripts/build-skills.mjs) from the
 * folders here (node_modules/mcp-worker-framework/docs/skills.md): each skill's frontmatter and
 * files, with their digests. wrangler remakes it before every dev, test and deploy, and npm run
 * check before it checks; commit it with your skills, never edit it.
 */
import { servedSkills } from 'mcp-worker-framework/skills';

export const skills = servedSkills([
  {
    path: "plan-a-meeting",
    frontmatter: {"name":"plan-a-meeting","description":"Find a meeting time that suits people in several time zones, with this server's world_clock, current_time and time-zone resources. Use when someone asks when to meet across cities or countries.","license":"MIT","metadata":{"author":"mcp-worker-template","version":"1.0"}},
    files: [
      {"path":"SKILL.md","digest":"sha256:f3b272cb66cee134367e801834ba96ebca553ee6ca3a2fd0c010aa2e3a68d5dd","size":1359,"mimeType":"text/markdown"},
      {"path":"references/choosing-zones.md","digest":"sha256:352b6af5f4a5066f5a3c92d3887ed5a9a70677602cfb6460a59df49ed4a48ab3","size":585,"mimeType":"text/markdown"},
    ],
  },
]);
