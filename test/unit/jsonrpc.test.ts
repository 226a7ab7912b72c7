import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseMessage } from '../../src/mcp/jsonrpc';

describe('parseMessage', () => {
  it('reads a request and a notification', () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":"a","method":"m"}').message).toEqual({ jsonrpc: '2.0', id: 'a', method: 'm' });
    expect(parseMessage('{"jsonrpc":"2.0","method":"n"}').message).toEqual({ jsonrpc: '2.0', method: 'n' });
  });

  it('answers bad JSON with -32700 and id null', () => {
    const parsed = parseMessage('{');
    expect(parsed.error?.code).toBe(-32700);
    expect(parsed.error && parsed.id).toBeNull();
  });

  it('echoes a readable id when the message is otherwise invalid', () => {
    const parsed = parseMessage('{"jsonrpc":"2.0","id":7,"method":3}');
    expect(parsed.error?.code).toBe(-32600);
    expect(parsed.error && parsed.id).toBe(7);
  });

  it('allows nesting up to the limit and refuses one level more', () => {
    const nest = (depth: number) => `{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}}}`;
    expect(parseMessage(nest(MAX_JSON_DEPTH)).message).toBeDefined();
    expect(parseMessage(nest(MAX_JSON_DEPTH + 1)).error?.code).toBe(-32600);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'm', params: { s: `\\"${'['.repeat(500)}` } });
    expect(parseMessage(text).message).toBeDefined();
  });
});
