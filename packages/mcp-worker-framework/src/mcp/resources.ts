/**
 * Resources and resource templates, compiled once: fixed URIs go in a map, templates
 * become anchored regular expressions (RFC 6570 level 1 `{var}` and reserved `{+var}`).
 */
import type { ResourceDefinition, ResourceTemplateDefinition } from './define';

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

const EXPRESSION = /\{([^}]*)\}/g;
const NAME = /^[A-Za-z0-9_]+$/;

export function compileTemplate(definition: ResourceTemplateDefinition): CompiledTemplate {
  const {
    read: _read,
    complete: _complete,
    cache: _cache,
    requiredScopes: _scopes,
    visibleTo: _visibleTo,
    ...listed
  } = definition;
  const names: string[] = [];
  let source = '';
  let last = 0;
  for (const expression of definition.uriTemplate.matchAll(EXPRESSION)) {
    source += escapeRegExp(definition.uriTemplate.slice(last, expression.index));
    const body = expression[1] ?? '';
    const reserved = body.startsWith('+');
    const name = reserved ? body.slice(1) : body;
    if (!NAME.test(name)) {
      throw new Error(
        `resource template "${definition.uriTemplate}": only {name} and {+name} expressions are supported`,
      );
    }
    names.push(name);
    // {var} stops at URI delimiters; {+var} may span them (RFC 6570 3.2.2, 3.2.3)
    source += reserved ? '(.+?)' : '([^/?#]+)';
    last = expression.index + expression[0].length;
  }
  source += escapeRegExp(definition.uriTemplate.slice(last));
  const pattern = new RegExp(`^${source}$`);
  return {
    definition,
    listed,
    match(uri) {
      const found = pattern.exec(uri);
      if (!found) return undefined;
      const variables: Record<string, string> = {};
      try {
        names.forEach((name, i) => {
          variables[name] = decodeURIComponent(found[i + 1] ?? '');
        });
      } catch {
        return undefined;
      }
      return variables;
    },
  };
}

const escapeRegExp = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
