/** Types for scripts/deploy/nextSteps.mjs (used by scripts/deploy.mjs and its test). */
export function endpointsOf(output: string): string[];
export function nextSteps(endpoints: readonly string[]): string;
