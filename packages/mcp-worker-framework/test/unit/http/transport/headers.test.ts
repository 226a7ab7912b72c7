/** Header values encoded by the spec's rule (streamable-http, Value Encoding). */
import { describe, expect, it } from 'vitest';
import { decodeHeaderValue } from '../../../../src/http/transport/headers';

describe('decodeHeaderValue', () => {
  // The spec's own examples (streamable-http, Value Encoding).
  it.each([
    ['us-west1', 'us-west1'],
    ['=?base64?SGVsbG8sIOS4lueVjA==?=', 'Hello, 世界'],
    ['=?base64?IHBhZGRlZCA=?=', ' padded '],
    ['=?base64?bGluZTEKbGluZTI=?=', 'line1\nline2'],
    ['=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=', '=?base64?literal?='],
  ])('decodes %s', (raw, value) => {
    expect(decodeHeaderValue(raw)).toBe(value);
  });

  it.each(['=?base64?abc?=', '=?base64?!!!!?=', '=?base64?/w==?='])('rejects the broken encoding %s', (raw) => {
    expect(decodeHeaderValue(raw)).toBeUndefined();
  });

  it('leaves a value with the wrong-case marker as plain text', () => {
    expect(decodeHeaderValue('=?BASE64?YQ==?=')).toBe('=?BASE64?YQ==?=');
  });
});
