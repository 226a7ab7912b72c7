/**
 * The edge fixture (test/fixtures/edge/) in workerd through the test kit, and the request log
 * lines it prints (one JSON object per request: src/http/steps/writeRequestLog.ts).
 */
import { expect } from 'vitest';
import { startInWorkerd, type WorkerInWorkerd } from '../../src/testing';

/** The settings the edge fixture runs under: request logs on, a 4 KiB body limit, one browser origin. */
const SETTINGS = {
  ALLOWED_ORIGINS: 'https://app.example.com',
  MAX_BODY_BYTES: '4096',
  LISTEN_MAX_SECONDS: '1',
  REQUEST_LOGS: 'on',
};

/** Starts the edge fixture; `vars` add to or replace its settings. */
export const startEdge = (vars: Record<string, string> = {}) =>
  startInWorkerd({
    config: 'test/fixtures/edge/wrangler.toml',
    vars: { ...SETTINGS, ...vars },
    secrets: { MCP_STATE_SECRET: 'edge fixture secret' },
  });

/** One request log line, as the Worker printed it. */
export type LogLine = Record<string, string | number | boolean>;

/** Every request log line the Worker has printed so far. */
export const logLines = (worker: WorkerInWorkerd): LogLine[] =>
  worker
    .logs()
    .filter((line) => line.startsWith('{') && line.includes('"http.response.status_code"'))
    .map((line) => JSON.parse(line) as LogLine);

/** Waits (at most 10 s, generous: only a failing test waits it out) until exactly one line matches, and returns it; fails on none or several. */
export async function waitForLine(worker: WorkerInWorkerd, match: (line: LogLine) => boolean): Promise<LogLine> {
  const matching = () => logLines(worker).filter(match);
  const deadline = Date.now() + 10_000;
  while (matching().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 100)); // a second line, if any, has time to show up
  const found = matching();
  expect(found).toHaveLength(1);
  return found[0]!;
}
