/**
 * What `scripts/build-skills.mjs` makes of each folder of `skills/` (docs/skills.md): the skill's
 * frontmatter, parsed once at build time as YAML 1.2 (as hosts parse it to compare), and each of
 * its files with the SHA-256 digest and size of its bytes. The generated `skills/index.ts` hands
 * these to `servedSkills`; the files themselves are in the Worker's static assets, never its script.
 */
import type { CallerRules } from '../mcp/internal.js';

/** The Skills extension's identifier (skills.mdx, Extension Identifier). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Who sees a skill, in `skills/<path>.ts` beside its folder: as for a tool, `requiredScopes` and `visibleTo`. */
export type SkillRules = CallerRules;

export interface BuiltFile {
  /** Relative to the skill's folder, `/`-separated: `SKILL.md`, `references/GUIDE.md`. */
  readonly path: string;
  /** `sha256:` and 64 lowercase hex digits of the file's bytes. */
  readonly digest: string;
  /** Its length in bytes. */
  readonly size: number;
  readonly mimeType: string;
  /** Served as `blob` (base64) rather than `text`: not UTF-8, or a binary type. */
  readonly binary?: true;
}

export interface BuiltSkill {
  /** The skill's path under `skills/`, e.g. `git-workflow` or `acme/billing/refunds`; its last segment is `frontmatter.name`. */
  readonly path: string;
  /** The `SKILL.md` frontmatter, every field the author wrote, as JSON. */
  readonly frontmatter: { readonly name: string; readonly description: string; readonly [key: string]: unknown };
  /** `SKILL.md` first, then the other files in path order. */
  readonly files: readonly BuiltFile[];
  /** From `skills/<path>.ts`, when there is one. */
  readonly rules?: SkillRules;
}
