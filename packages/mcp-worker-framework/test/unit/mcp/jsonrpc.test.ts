import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseMessage } from '../../../src/mcp/jsonrpc';

describe('parseMessage', () => {
  it('reads a request and a notification', () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":"a","method":"m"}').message).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      method: 'm',
    });
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
    const nest = (depth: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}}}`;
    expect(parseMessage(nest(MAX_JSON_DEPTH)).message).toBeDefined();
    expect(parseMessage(nest(MAX_JSON_DEPTH + 1)).error?.code).toBe(-32600);
  });

  it('answers a body that names a member twice with -32700 and id null, naming the member (RFC 7493 2.3)', () => {
    for (const [text, name] of [
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}', 'method'],
      ['{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}', 'id'],
      ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"arguments":{"x":1,"\\u0078":2}}}', 'x'],
      // A batch of a 2025-03-26 client: each member is an object of its own.
      ['[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m","method":"n"}]', 'method'],
    ]) {
      const parsed = parseMessage(text!);
      expect(parsed.error?.code, text).toBe(-32700);
      expect(parsed.error?.message, text).toContain(`"${name}"`);
      expect(parsed.error && parsed.id, text).toBeNull();
    }
    const long = 'n'.repeat(1000);
    expect(parseMessage(`{"${long}":1,"${long}":2}`).error?.message.length).toBeLessThan(200);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'm', params: { s: `\\"${'['.repeat(500)}` } });
    expect(parseMessage(text).message).toBeDefined();
  });
});

/** The text `JSON.stringify` makes of a parsed id: what the answer will echo. */
const echoed = (text: string) => {
  const parsed = parseMessage(text);
  return JSON.stringify(parsed.message ? (parsed.message as { id?: unknown }).id : parsed.id);
};

