/**
 * A member name repeated within one object (RFC 7493 2.3), found in text `JSON.parse` accepted:
 * examples of each place one can hide, with and without colons inside strings (the text is read
 * name by name only when it has colons its members do not account for), and properties over
 * generated JSON against a reference that walks the text with a parser of its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateName as inBody } from '../../../src/mcp/duplicateName';

/** As the body's parse calls it: with the text's own parsed value. */
const duplicateName = (text: string) => inBody(text, JSON.parse(text));

/** The reference: a recursive-descent reader of valid JSON that reports the first repeated name. */
function reference(text: string): string | undefined {
  let i = 0;
  let found: string | undefined;
  const ws = () => {
    while (/\s/.test(text[i] ?? '')) i++;
  };
  const string = () => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): void => {
    ws();
    if (text[i] === '{') {
      i++;
      const names = new Set<string>();
      ws();
      while (text[i] !== '}') {
        ws();
        const name = string();
        if (names.has(name)) found ??= name;
        names.add(name);
        ws();
        i++; // :
        value();
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (text[i] === '[') {
      i++;
      ws();
      while (text[i] !== ']') {
        value();
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (text[i] === '"') string();
    else while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
  };
  value();
  return found;
}

/** An object's members `"n0":0,"n1":1,…` */
const many = (count: number) => Array.from({ length: count }, (_, i) => `"n${i}":${i}`).join(',');

describe('duplicateName', () => {
  it('finds none where each object names each member once, the same name in other objects included', () => {
    for (const text of [
      `{${many(40)}}`,
      `{"a":{${many(40)}},"b":{${many(40)}}}`,
      '{"\\u0061":1,"b":2}',
      '{"uri":"skill://a/SKILL.md","at":"12:30","u\\u003a":"\\u003a"}', // colons inside strings
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"name":"b","id":2}}}',
      '[{"id":1},{"id":2}]',
      '{"a":{"a":{"a":[{"a":1},{"a":2}]}}}',
      '{"a":"a","b":"a"}', // a value that spells a name is no name
      '{"s":"\\"a\\":1,\\"a\\":2","a":1}', // quotes and colons inside a string
      '{}',
      '"a"',
      '7',
    ])
      expect(duplicateName(text), text).toBeUndefined();
  });

  it.each([
    ['at the top level', '{"method":"tools/list","id":1,"method":"tools/call"}', 'method'],
    ['in params', '{"params":{"name":"safe","arguments":{},"name":"danger"}}', 'name'],
    ['among arguments', '{"params":{"arguments":{"path":"/ok","path":"/etc"}}}', 'path'],
    ['after a nested object with the same name', '{"a":{"a":1},"b":2,"a":3}', 'a'],
    ['in an object inside an array', '[1,{"x":1,"x":2}]', 'x'],
    ['spelled once with an escape', '{"id":1,"\\u0069d":2}', 'id'],
    ['with whitespace before the colons', '{ "a" : 1 ,\n\t"a"\r\n: 2 }', 'a'],
    ['named with escaped quotes', '{"\\"q\\"":1,"\\"q\\"":2}', '"q"'],
    ['__proto__', '{"__proto__":{},"__proto__":{"polluted":true}}', '__proto__'],
    ['past the third name', '{"a":1,"b":2,"c":3,"d":4,"c":5}', 'c'],
    ['in an object of more names than are compared one by one', `{${many(40)},"n7":0}`, 'n7'],
    ['in an object of few names, past one of many', `{"big":{${many(40)}},"a":1,"a":2}`, 'a'],
    ['escaped, in an object of many', `{${many(40)},"\\u006e3":0}`, 'n3'],
    ['beside colons inside strings', '{"uri":"doc://a","at":"12:30","uri":"doc://b"}', 'uri'],
    ['beside escaped colons (no colon in the text)', '{"a":"\\u003a","b":"\\u003a","a":1}', 'a'],
  ])('finds a repeat %s', (_, text, name) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(duplicateName(text)).toBe(name);
  });

  it('agrees with the reference on generated JSON, as JSON.stringify writes it and with whitespace', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(fc.string(), fc.nat(), { maxKeys: 40 })),
        fc.boolean(),
        (value, spaced) => {
          const text = JSON.stringify(value, null, spaced ? 1 : undefined);
          expect(duplicateName(text)).toBeUndefined();
          expect(reference(text)).toBeUndefined();
        },
      ),
      { seed: 37, numRuns: 500 },
    );
  });

  it('finds the name repeated in any object of generated JSON, as the reference does', () => {
    // Up to 40 names: past the few compared one by one too.
    const object = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), {
      minKeys: 1,
      maxKeys: 40,
    });
    fc.assert(
      fc.property(object, fc.jsonValue({ maxDepth: 2 }), fc.nat(), fc.jsonValue({ maxDepth: 2 }), (o, v, k, outer) => {
        const name = Object.keys(o)[k % Object.keys(o).length]!;
        const inner = `${JSON.stringify(o).slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(v)}}`;
        // The object with a repeated name, nested inside other JSON.
        const text = `{"before":${JSON.stringify(outer)},"it":[${inner}]}`;
        expect(duplicateName(text)).toBe(name);
        expect(reference(text)).toBe(name);
      }),
      { seed: 37, numRuns: 500 },
    );
  });
});
