/**
 * Resource templates (RFC 6570 `{var}` and `{+var}`) match a URI in one pass, left to right: what
 * a stranger puts in `resources/read` costs work linear in its length, whatever the template
 * (issue 37). A `{var}` ends at a URI delimiter or at the first character of the literal after it,
 * a `{+var}` at the first occurrence of that literal, the last expression at the template's
 * closing literal; two expressions with nothing between them are refused when the server is made.
 * The work is counted, never timed: the matcher reads characters with `charCodeAt` only.
 */
import { describe, expect, it } from 'vitest';
import { createServer, defineResourceTemplate } from '../../../src/mcp';
import { type CompiledTemplate, compileTemplate } from '../../../src/mcp/resources';

const template = (uriTemplate: string) =>
  compileTemplate(defineResourceTemplate({ uriTemplate, name: 'under-test', read: () => undefined }));

/** The characters `match` reads (of the URI and of the template's literals), one `charCodeAt` each. */
function reads(compiled: CompiledTemplate, uri: string): number {
  const charCodeAt = String.prototype.charCodeAt;
  let count = 0;
  String.prototype.charCodeAt = function (this: string, index: number) {
    count++;
    return charCodeAt.call(this, index);
  };
  try {
    compiled.match(uri);
  } finally {
    String.prototype.charCodeAt = charCodeAt;
  }
  return count;
}

describe('resource templates', () => {
  it('fills in a {var} up to a URI delimiter and a {+var} across them, percent-decoded', () => {
    const staff = template('doc://staff/{name}');
    expect(staff.match('doc://staff/alice')).toEqual({ name: 'alice' });
    expect(staff.match('doc://staff/caf%C3%A9')).toEqual({ name: 'café' });
    for (const uri of ['doc://staff/a/b', 'doc://staff/a?b', 'doc://staff/a#b', 'doc://staff/', 'doc://staff/%E0']) {
      expect(staff.match(uri), uri).toBeUndefined();
    }
    expect(template('test://items/{+path}').match('test://items/a/b?c#d')).toEqual({ path: 'a/b?c#d' });
    expect(template('test://template/{id}/data').match('test://template/7/data')).toEqual({ id: '7' });
    expect(template('test://template/{id}/data').match('test://template/7/x/data')).toBeUndefined();
    // The last expression takes everything up to the template's closing literal.
    expect(template('x://{name}.json').match('x://a.b.json')).toEqual({ name: 'a.b' });
    expect(template('x://fixed').match('x://fixed')).toEqual({});
  });

  it('ends a {var} at the first character of the literal after it, a {+var} at the first occurrence of that literal', () => {
    expect(template('x://{a}-{b}-{c}').match('x://p-q-r-s')).toEqual({ a: 'p', b: 'q', c: 'r-s' });
    const raw = template('file:///{+dir}/raw/{name}');
    expect(raw.match('file:///a/b/raw/c')).toEqual({ dir: 'a/b', name: 'c' });
    // No second try from a later "/raw/": {name} would then hold a '/', which it may not.
    expect(raw.match('file:///a/raw/b/raw/c')).toBeUndefined();
  });

  it('refuses at load two expressions with no literal between them, naming the template', () => {
    for (const uriTemplate of ['file:///{+a}{+b}', 'x://{a}{b}', 'x://{a}/{b}{+c}']) {
      expect(() => template(uriTemplate), uriTemplate).toThrow(`resource template "${uriTemplate}"`);
      expect(() =>
        createServer({
          info: { name: 'refused', version: '1.0.0' },
          resourceTemplates: [defineResourceTemplate({ uriTemplate, name: 'refused', read: () => undefined })],
        }),
      ).toThrow(/no literal between them/);
    }
  });

  // Each template with a URI crafted against it: a backtracking matcher (the regular expressions
  // these templates once compiled to) reads the first, third and fourth a number of times cubic in
  // their length; the last is full of near misses of "/raw/" for the search of a {+var}'s end.
  // Bound: two reads per character compared, at most the longest literal's 5 compared per position.
  const crafted: [string, (n: number) => string][] = [
    ['x://{a}-{b}-{c}', (n) => `x://${'-'.repeat(n)}/`],
    ['x://{a}-{b}-{c}', (n) => `x://a-b-${'c'.repeat(n)}/`],
    ['file:///{+a}/{+b}/{+c}.json', (n) => `file:///${'/'.repeat(n)}.txt`],
    ['file:///{+a}/{+b}/{+c}', (n) => `file:///${'/a'.repeat(n / 2)}\n`],
    ['file:///{+dir}/raw/{name}', (n) => `file:///${'/ra'.repeat(n / 3)}/raw/x/`],
  ];

  it('reads a crafted URI of n characters at most 12n times, for n from 240 to 3840', () => {
    for (const [uriTemplate, craft] of crafted) {
      const compiled = template(uriTemplate);
      for (const n of [240, 480, 960, 1920, 3840]) {
        const uri = craft(n);
        expect(reads(compiled, uri), `${uriTemplate} against ${n} characters`).toBeLessThanOrEqual(12 * uri.length);
      }
    }
  });

  it('counts what it reads (the count above can fail): a URI that matches is read to its end', () => {
    const compiled = template('x://{a}-{b}-{c}');
    const uri = `x://a-b-${'c'.repeat(3840)}`;
    expect(compiled.match(uri)).toEqual({ a: 'a', b: 'b', c: 'c'.repeat(3840) });
    expect(reads(compiled, uri)).toBeGreaterThanOrEqual(uri.length);
  });
});