describe('ids beyond 2^53 (spec basic/index: the response MUST include the same id)', () => {
  const BIG = '12345678901234567890123';

  it('keeps a big integer id digit for digit, wherever the id sits among the members', () => {
    expect(echoed(`{"jsonrpc":"2.0","id":${BIG},"method":"m"}`)).toBe(BIG);
    expect(echoed(`{"params":{"id":1,"a":[{"id":2}]},"method":"m","jsonrpc":"2.0","id":-${BIG}}`)).toBe(`-${BIG}`);
    expect(echoed(`{ "jsonrpc" : "2.0" , "method":"m", "s":"\\"id\\":7,", "id" :\n${BIG} }`)).toBe(BIG);
  });

  it('reads the id JSON.parse reads, under an escaped key; two ids are no id (-32700, id null)', () => {
    expect(echoed(`{"jsonrpc":"2.0","\\u0069d":${BIG},"method":"m"}`)).toBe(BIG);
    expect(echoed(`{"jsonrpc":"2.0","id":${BIG}1,"method":"m","id":${BIG}}`)).toBe('null');
  });

  it('keeps a big id written with an exponent as it was written', () => {
    expect(echoed('{"jsonrpc":"2.0","id":1.5e300,"method":"m"}')).toBe('1.5e300');
  });

  it('refuses an id beyond 2^53 that is not an integer, though a double rounds it to one', () => {
    const parsed = parseMessage('{"jsonrpc":"2.0","id":9007199254740993.5,"method":"m"}');
    expect(parsed.error?.code).toBe(-32600);
    expect(parsed.error && parsed.id).toBeNull();
  });

  it('echoes a big id in the error of an invalid message', () => {
    const parsed = parseMessage(`{"jsonrpc":"1.0","id":${BIG},"method":"m"}`);
    expect(parsed.error?.code).toBe(-32600);
    expect(parsed.error && JSON.stringify(parsed.id)).toBe(BIG);
  });

  it("keeps the big ids of a batch's members digit for digit", () => {
    const parsed = parseMessage(
      `[{"jsonrpc":"2.0","id":${BIG},"method":"m"},"x",{"jsonrpc":"2.0","id":1,"method":"m"},{"id":${BIG}9}]`,
    );
    expect(parsed.error && parsed.batch?.map((member) => JSON.stringify((member as { id?: unknown }).id))).toEqual([
      BIG,
      undefined,
      '1',
      `${BIG}9`,
    ]);
  });

  it('finds the id of a 3.8 MB body with one parse and one linear scan (a reviver over the whole body took 1.5 s)', () => {
    const numbers = Array.from({ length: 700_000 }, (_, i) => i % 1000);
    const text = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t","arguments":{"data":${JSON.stringify(numbers)},"rows":${JSON.stringify(Array.from({ length: 50_000 }, (_, i) => ({ id: i, s: 'x"y' })))}}},"id":${BIG}}`;
    expect(text.length).toBeGreaterThan(3_800_000);
    const work = countSearchWork(() => parseMessage(text));
    expect(JSON.stringify((work.result.message as { id: unknown }).id)).toBe(BIG);
    // Work counted, not timed (CI shares a 2-core machine): the body is parsed once, with no
    // reviver, and native searches walk it at most four times (counting '{' and '[' for the
    // nesting limit, its colons against its members for a repeated name, then the scan for the
    // id's source).
    expect(work.parses).toEqual([{ length: text.length, reviver: false }]);
    expect(work.searched).toBeGreaterThan(text.length);
    expect(work.searched).toBeLessThanOrEqual(4 * text.length);
  });

  it('reads a body whose strings hold colons name by name, in work linear in its length: a name repeated at its end is found', () => {
    const body = (rows: number, repeated = '') =>
      `{"jsonrpc":"2.0","id":1,"method":"m","params":{"rows":${JSON.stringify(Array.from({ length: rows }, (_, i) => ({ uri: `doc://${i}`, at: '12:30', s: 'x"y', n: [i, { i }] })))}${repeated}}}`;
    const small = countSearchWork(() => parseMessage(body(20_000)));
    const large = countSearchWork(() => parseMessage(body(40_000)));
    expect(large.result.message).toBeDefined();
    expect(large.parses).toHaveLength(1);
    expect(large.searched / small.searched).toBeGreaterThan(1.8);
    expect(large.searched / small.searched).toBeLessThan(2.2);
    expect(parseMessage(body(40_000, ',"rows":0')).error?.message).toContain('"rows"');
  });

  it('compares the names of an object of many in work linear in their number', () => {
    const body = (names: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"m","params":{"uri":"doc://a","arguments":{${Array.from({ length: names }, (_, i) => `"n${i}":${i}`).join(',')}}}}`;
    const small = countSearchWork(() => parseMessage(body(50_000)));
    const large = countSearchWork(() => parseMessage(body(100_000)));
    expect(large.result.message).toBeDefined();
    expect(large.searched / small.searched).toBeLessThan(2.2);
  });

  it('reads a body whose strings hold no colon without reading its names again: its members account for every colon', () => {
    // Objects nested in objects and in arrays, every member counted (src/mcp/duplicateName.ts,
    // membersOf); one name written with an escape, which a name-by-name read decodes with JSON.parse.
    const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, tags: [{ k: 'a' }, [{ k: 'b' }]], at: { x: i } }));
    const text = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"\\u0072ows":${JSON.stringify(rows)}}}}`;
    const work = countSearchWork(() => parseMessage(text));
    expect(work.result.message).toBeDefined();
    // Miscounted by one member either way, the colons would not match and every name would be read again.
    expect(work.parses).toEqual([{ length: text.length, reviver: false }]);
  });

  it("counts the scan's work: a body twice as long costs twice as much, not four times", () => {
    const body = (rows: number) =>
      `{"jsonrpc":"2.0","method":"m","params":{"rows":${JSON.stringify(Array.from({ length: rows }, (_, i) => ({ id: i, s: 'x"y', n: [i, [i]] })))}},"id":${BIG}}`;
    const small = countSearchWork(() => parseMessage(body(20_000)));
    const large = countSearchWork(() => parseMessage(body(40_000)));
    expect(large.searched / small.searched).toBeGreaterThan(1.8);
    expect(large.searched / small.searched).toBeLessThan(2.2);
  });
});

/**
 * Runs `run` while counting the characters that native searches walk over: `RegExp#exec` from a
 * global or sticky regular expression's `lastIndex` to the end of its match, and `String#indexOf`
 * from its start to what it found, and the items of each list `Array#includes` searches; and
 * every `JSON.parse`, with whether it was given a reviver.
 */
function countSearchWork<T>(run: () => T): {
  result: T;
  searched: number;
  parses: { length: number; reviver: boolean }[];
} {
  const { exec } = RegExp.prototype;
  const { indexOf } = String.prototype;
  const { includes } = Array.prototype;
  const { parse } = JSON;
  let searched = 0;
  const parses: { length: number; reviver: boolean }[] = [];
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const match = exec.call(this, input);
    searched += (match ? match.index + match[0].length : input.length) - from;
    return match;
  };
  String.prototype.indexOf = function (this: string, search: string, position?: number) {
    const found = indexOf.call(this, search, position);
    searched += (found === -1 ? this.length : found + search.length) - (position ?? 0);
    return found;
  };
  Array.prototype.includes = function (this: unknown[], item: unknown, from?: number) {
    searched += this.length;
    return includes.call(this, item, from);
  };
  JSON.parse = (text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    parses.push({ length: text.length, reviver: reviver !== undefined });
    return parse(text, reviver);
  };
  try {
    return { result: run(), searched, parses };
  } finally {
    RegExp.prototype.exec = exec;
    String.prototype.indexOf = indexOf;
    Array.prototype.includes = includes;
    JSON.parse = parse;
  }
}
