/** A task's record and its status transitions (src/tasks/taskRecord.ts), as pure data. */
import { describe, expect, it } from 'vitest';
import { elicit } from '../../../src/mcp/input';
import {
  allAnswered,
  askForInput,
  detailed,
  takeAnswers,
  transition,
  type TaskRecord,
} from '../../../src/tasks/taskRecord';

const form = elicit('Sure?', { type: 'object', properties: { ok: { type: 'boolean' } } });
const yes = { action: 'accept', content: { ok: true } };

function record(): TaskRecord {
  const at = '2026-07-28T00:00:00.000Z';
  return {
    task: { taskId: 't', status: 'working', createdAt: at, lastUpdatedAt: at, ttlMs: 60_000, pollIntervalMs: 1000 },
    principal: null,
    tool: 'x',
    args: {},
    client: { protocolVersion: '2026-07-28', clientCapabilities: {} },
    answers: {},
    round: 0,
  };
}

describe('task record', () => {
  it('inlines exactly what the status carries', () => {
    const r = record();
    expect(Object.keys(detailed(r)).sort()).toEqual([
      'createdAt',
      'lastUpdatedAt',
      'pollIntervalMs',
      'status',
      'taskId',
      'ttlMs',
    ]);
    r.result = { content: [] };
    transition(r, 'completed');
    expect(detailed(r)).toMatchObject({ status: 'completed', result: { content: [] } });
    expect(detailed(r)).not.toHaveProperty('error');
  });

  it('keys each round of input requests afresh, so no key is used twice', () => {
    const r = record();
    askForInput(r, { ok: form, name: form }, { step: 1 });
    expect(Object.keys(detailed(r).inputRequests!)).toEqual(['ok@1', 'name@1']);
    takeAnswers(r, { 'ok@1': yes, 'name@1': yes });
    askForInput(r, { ok: form }, { step: 2 });
    expect(Object.keys(detailed(r).inputRequests!)).toEqual(['ok@2']);
    expect(r.state).toEqual({ step: 2 });
    expect(r.answers).toEqual({});
  });

  it('takes answers only for outstanding keys, under the handler own keys, and knows when the round is complete', () => {
    const r = record();
    askForInput(r, { ok: form, name: form }, undefined);
    expect(takeAnswers(r, { ok: yes, 'ok@2': yes })).toBe(false);
    expect(takeAnswers(r, { 'ok@1': yes })).toBe(true);
    expect(allAnswered(r)).toBe(false);
    expect(Object.keys(detailed(r).inputRequests!)).toEqual(['name@1']);
    expect(takeAnswers(r, { 'ok@1': { action: 'decline' } })).toBe(false);
    takeAnswers(r, { 'name@1': yes });
    expect(allAnswered(r)).toBe(true);
    expect(r.answers).toEqual({ ok: yes, name: yes });
  });

  it('drops outstanding requests when the task leaves input_required', () => {
    const r = record();
    askForInput(r, { ok: form }, undefined);
    transition(r, 'cancelled', 'Cancelled by the client');
    expect(detailed(r)).toEqual(expect.not.objectContaining({ inputRequests: expect.anything() }));
    expect(r.task.statusMessage).toBe('Cancelled by the client');
  });
});
