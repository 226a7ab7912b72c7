/**
 * The source text of a message's `id`, for the rare integer id a double cannot hold (spec
 * 2026-07-28 basic/index, Responses: the response MUST include the same id). One linear scan
 * of text that `JSON.parse` has already accepted: it walks the top level only, and jumps over
 * nested values and strings with the runtime's native `indexOf` and a sticky regular
 * expression, so a 4 MB body costs milliseconds (a reviver over the whole body cost 1.5 s).
 */

// The characters that open or close a nested value, or a string inside one.
const STRUCTURE = /["[\]{}]/g;

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  whitespace(): void {
    const { text } = this;
    for (
      let c = text.charCodeAt(this.pos);
      c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
      c = text.charCodeAt(++this.pos)
    );
  }

  /** Past the string whose opening quote is at `pos`: the next quote preceded by an even run of backslashes. */
  string(): void {
    const { text } = this;
    for (let end = text.indexOf('"', this.pos + 1); end !== -1; end = text.indexOf('"', end + 1)) {
      let backslashes = 0;
      while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) {
        this.pos = end + 1;
        return;
      }
    }
    this.pos = text.length;
  }

  /** Past the value at `pos`, whatever it is. */
  value(): void {
    const { text } = this;
    const c = text.charCodeAt(this.pos);
    if (c === 0x22) {
      this.string();
      return;
    }
    if (c !== 0x7b && c !== 0x5b) {
      // a number or a literal: up to the next delimiter
      while (this.pos < text.length && !',}] \t\n\r'.includes(text[this.pos]!)) this.pos++;
      return;
    }
    let depth = 0;
    STRUCTURE.lastIndex = this.pos;
    for (let match = STRUCTURE.exec(text); match; match = STRUCTURE.exec(text)) {
      const found = match[0];
      if (found === '"') {
        this.pos = match.index;
        this.string();
        STRUCTURE.lastIndex = this.pos;
      } else if (found === '{' || found === '[') depth++;
      else if (--depth === 0) {
        this.pos = match.index + 1;
        return;
      }
    }
    this.pos = text.length;
  }

  /** The source of the `id` member of the object at `pos` (the last one, as `JSON.parse` keeps), leaving `pos` past the object. */
  objectId(): string | undefined {
    const { text } = this;
    let id: string | undefined;
    this.pos++; // {
    for (;;) {
      this.whitespace();
      if (text.charCodeAt(this.pos) !== 0x22) break; // }
      const key = this.pos;
      this.string();
      const isId = this.isIdKey(key, this.pos);
      this.whitespace();
      this.pos++; // :
      this.whitespace();
      const start = this.pos;
      this.value();
      if (isId) id = text.slice(start, this.pos);
      this.whitespace();
      if (text.charCodeAt(this.pos) === 0x2c) this.pos++; // ,
    }
    this.pos++; // }
    return id;
  }

  /** True when the key spanning [start, end) (quotes included) reads "id", escaped or not (`"\u0069d"`). */
  private isIdKey(start: number, end: number): boolean {
    const { text } = this;
    if (end - start === 4) return text.startsWith('"id"', start);
    // the longest spelling is "\u0069\u0064"
    return end - start <= 14 && text.slice(start, end).includes('\\') && JSON.parse(text.slice(start, end)) === 'id';
  }
}

/** The source text of the top-level object's `id`, or undefined when `text` is not an object with one. */
export function idSource(text: string): string | undefined {
  const scanner = new Scanner(text);
  scanner.whitespace();
  return text.charCodeAt(scanner.pos) === 0x7b ? scanner.objectId() : undefined;
}

/** For a top-level array (a 2025-03-26 batch), the source text of each member's `id`, by position. */
export function memberIdSources(text: string): (string | undefined)[] {
  const scanner = new Scanner(text);
  const sources: (string | undefined)[] = [];
  scanner.whitespace();
  if (text.charCodeAt(scanner.pos) !== 0x5b) return sources;
  scanner.pos++; // [
  for (;;) {
    scanner.whitespace();
    const c = text.charCodeAt(scanner.pos);
    if (c === 0x5d || Number.isNaN(c)) return sources; // ]
    if (c === 0x7b) sources.push(scanner.objectId());
    else {
      sources.push(undefined);
      scanner.value();
    }
    scanner.whitespace();
    if (text.charCodeAt(scanner.pos) === 0x2c) scanner.pos++; // ,
  }
}

// An integer in JSON's number grammar may still be written with a fraction or an exponent.
const NUMBER = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * True when a JSON number's source denotes an integer (`1.5e300` does, `9007199254740993.5`
 * does not, though a double rounds both to one): its digits, shifted by the exponent, leave
 * no non-zero digit after the point.
 */
export function isIntegerSource(source: string): boolean {
  const match = NUMBER.exec(source);
  if (!match) return false;
  const fraction = match[2] ?? '';
  const digits = (match[1] ?? '') + fraction;
  const shift = Number(match[3] ?? 0) - fraction.length;
  if (shift >= 0) return true;
  // (a slice longer than the digits is all of them: then all must be zero)
  return /^0*$/.test(digits.slice(shift));
}
