/** The test kit's callTool, given the tool itself, types its arguments and its structuredContent. */
import type { testClient } from '../../src/testing';
import { expectType, type Equal } from './expect';
import { withZod } from './standard';
import { sum } from './tools';

declare const mcp: ReturnType<typeof testClient>;

export async function calls() {
  const { result } = await mcp.callTool(sum, { a: 1, b: 2 });
  expectType<Equal<typeof result.structuredContent, { [key: string]: unknown; sum: number } | undefined>>();
  // @ts-expect-error b is required
  await mcp.callTool(sum, { a: 1 });
  // @ts-expect-error a is a number
  await mcp.callTool(sum, { a: '1', b: 2 });
  // A Standard Schema's input: what the client sends, before its transforms (days has a default).
  await mcp.callTool(withZod, { city: 'Oslo', when: '2026-12-01' });
  // By name, as before: untyped.
  await mcp.callTool('sum', { anything: true });
}
