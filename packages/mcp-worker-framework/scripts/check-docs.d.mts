/** Types for scripts/check-docs.mjs (its unit test). */
export interface DocBlock {
  doc: string;
  /** The line of its opening fence. */
  line: number;
  /** The words after the language: `nocheck`, `env=NAME,…`. */
  info: string[];
  code: string;
}
export function tsBlocks(doc: string, text: string): DocBlock[];
export function checkDocs(options?: { root?: string; files?: string[] }): {
  checked: number;
  skipped: DocBlock[];
  errors: string[];
};
