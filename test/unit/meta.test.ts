import { describe, expect, it } from 'vitest';
import { McpError } from '../../src/mcp/errors';
import { declares, readRequestMeta } from '../../src/mcp/meta';

const V = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

describe('readRequestMeta', () => {
  it('reads the required fields and the optional ones', () => {
    const meta = readRequestMeta({
      _meta: { [V]: '2026-07-28', [CAPS]: { sampling: {} }, progressToken: 3, 'io.modelcontextprotocol/logLevel': 'warning', traceparent: '00-abc-def-01' },
    });
    expect(meta).toEqual({ protocolVersion: '2026-07-28', clientCapabilities: { sampling: {} }, progressToken: 3, logLevel: 'warning', traceparent: '00-abc-def-01' });
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
