/** Types of ./readSkills.mjs, for the tests that import it. */
export declare const SKILL_LIMITS: { files: number; bytes: number };

export interface ReadFile {
  path: string;
  digest: string;
  size: number;
  mimeType: string;
  binary?: true;
  /** Where the file is read from. */
  source: string;
}

export interface ReadSkill {
  path: string;
  frontmatter: { name: string; description: string; [key: string]: unknown };
  files: ReadFile[];
  /** `skills/<path>.ts`, relative to the skills folder, when there is one. */
  rules?: string;
}

export declare function readSkills(dir: string, label?: string): ReadSkill[];
