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
