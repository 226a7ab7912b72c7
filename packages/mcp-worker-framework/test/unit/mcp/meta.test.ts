import { describe, expect, it } from 'vitest';
import { McpError } from '../../../src/mcp/errors';
import { readLegacyMeta } from '../../../src/mcp/legacy';
import { declares, readRequestMeta } from '../../../src/mcp/meta';

const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('readRequestMeta', () => {
  it('reads the required fields and the optional ones', () => {
    const meta = readRequestMeta({
      _meta: {
        [V]: '2026-07-28',
        [CAPS]: { sampling: {} },
        progressToken: 3,
        'io.modelcontextprotocol/logLevel': 'warning',
        traceparent: TRACEPARENT,
        tracestate: 'congo=t61rcWkgMzE',
      },
    });
    expect(meta).toEqual({
      protocolVersion: '2026-07-28',
      clientCapabilities: { sampling: {} },
      progressToken: 3,
      logLevel: 'warning',
      trace: { traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE' },
    });
  });

  it('drops a trace context that is not W3C Trace Context, and a tracestate without a traceparent', () => {
    for (const _meta of [
      { traceparent: '00-abc-def-01' },
      { traceparent: 'not-a-traceparent; injected=1', tracestate: 'a=b' },
      { traceparent: `${TRACEPARENT}\r\nx-injected: 1` },
      { tracestate: 'a=b' },
    ]) {
      expect(readRequestMeta({ _meta: { [V]: '2026-07-28', [CAPS]: {}, ..._meta } })).toEqual({
        protocolVersion: '2026-07-28',
        clientCapabilities: {},
      });
    }
  });

  it("reads a legacy request's trace context by the same rules", () => {
    expect(readLegacyMeta({ _meta: { traceparent: TRACEPARENT, tracestate: 'a=b' } }, '2025-11-25')).toMatchObject({
      trace: { traceparent: TRACEPARENT, tracestate: 'a=b' },
    });
    expect(
      readLegacyMeta({ _meta: { traceparent: 'not-a-traceparent; injected=1', tracestate: 'a=b' } }, '2025-11-25'),
    ).toEqual({
      era: 'legacy',
      protocolVersion: '2025-11-25',
      clientCapabilities: {},
    });
  });

  it('refuses a fractional progress token', () => {
    const meta = readRequestMeta({ _meta: { [V]: '2026-07-28', [CAPS]: {}, progressToken: 1.5 } });
    expect(meta).toBeInstanceOf(McpError);
    expect((meta as McpError).message).toMatch(/progressToken/);
  });
});

describe('declares', () => {
  it('sees own capability objects only', () => {
    expect(declares({ elicitation: {} }, 'elicitation')).toBe(true);
    expect(declares({ elicitation: true }, 'elicitation')).toBe(false);
    expect(declares({}, 'constructor')).toBe(false);
    expect(declares(JSON.parse('{"__proto__":{"x":1}}'), 'x')).toBe(false);
  });
});
