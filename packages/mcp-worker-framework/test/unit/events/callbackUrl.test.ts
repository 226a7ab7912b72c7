/** Which callback URLs a webhook subscription may name (src/events/callbackUrl.ts; spec extensions/events, Webhook Security). */
import { describe, expect, it } from 'vitest';
import { callbackRefusal } from '../../../src/events/callbackUrl';

const refused = (url: string, loopback = false) => callbackRefusal(url, 2048, loopback) !== undefined;

describe('callback URLs', () => {
  it('takes https at a host name or a global address, its query string kept as part of the URL', () => {
    for (const url of ['https://hooks.example.com/a?tenant=1', 'https://8.8.8.8/x', 'https://[2606:4700::1111]/x'])
      expect(refused(url), url).toBe(false);
  });

  it('refuses http, credentials, and IP literals outside the global ranges (IANA special-purpose registries)', () => {
    for (const url of [
      'http://hooks.example.com/a',
      'https://u:p@hooks.example.com/',
      'https://127.0.0.1/',
      'https://localhost/',
      'https://10.1.2.3/',
      'https://100.64.0.1/',
      'https://172.20.0.1/',
      'https://192.168.0.1/',
      'https://169.254.169.254/',
      'https://0x7f000001/',
      'https://[::1]/',
      'https://[fe80::1]/',
      'https://[fc00::1]/',
      'https://[2001:db8::1]/',
      'https://[::ffff:127.0.0.1]/',
      `https://example.com/${'a'.repeat(2048)}`,
    ])
      expect(refused(url), url).toBe(true);
  });

  it('takes http on loopback only with the local-development setting, and still nothing private', () => {
    expect(refused('http://127.0.0.1:8850/hook')).toBe(true);
    expect(refused('http://127.0.0.1:8850/hook', true)).toBe(false);
    expect(refused('http://localhost:8850/hook', true)).toBe(false);
    expect(refused('http://10.0.0.1/hook', true)).toBe(true);
    expect(refused('https://192.168.0.1/hook', true)).toBe(true);
  });
});
