/** Scope hierarchies (src/mcp/scopes.ts; spec 2026-07-28 basic/authorization, Step-Up Authorization Flow). */
import { describe, expect, it } from 'vitest';
import { createServer } from '../../../src/mcp';
import { compileScopeHierarchy } from '../../../src/mcp/scopes';

const hierarchy = compileScopeHierarchy({ admin: ['repo'], repo: ['repo:read', 'repo:write'] });

describe('scopeHierarchy', () => {
  it("grants what a scope implies, transitively, after the token's own scopes", () => {
    expect(hierarchy.grants(['admin'])).toEqual(['admin', 'repo', 'repo:read', 'repo:write']);
    expect(hierarchy.grants(['repo:read', 'repo'])).toEqual(['repo:read', 'repo', 'repo:write']);
  });

  it('hands back the same array when the scopes imply nothing more, and with no hierarchy at all', () => {
    const narrow = ['repo:read', 'other'];
    expect(hierarchy.grants(narrow)).toBe(narrow);
    expect(compileScopeHierarchy(undefined).grants(narrow)).toBe(narrow);
  });

  it('asks for each need once: drops the missing scopes another missing one implies', () => {
    expect(hierarchy.broadest(['repo:read', 'repo', 'other'])).toEqual(['repo', 'other']);
    expect(hierarchy.broadest(['repo:read', 'repo:write'])).toEqual(['repo:read', 'repo:write']);
  });

  it('keeps both of two scopes that imply each other', () => {
    const cycle = compileScopeHierarchy({ a: ['b'], b: ['a'] });
    expect(cycle.grants(['a'])).toEqual(['a', 'b']);
    expect(cycle.broadest(['a', 'b'])).toEqual(['a', 'b']);
  });

  it.each([
    [{ repo: 'repo:read' }, /must be a list/],
    [{ repo: ['repo read'] }, /"repo read" is not a scope/],
    [{ 'a"b': ['c'] }, /is not a scope/],
  ])('refuses a malformed hierarchy at load: %j', (scopeHierarchy, message) => {
    expect(() => createServer({ info: { name: 'x', version: '1' }, scopeHierarchy: scopeHierarchy as never })).toThrow(
      message,
    );
  });
});
