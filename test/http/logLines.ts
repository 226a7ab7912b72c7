import { expect } from 'vitest';
import type { DirectWorker } from '../../scripts/workerd.mjs';

/** One request log line, as the Worker printed it. */
export type LogLine = Record<string, string | number | boolean>;

/** Every request log line a Worker served with `captureStdout` has printed so far. */
export const logLines = (worker: DirectWorker): LogLine[] =>
  worker
    .logs()
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"http.response.status_code"'))
    .map((line) => JSON.parse(line) as LogLine);

/** Waits (at most 3 s) until exactly one line matches, and returns it; fails on none or several. */
export async function waitForLine(worker: DirectWorker, match: (line: LogLine) => boolean): Promise<LogLine> {
  const matching = () => logLines(worker).filter(match);
  const deadline = Date.now() + 3_000;
  while (matching().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 100)); // a second line, if any, has time to show up
  const found = matching();
  expect(found).toHaveLength(1);
  return found[0]!;
}
