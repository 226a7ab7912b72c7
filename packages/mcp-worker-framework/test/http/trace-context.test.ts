/**
 * The caller's W3C trace context reaches an upstream only when it follows the grammar (spec
 * 2026-07-28 basic/index, `_meta`: "their values MUST follow W3C Trace Context"), from `_meta`
 * or the headers alike. The fixture's `traced` tool fetches the loopback upstream's
 * /echo-headers with the handler's `fetch`, and answers with the trace headers it received.
 */
import { describe, expect, it } from 'vitest';
import { fixtureUrl, meta, requestsTo } from '../support/mcp';

const { rpc } = requestsTo(fixtureUrl());

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** Calls `traced`; returns the trace headers the upstream saw. */
async function upstreamSaw(extraMeta: Record<string, unknown>, headers: Record<string, string> = {}) {
  const { status, body } = await rpc('tools/call', {
    params: { name: 'traced', arguments: {}, _meta: meta(extraMeta) },
    headers,
  });
  expect(status).toBe(200);
  expect(body.result?.isError, JSON.stringify(body)).toBeUndefined();
  return JSON.parse(body.result?.content[0].text) as { traceparent: string | null; tracestate?: string };
}

describe('trace context passed upstream', () => {
  it('passes a valid traceparent and tracestate from _meta on as they are', async () => {
    expect(
      await upstreamSaw({ traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7' }),
    ).toEqual({
      traceparent: TRACEPARENT,
      tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
    });
  });

  it('passes nothing for a _meta traceparent that is not one, and not its tracestate either', async () => {
    expect(await upstreamSaw({ traceparent: 'not-a-traceparent; injected=1', tracestate: 'a=b' })).toEqual({
      traceparent: null,
    });
  });

  it('passes nothing for a _meta traceparent with CR/LF, and the tool still runs', async () => {
    expect(await upstreamSaw({ traceparent: `${TRACEPARENT}\r\nx-injected: 1` })).toEqual({ traceparent: null });
    expect(await upstreamSaw({ traceparent: TRACEPARENT, tracestate: 'a=b\r\nx-injected: 1' })).toEqual({
      traceparent: TRACEPARENT,
    });
  });

  it('passes nothing for an invalid traceparent header', async () => {
    expect(await upstreamSaw({}, { traceparent: 'not-a-traceparent; injected=1', tracestate: 'a=b' })).toEqual({
      traceparent: null,
    });
    expect(await upstreamSaw({}, { traceparent: TRACEPARENT.toUpperCase() })).toEqual({ traceparent: null });
  });

  it('passes a valid traceparent header without a 3,000-character tracestate, or with the whole entries that fit in 512', async () => {
    expect(await upstreamSaw({}, { traceparent: TRACEPARENT, tracestate: `k=${'v'.repeat(3_000)}` })).toEqual({
      traceparent: TRACEPARENT,
    });
    const entries = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}=${'v'.repeat(96)}`);
    const { traceparent, tracestate } = await upstreamSaw(
      {},
      { traceparent: TRACEPARENT, tracestate: entries.join(',') },
    );
    expect(traceparent).toBe(TRACEPARENT);
    expect(tracestate).toBe(entries.slice(0, 5).join(','));
  });

  it("takes the headers' trace context when _meta's is invalid, never a mix of the two", async () => {
    const other = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    expect(
      await upstreamSaw({ traceparent: 'bogus', tracestate: 'meta=1' }, { traceparent: other, tracestate: 'header=1' }),
    ).toEqual({ traceparent: other, tracestate: 'header=1' });
    expect(await upstreamSaw({ traceparent: TRACEPARENT }, { traceparent: other, tracestate: 'header=1' })).toEqual({
      traceparent: TRACEPARENT,
    });
  });
});
