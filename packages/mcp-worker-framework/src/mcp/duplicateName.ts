/**
 * A member name repeated within one object of a body (RFC 8259 4: names SHOULD be unique; I-JSON,
 * RFC 7493 2.3: MUST NOT be repeated). `JSON.parse` keeps the last of them, and a parser that
 * keeps the first (streaming and lazy ones, common in gateways) reads another message: another
 * method, tool or argument than the one served. Such a body is refused (`./jsonrpc.ts`;
 * docs/protocol.md, "Duplicate member names").
 *
 * Cheap for the bodies clients send: every member has its colon, so a text with no more colons
 * than the parsed value has members lost none (about 3,500 instructions for the bench's requests,
 * of the 500,000 one costs in workerd). Only a body with a colon elsewhere (in a string: a URI, a
 * time) is read again, name by name, linearly (about 14,000 for a `resources/read` of a
 * `skill://` URI). The figures: docs/protocol.md, "Duplicate member names".
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
/** Up to this many names, an object's are compared one by one; past it, kept in a set. */
const FEW = 16;

/** The first name an object of `text` repeats, decoded; undefined when none does. `parsed` is `JSON.parse(text)`. */
export function duplicateName(text: string, parsed: unknown): string | undefined {
  const members = membersOf(parsed);
  return colonsUpTo(text, members) === members ? undefined : repeatedName(text);
}

/**
 * How many members the objects of a parsed value have, nested ones included. A loop over the
 * objects and arrays still to visit, not a recursion: TurboFan compiled the recursive count within
 * the bench's counted tools/call requests, 8,400 instructions of each (BENCHMARKS.md, "tools/call
 * against its target").
 */
function membersOf(value: unknown): number {
  let count = 0;
  const pending: object[] = typeof value === 'object' && value !== null ? [value] : [];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'object' && item !== null) pending.push(item);
      }
      continue;
    }
    // `for…in` sees own keys only here: what JSON.parse makes inherits nothing enumerable.
    for (const key in node) {
      count++;
      const member: unknown = (node as Record<string, unknown>)[key];
      if (typeof member === 'object' && member !== null) pending.push(member);
    }
  }
  return count;
}

/** The colons of `text`, counted no further than `limit + 1`. */
function colonsUpTo(text: string, limit: number): number {
  let count = 0;
  for (let i = text.indexOf(':'); i !== -1 && count <= limit; i = text.indexOf(':', i + 1)) count++;
  return count;
}

/**
 * The first repeated name, reading text `JSON.parse` accepted: strings jumped over with the
 * runtime's `indexOf`, each object's names kept (decoded: `"\u0061"` is `"a"`) in a list, or a
 * set past `FEW` of them. Linear in the text.
 */
function repeatedName(text: string): string | undefined {
  const enclosing: (string[] | Set<string>)[] = [];
  let names: string[] | Set<string> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      i = closingQuote(text, start);
      let next = i + 1;
      while (isWhitespace(text.charCodeAt(next))) next++;
      // A string followed by a colon is a name (in valid JSON, a value never is).
      if (text.charCodeAt(next) !== COLON) continue;
      const raw = text.slice(start + 1, i);
      const name = raw.includes('\\') ? (JSON.parse(text.slice(start, i + 1)) as string) : raw;
      if (Array.isArray(names)) {
        if (names.includes(name)) return name;
        names.push(name);
        if (names.length > FEW) names = new Set(names);
      } else if (names.has(name)) return name;
      else names.add(name);
      i = next;
    } else if (c === 0x7b || c === 0x5b) {
      // { or [: a container opens, with no names yet
      enclosing.push(names);
      names = [];
    } else if (c === 0x7d || c === 0x5d) names = enclosing.pop()!; // } or ]
  }
  return undefined;
}

/** The closing quote of the string opening at `start`: the next quote after an even run of backslashes. */
function closingQuote(text: string, start: number): number {
  for (let end = text.indexOf('"', start + 1); end !== -1; end = text.indexOf('"', end + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
  return text.length;
}

const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
