/** Types for scripts/workerd.mjs (used by the benchmarks and `npm run load`). */
export interface DirectWorker {
  url: string;
  bundle: string;
  name: string;
  /** What workerd wrote to stderr, in arrival order. */
  logs(): string;
  /** workerd's process id, and its config file (to spawn it again). */
  pid?: number;
  configFile: string;
  stop(): Promise<void>;
}
export function workerdBinary(): string;
export function freePort(): Promise<number>;
export function buildBundle(config: string, outdir?: string, cwd?: string): string;
export function serveWithWorkerd(options: {
  config: string;
  vars?: Record<string, string>;
  bundle?: string;
  port?: number;
  args?: string[];
  v8Flags?: string[];
}): Promise<DirectWorker>;
