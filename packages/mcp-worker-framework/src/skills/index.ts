/**
 * Agent Skills served from the Worker (`io.modelcontextprotocol/skills`, SEP-2640;
 * docs/skills.md). A skill is a folder of `skills/`; `scripts/build-skills.mjs` builds them into
 * the static assets and writes `skills/index.ts`, whose `skills` a server lists in `extensions`.
 */
export { SKILLS_EXTENSION, type BuiltFile, type BuiltSkill, type SkillRules } from './built.js';
export { servedSkills } from './servedSkills.js';
/** What `skills` of a generated skills/index.ts is, even with no skill: a list of extensions, empty. */
export type { Extension } from '../mcp/internal.js';
