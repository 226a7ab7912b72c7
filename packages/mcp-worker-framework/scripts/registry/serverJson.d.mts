/** Types for scripts/registry/serverJson.mjs (used by scripts/registry.mjs and its test). */
export const SERVER_JSON_SCHEMA: string;
export function serverJsonOf(
  card: Record<string, unknown>,
  url: string,
  headers?: Record<string, string>,
): Record<string, unknown>;
export function problemsOf(document: unknown): string[];
