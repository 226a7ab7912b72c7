/** Topics (src/notifications/change.ts): what a coordinator takes, and the notification a listener makes of one. */
import { describe, expect, it } from 'vitest';
import { isTopic, notificationOf } from '../../../src/notifications/change';
import { readListener } from '../../../src/notifications/hubListener';
import { NOTIFICATION_LIMITS } from '../../../src/notifications/notificationLimits';

describe('topics', () => {
  it('takes the topics notify makes, and nothing else', () => {
    expect(['list:tools', 'list:prompts', 'list:resources', 'resource:test://a'].every(isTopic)).toBe(true);
    expect(
      ['list:roots', 'resource:', `resource:${'x'.repeat(NOTIFICATION_LIMITS.uriChars + 1)}`, 'tools', 7, null].some(
        isTopic,
      ),
    ).toBe(false);
  });

  it('turns a topic into the spec notification, without a subscription id (each stream adds its own)', () => {
    expect(notificationOf('resource:test://a')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'test://a' },
    });
    expect(notificationOf('list:prompts')).toEqual({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
    expect(notificationOf('list:roots')).toBeUndefined();
  });
});

describe('readListener (what a shard accepts a socket for)', () => {
  const url = (query: string) => new URL(`https://hub.invalid/listen?${query}`);

  it('reads the lists and keys, once each', () => {
    expect(readListener(url('lists=tools,tools&keys=0123abcd,0123abcd'))).toEqual({
      lists: ['tools'],
      keys: ['0123abcd'],
    });
  });

  it('refuses unknown lists, malformed or too many keys, and a listener of nothing', () => {
    const many = Array.from({ length: NOTIFICATION_LIMITS.urisPerStream + 1 }, (_, i) =>
      i.toString(16).padStart(8, '0'),
    );
    for (const query of ['lists=roots', 'keys=XYZ', `keys=${many.join(',')}`, 'lists=&keys='])
      expect(typeof readListener(url(query))).toBe('string');
  });
});
