/**
 * Resources and resource templates, compiled once: fixed URIs go in a map, templates (RFC 6570
 * level 1 `{var}` and reserved `{+var}`) become scanners that read a URI once, left to right, so a
 * URI a stranger sends to `resources/read` costs work linear in its length (a regular expression
 * backtracks: cubic in the URI's length for `x://{a}-{b}-{c}`). The rule, for authors:
 * docs/server-api.md, "Resources and prompts".
 */
import type { ResourceDefinition, ResourceTemplateDefinition } from './define.js';

export interface CompiledTemplate {
  definition: ResourceTemplateDefinition;
  /** The `ResourceTemplate` object as `resources/templates/list` shows it. */
  listed: object;
  /** The variables of `uri`, or undefined when the URI is not one of this template's. */
  match(uri: string): Record<string, string> | undefined;
}

/** `Resource` as `resources/list` shows it: the definition without its handler. */
export function listedResource({
  read: _read,
  cache: _cache,
  requiredScopes: _scopes,
  visibleTo: _visibleTo,
  ...listed
}: ResourceDefinition): object {
  return listed;
}

/** One `{name}` or `{+name}` of a template and the literal text after it ('' at the template's end). */
interface Expression {
  readonly name: string;
  /** `{+name}` may span URI delimiters (RFC 6570 3.2.3); `{name}` may not (3.2.2). */
  readonly reserved: boolean;
  readonly literal: string;
}

export function compileTemplate(definition: ResourceTemplateDefinition): CompiledTemplate {
  const {
    read: _read,
    complete: _complete,
    cache: _cache,
    requiredScopes: _scopes,
    visibleTo: _visibleTo,
    ...listed
  } = definition;
  const { prefix, expressions } = parseTemplate(definition.uriTemplate);
  return {
    definition,
    listed,
    match(uri) {
      const values = scan(uri, prefix, expressions);
      if (values === undefined) return undefined;
      const variables: Record<string, string> = {};
      try {
        expressions.forEach(({ name }, i) => {
          variables[name] = decodeURIComponent(values[i]!);
        });
      } catch {
        return undefined;
      }
      return variables;
    },
  };
}

const EXPRESSION = /\{([^}]*)\}/g;
const NAME = /^[A-Za-z0-9_]+$/;

/**
 * The template's leading literal and its expressions. Two expressions with no literal between them
 * are refused: a URI could be split between them in as many ways as it has characters, and trying
 * them is the work a stranger's URI must not be able to ask for.
 */
function parseTemplate(uriTemplate: string): { prefix: string; expressions: Expression[] } {
  // literals[i] comes before the i-th expression; the last one closes the template.
  const literals: string[] = [];
  const found: { name: string; reserved: boolean; text: string }[] = [];
  let last = 0;
  for (const expression of uriTemplate.matchAll(EXPRESSION)) {
    const literal = uriTemplate.slice(last, expression.index);
    const body = expression[1] ?? '';
    const reserved = body.startsWith('+');
    const name = reserved ? body.slice(1) : body;
    if (!NAME.test(name)) {
      throw new Error(`resource template "${uriTemplate}": only {name} and {+name} expressions are supported`);
    }
    const before = found.at(-1);
    if (before !== undefined && literal === '') {
      throw new Error(
        `resource template "${uriTemplate}": ${before.text} and ${expression[0]} have no literal between them, ` +
          'so nothing says where one ends; put a separator between them, such as "/" or "-"',
      );
    }
    literals.push(literal);
    found.push({ name, reserved, text: expression[0] });
    last = expression.index + expression[0].length;
  }
  literals.push(uriTemplate.slice(last));
  return {
    prefix: literals[0]!,
    expressions: found.map(({ name, reserved }, i) => ({ name, reserved, literal: literals[i + 1]! })),
  };
}

/**
 * The values of `uri`'s expressions, each of one character or more, or undefined when it does not
 * fit. An expression followed by another ends where the literal between them first occurs: a
 * `{var}` at a URI delimiter or at that literal's first character (the literal must then be there
 * whole), a `{+var}` where the whole literal is. The last takes what lies before the template's
 * closing literal. No boundary is tried twice, so the work is linear in the URI's length: each of
 * its characters is read at most twice, or once per character of the literal a `{+var}` looks for.
 */
function scan(uri: string, prefix: string, expressions: readonly Expression[]): string[] | undefined {
  if (expressions.length === 0) return uri === prefix ? [] : undefined;
  const final = expressions[expressions.length - 1]!;
  const end = uri.length - final.literal.length;
  if (end < prefix.length || !holds(uri, 0, prefix, end) || !holds(uri, end, final.literal)) return undefined;
  const values: string[] = [];
  let at = prefix.length;
  for (const { reserved, literal } of expressions.slice(0, -1)) {
    const stop = reserved ? find(uri, literal, at + 1, end) : simpleEnd(uri, literal, at, end);
    if (stop <= at) return undefined;
    values.push(uri.slice(at, stop));
    at = stop + literal.length;
  }
  if (at >= end) return undefined;
  if (!final.reserved) for (let i = at; i < end; i++) if (isDelimiter(uri.charCodeAt(i))) return undefined;
  values.push(uri.slice(at, end));
  return values;
}

/** Where a `{var}` followed by `literal` ends: at a delimiter or the literal's first character, with the literal there; else -1. */
function simpleEnd(uri: string, literal: string, at: number, end: number): number {
  const first = literal.charCodeAt(0);
  let stop = at;
  while (stop < end) {
    const code = uri.charCodeAt(stop);
    if (code === first || isDelimiter(code)) break;
    stop++;
  }
  return holds(uri, stop, literal, end) ? stop : -1;
}

/** The first index from `from` at which `literal` lies in `uri` wholly before `end`, else -1. */
function find(uri: string, literal: string, from: number, end: number): number {
  for (let i = from; i + literal.length <= end; i++) if (holds(uri, i, literal, end)) return i;
  return -1;
}

/** Whether `uri` has `literal` at `at`, ending by `end`. */
function holds(uri: string, at: number, literal: string, end = uri.length): boolean {
  if (at + literal.length > end) return false;
  for (let i = 0; i < literal.length; i++) if (uri.charCodeAt(at + i) !== literal.charCodeAt(i)) return false;
  return true;
}

/** '/', '?' and '#': where a `{var}` ends (RFC 6570 3.2.2: simple expansion encodes them). */
const isDelimiter = (code: number) => code === 0x2f || code === 0x3f || code === 0x23;
