/** The path of a request URL, read without building a URL object. */
import { describe, expect, it } from 'vitest';
import { pathOf } from '../../../../src/http/transport/url';

describe('pathOf', () => {
  it.each([
    ['http://localhost:8787/mcp', '/mcp'],
    ['https://a.example.com/mcp?x=1', '/mcp'],
    ['https://a.example.com/mcp#frag', '/mcp'],
    ['https://a.example.com/mcp/extra', '/mcp/extra'],
    ['https://a.example.com', '/'],
    ['http://[::1]:8787/mcp', '/mcp'],
  ])('reads %s as %s', (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});
