/** Sealed requestState: AES-GCM with the request's identity as additional data. */
import { describe, expect, it } from 'vitest';
import { McpError } from '../../../src/mcp/errors';
import {
  canonicalJson,
  MAX_REQUEST_STATE_CHARS,
  openState,
  sealState,
  type StateBinding,
} from '../../../src/mcp/state';

const binding: StateBinding = {
  method: 'tools/call',
  salient: { name: 'wizard', arguments: { a: 1, b: [2, 3] } },
  principal: 'user-1',
};

describe('requestState', () => {
  it('opens what it sealed, whatever the key order of the parameters', async () => {
    const sealed = await sealState('secret', binding, { step: 2, name: 'Ada' }, 60_000);
    const reordered = { ...binding, salient: { arguments: { b: [2, 3], a: 1 }, name: 'wizard' } };
    expect(await openState('secret', reordered, sealed)).toEqual({ step: 2, name: 'Ada' });
  });

  it.each([
    ['another secret', { secret: 'other' }],
    ['another method', { binding: { ...binding, method: 'prompts/get' } }],
    ['other arguments', { binding: { ...binding, salient: { name: 'wizard', arguments: { a: 2, b: [2, 3] } } } }],
    ['another principal', { binding: { ...binding, principal: 'user-2' } }],
    ['no principal', { binding: { ...binding, principal: undefined } }],
    ['a later time than the expiry', { now: Date.now() + 61_000 }],
  ] as [string, { secret?: string; binding?: StateBinding; now?: number }][])(
    'refuses it under %s',
    async (_, change: { secret?: string; binding?: StateBinding; now?: number }) => {
      const sealed = await sealState('secret', binding, 'x', 60_000);
      expect(await openState(change.secret ?? 'secret', change.binding ?? binding, sealed, change.now)).toBeInstanceOf(
        McpError,
      );
    },
  );

  it.each([
    ['a number', 42],
    ['an empty string', ''],
    ['non-base64url text', 'hello world!'],
    ['too short', 'AAAA'],
    ['too long', 'A'.repeat(MAX_REQUEST_STATE_CHARS + 1)],
  ])('refuses %s with -32602', async (_, value) => {
    const opened = await openState('secret', binding, value);
    expect(opened).toBeInstanceOf(McpError);
    expect((opened as McpError).code).toBe(-32602);
  });

  it('uses a fresh IV each time', async () => {
    expect(await sealState('s', binding, 1, 1000)).not.toBe(await sealState('s', binding, 1, 1000));
  });

  it('canonicalises JSON with sorted keys', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":1,"z":0}]},"b":1}',
    );
  });
});
