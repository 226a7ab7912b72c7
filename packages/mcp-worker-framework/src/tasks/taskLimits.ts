/**
 * What one task may keep, in bytes of UTF-8 JSON (docs/tasks.md, "Limits"). A task is one
 * SQLite row, and the platform refuses a row over 2 MB: the parts a client sends are refused
 * with -32602 before anything is stored, a result over its limit becomes a tool error, and a
 * record that would still not fit fails the task instead of failing the write.
 */
import { bytesOver, invalidParams, type McpError } from '../mcp/internal.js';

export const TASK_LIMITS = {
  /** The creating client's capabilities, info and protocol version. */
  clientBytes: 16 * 1024,
  /** The creating caller's scopes and claims (a token's worth). */
  callerBytes: 16 * 1024,
  /** The tool's arguments. */
  argumentsBytes: 256 * 1024,
  /** The answers a task holds at once: those a `tools/call` brings, or one round's over all its `tasks/update`s. */
  inputBytes: 256 * 1024,
  /** The tool's result (1 MiB, as a direct call's is in characters). */
  resultBytes: 1024 * 1024,
  /** The whole record, with room to spare under the platform's 2 MB row. */
  recordBytes: 1_900_000,
} as const;

/** -32602 when `value` is more than a task keeps of `what`. */
export function tooLargeToKeep(what: string, value: unknown, limit: number): McpError | undefined {
  const bytes = bytesOver(JSON.stringify(value) ?? '', limit);
  return bytes === undefined
    ? undefined
    : invalidParams(`${what} (${bytes} bytes of JSON) exceed what a task keeps (${limit} bytes)`);
}
