/** W3C Trace Context, as the caller's trace context is read from `_meta` and the headers (src/mcp/traceContext.ts). */
import { describe, expect, it } from 'vitest';
import { MAX_TRACESTATE_CHARS, readTraceContext } from '../../../src/mcp/traceContext';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;
const parent = (value: unknown) => readTraceContext(value, undefined)?.traceparent;
const state = (value: unknown) => readTraceContext(VALID, value)?.tracestate;

describe('traceparent', () => {
  it('keeps a version 00 value of the grammar as it is', () => {
    expect(parent(VALID)).toBe(VALID);
    expect(parent(`00-${TRACE_ID}-${PARENT_ID}-00`)).toBe(`00-${TRACE_ID}-${PARENT_ID}-00`);
  });

  it('drops anything else: other lengths, uppercase, all-zero ids, version ff, trailing text, other types', () => {
    for (const value of [
      'not-a-traceparent; injected=1',
      '00-abc-def-01',
      VALID.toUpperCase(),
      `00-${'0'.repeat(32)}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
      `ff-${TRACE_ID}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${PARENT_ID}-01-extra`,
      `${VALID}\r\nx-injected: 1`,
      ` ${VALID}`,
      `00_${TRACE_ID}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${PARENT_ID}-0g`,
      `${VALID}, ${VALID}`,
      `0${VALID}`,
      'x'.repeat(1_000_000),
      42,
      null,
      { traceparent: VALID },
    ]) {
      expect(parent(value), String(value).slice(0, 80)).toBeUndefined();
    }
  });

  it('reads a later version by the fields of version 00 and passes it on as version 00', () => {
    expect(parent(`01-${TRACE_ID}-${PARENT_ID}-01`)).toBe(VALID);
    expect(parent(`cc-${TRACE_ID}-${PARENT_ID}-01-what-the-future-will-be-like`)).toBe(VALID);
    // still followed by the end or a dash, and never with a CR/LF
    expect(parent(`cc-${TRACE_ID}-${PARENT_ID}-01.`)).toBeUndefined();
    expect(parent(`cc-${TRACE_ID}-${PARENT_ID}-01-\r\n`)).toBeUndefined();
  });
});

describe('tracestate', () => {
  it('keeps a valid list, without optional whitespace and empty members', () => {
    expect(state('congo=t61rcWkgMzE')).toBe('congo=t61rcWkgMzE');
    expect(state(' rojo=00f067aa0ba902b7 ,\tcongo=t61rcWkgMzE, ,')).toBe('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE');
    expect(state('fw529a3039@dt=a b,1tenant@sys=x')).toBe('fw529a3039@dt=a b,1tenant@sys=x');
    // a value keeps its leading spaces; trailing ones are optional whitespace
    expect(state('congo= lead,rojo=trail  ')).toBe('congo= lead,rojo=trail');
  });

  it('is only read with a valid traceparent', () => {
    expect(readTraceContext('nope', 'congo=t61rcWkgMzE')).toBeUndefined();
    expect(readTraceContext(undefined, 'congo=t61rcWkgMzE')).toBeUndefined();
  });

  it('drops the whole list when a member breaks the grammar, a key repeats or there are more than 32, keeping the traceparent', () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=v`).join(',');
    expect(state(members(32))).toBe(members(32));
    for (const value of [
      'Congo=x',
      'congo',
      'congo=',
      'congo=a,b',
      'congo=a=b',
      'congo=tab\there',
      'congo=line\r\nx-injected: 1',
      'congo=é',
      `congo=${'v'.repeat(257)}`,
      `${'k'.repeat(257)}=v`,
      'congo=a,congo=b',
      members(33),
      '',
      ' , ',
      42,
    ]) {
      expect(state(value), String(value).slice(0, 80)).toBeUndefined();
      expect(readTraceContext(VALID, value)).toEqual({ traceparent: VALID });
    }
  });

  it(`bounds the list to ${MAX_TRACESTATE_CHARS} characters by whole entries: entries over 128 first, then from the end`, () => {
    const long = `big=${'b'.repeat(200)}`;
    const small = Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, '0')}=${'v'.repeat(20)}`);
    const kept = state([small[0], long, ...small.slice(1)].join(','))!;
    expect(kept.length).toBeLessThanOrEqual(MAX_TRACESTATE_CHARS);
    expect(kept).not.toContain('big=');
    expect(small.join(',').startsWith(kept)).toBe(true);
    expect(kept.split(',')).toHaveLength(Math.floor((MAX_TRACESTATE_CHARS + 1) / 25));
    // a list within the bound keeps its long entries
    expect(state(`${long},k=v`)).toBe(`${long},k=v`);
    // 3,000 characters of one member: not a valid value at all
    expect(state(`k=${'v'.repeat(3_000)}`)).toBeUndefined();
  });
});
