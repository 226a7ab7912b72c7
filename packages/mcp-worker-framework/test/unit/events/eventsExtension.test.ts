/**
 * The events extension in process (src/events/eventsExtension.ts): what `server/discover` says,
 * `events/list` per caller, the refusals made before any Durable Object is reached, and the
 * author's mistakes refused at load. Delivery runs in workerd: test/events/.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineEventType } from '../../../src/events/defineEventType';
import {
  callbackEndpointError,
  errorData,
  errorOf,
  notFound,
  notPermitted,
  quotaReached,
  rateReached,
  unsupported,
} from '../../../src/events/eventErrors';
import { eventsExtension } from '../../../src/events/eventsExtension';
import { errorAnswer } from '../../../src/http/transport/errorAnswer';
import { createServer, type Caller } from '../../../src/mcp';
import { ErrorCode, type McpError } from '../../../src/mcp/errors';
import { RawJson } from '../../../src/mcp/json';
import { mcpRequest } from '../../support/request';

const opened = defineEventType({
  name: 'door.opened',
  description: 'A door opened',
  inputSchema: { type: 'object', properties: { door: { type: 'string' } } },
  payloadSchema: { type: 'object', properties: { door: { type: 'string' } }, required: ['door'] },
});
const audited = defineEventType({
  name: 'audit.logged',
  description: 'Needs the scope audit',
  requiredScopes: ['audit'],
  inputSchema: z.object({ level: z.enum(['info', 'warn']).optional() }),
  payloadSchema: z.object({ line: z.string() }),
});
const alices = defineEventType({
  name: 'alice.only',
  description: 'Shown to alice',
  visibleTo: (caller) => caller?.subject === 'alice',
  inputSchema: { type: 'object' },
  payloadSchema: { type: 'object' },
});

const info = { name: 'events-unit', version: '1.0.0' };
const on = createServer({ info }, [eventsExtension({ types: [opened, audited, alices] }).extension]);
const off = createServer({ info });
const as = (subject: string, scopes: string[] = []): Caller => ({ subject, kind: 'person', scopes, claims: {} });

async function ask(server: typeof on, method: string, params: Record<string, unknown> = {}, caller?: Caller) {
  const reply = await server.handle(mcpRequest({ jsonrpc: '2.0', id: 1, method, params }, undefined, { caller }));
  if (reply.error) return { error: reply.error };
  const result = reply.result instanceof RawJson ? JSON.parse(reply.result.json) : reply.result;
  return { result };
}

describe('the events extension in the core', () => {
  it('advertises events as a top-level capability object only when it is on, and not among the extensions', async () => {
    const { result } = await ask(on, 'server/discover');
    expect(result.capabilities.events).toEqual({});
    expect(result.capabilities.extensions?.events).toBeUndefined();
    expect((await ask(off, 'server/discover')).result.capabilities.events).toBeUndefined();
    expect((await ask(off, 'events/list')).error?.code).toBe(ErrorCode.MethodNotFound);
  });

  it('lists each type a caller may use with a non-empty delivery for that caller and both schemas', async () => {
    const anonymous = (await ask(on, 'events/list')).result.events;
    expect(anonymous.map((e: { name: string }) => e.name)).toEqual(['door.opened']);
    expect(anonymous[0]).toEqual({
      name: 'door.opened',
      description: 'A door opened',
      delivery: ['poll', 'push'],
      inputSchema: opened.inputSchema,
      payloadSchema: opened.payloadSchema,
    });
    const alice = (await ask(on, 'events/list', {}, as('alice', ['audit']))).result.events;
    expect(alice.map((e: { name: string }) => e.name)).toEqual(['door.opened', 'audit.logged', 'alice.only']);
    for (const entry of alice) {
      expect(entry.delivery).toEqual(['poll', 'push', 'webhook']);
      expect(entry.inputSchema.type).toBe('object');
      expect(entry.payloadSchema.type).toBe('object');
    }
    // A Standard Schema is listed as its JSON Schema.
    expect(alice[1].payloadSchema.properties.line).toEqual({ type: 'string' });
    const bob = (await ask(on, 'events/list', {}, as('bob'))).result.events;
    expect(bob.map((e: { name: string }) => e.name)).toEqual(['door.opened']);
  });

  it('refuses a webhook subscribe without a principal with -32012, a 403', async () => {
    const { error } = await ask(on, 'events/subscribe', {
      name: 'door.opened',
      delivery: { url: 'https://hooks.example.com/a', secret: `whsec_${btoa('k'.repeat(32))}` },
    });
    expect(error?.code).toBe(-32012);
    expect(
      errorAnswer(error as McpError, false, { challenge: () => ({ metadata: undefined, scopesToAsk: [] }) }).status,
    ).toBe(403);
  });

  it('answers the sketch’s codes with their statuses, none a 5xx: a quota a retry cannot pass is a 400, a rate a 429 with Retry-After', () => {
    const answer = (error: McpError) =>
      errorAnswer(error, false, { challenge: () => ({ metadata: undefined, scopesToAsk: [] }) });
    expect(answer(notFound('event', 'x')).status).toBe(400);
    expect(answer(notPermitted('x')).status).toBe(403);
    expect(answer(quotaReached('subscriptions', 4, 'x'))).toEqual({ status: 400 });
    expect(answer(rateReached('verificationsPerHost', 10, 'x', 42))).toEqual({
      status: 429,
      headers: { 'Retry-After': '42' },
    });
    expect(answer(unsupported('deliveryMode', 'push', 'x')).status).toBe(400);
    expect(answer(callbackEndpointError('timeout')).status).toBe(400);
    // Across RPC (a principal's object answers as plain data), the same error and the same answer.
    const rate = rateReached('verificationsPerHost', 10, 'x', 7);
    expect(errorOf(JSON.parse(JSON.stringify(errorData(rate))))).toEqual(rate);
  });

  it('refuses at load a name twice, a name that is none, an inputSchema that is no object schema, and no types at all', () => {
    expect(() => eventsExtension({ types: [opened, opened] })).toThrow(/listed twice/);
    expect(() => eventsExtension({ types: [{ ...opened, name: 'a b' }] })).toThrow(/1 to 128 letters/);
    expect(() => eventsExtension({ types: [{ ...opened, inputSchema: { type: 'string' } }] })).toThrow(/object schema/);
    expect(() => eventsExtension({ types: [] })).toThrow(/list the event types/);
  });
});
