/** What the unit tests of listen streams (test/unit/http/transport/) open and read. */
import { RawJson } from '../../src/mcp/json';
import type { Listen } from '../../src/mcp/request';

/**
 * The listen of request 7, with no source attached: acknowledged with `notifications: {}`, ended
 * with notifications/cancelled naming it, then a complete result.
 */
export const listenOf7 = (): Listen => ({
  acknowledgement: {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: {} },
  },
  teardown: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } },
  closing: new RawJson('{"resultType":"complete"}'),
});

/** The text of the next `chunks` chunks from a stream's reader. */
export async function readChunks(reader: ReadableStreamDefaultReader<Uint8Array>, chunks: number): Promise<string> {
  let text = '';
  for (let i = 0; i < chunks; i++) text += new TextDecoder().decode((await reader.read()).value);
  return text;
}
