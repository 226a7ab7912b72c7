/**
 * The events fixture's server: four event types (one filtered and shaped per subscription, one
 * that needs a scope, one whose rule reads a flag a tool flips, so access can be revoked, one read
 * from an upstream history by `check`) and the tools that emit them, add to the history or flip
 * the flag.
 */
import { defineEventType } from '../../src/events/defineEventType';
import { emit } from '../../src/events/emit';
import { defineTool, text, ToolError } from '../../src/mcp';

export const incidentCreated = defineEventType({
  name: 'incident.created',
  description: 'A new incident',
  inputSchema: {
    type: 'object',
    properties: {
      severity: { enum: ['P1', 'P2', 'P3'] },
      redact: { type: 'boolean' },
      note: { type: 'string' },
    },
    additionalProperties: false,
  },
  payloadSchema: {
    type: 'object',
    properties: {
      incidentId: { type: 'string' },
      severity: { enum: ['P1', 'P2', 'P3'] },
      reporter: { type: 'string' },
      padding: { type: 'string' },
    },
    required: ['incidentId', 'severity'],
  },
  match: (event, args) => args.severity === undefined || event.data.severity === args.severity,
  transform: (event, args) => (args.redact ? { ...event, data: { ...event.data, reporter: 'redacted' } } : event),
});

export const secretChanged = defineEventType({
  name: 'secret.changed',
  description: 'Needs the scope events:secret',
  requiredScopes: ['events:secret'],
  inputSchema: { type: 'object' },
  payloadSchema: { type: 'object', properties: { id: { type: 'string' } } },
});

/** Shown while `shown` is true (the tool `show` sets it): revoking it ends the subscriptions to it. */
let shown = true;
export const flagged = defineEventType({
  name: 'flagged',
  description: 'Visible while the flag is up',
  visibleTo: () => shown,
  inputSchema: { type: 'object' },
  payloadSchema: { type: 'object', properties: { n: { type: 'number' } } },
});

/** The upstream of ticket.updated: a history with positions, as an API with a change feed has (the tool `ticket` adds to it). */
const tickets: { id: string; title: string }[] = [];
export const ticketUpdated = defineEventType({
  name: 'ticket.updated',
  description: 'A ticket changed: read from the upstream history by check',
  inputSchema: { type: 'object', properties: { prefix: { type: 'string' } } },
  payloadSchema: {
    type: 'object',
    properties: { id: { type: 'string' }, title: { type: 'string' } },
    required: ['id', 'title'],
  },
  check: (cursor, args) => {
    if (cursor === null) return { events: [], cursor: String(tickets.length) };
    const from = Number(cursor);
    if (!Number.isSafeInteger(from) || from < 0 || from > tickets.length)
      throw new Error('no such place in the history');
    const events = tickets
      .slice(from)
      .filter((ticket) => args.prefix === undefined || ticket.id.startsWith(args.prefix))
      .map((ticket) => ({ eventId: `ticket-${ticket.id}`, data: ticket }));
    return { events, cursor: String(tickets.length) };
  },
});

export const types = [incidentCreated, secretChanged, flagged, ticketUpdated];

export const definition = {
  info: { name: 'events-fixture', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'raise',
      description: 'Emits incident.created',
      inputSchema: {
        type: 'object',
        properties: {
          incidentId: { type: 'string' },
          severity: { enum: ['P1', 'P2', 'P3'] },
          reporter: { type: 'string' },
          paddingBytes: { type: 'integer' },
        },
        required: ['incidentId', 'severity'],
      },
      async handler({ incidentId, severity, reporter, paddingBytes }, { env }) {
        const data = {
          incidentId,
          severity,
          ...(reporter ? { reporter } : {}),
          ...(paddingBytes ? { padding: 'x'.repeat(paddingBytes) } : {}),
        };
        try {
          return text(await emit(env, { name: 'incident.created', eventId: `inc-${incidentId}`, data }));
        } catch (error) {
          // A refused event is the caller's to fix: the model reads why.
          if (error instanceof TypeError) throw new ToolError(error.message);
          throw error;
        }
      },
    }),
    defineTool({
      name: 'flag',
      description: 'Emits flagged',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      async handler({ n }, { env }) {
        return text(await emit(env, { name: 'flagged', data: { n } }));
      },
    }),
    defineTool({
      name: 'ticket',
      description: 'Adds a ticket to the upstream history of ticket.updated, and emits it unless quiet',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string' }, title: { type: 'string' }, quiet: { type: 'boolean' } },
        required: ['id', 'title'],
      },
      async handler({ id, title, quiet }, { env }) {
        tickets.push({ id, title });
        // The upstream's webhook, when it has one: polls and streams waiting on the type ask check at once.
        if (!quiet) await emit(env, { name: 'ticket.updated', eventId: `ticket-${id}`, data: { id, title } });
        return text(String(tickets.length));
      },
    }),
    defineTool({
      name: 'show',
      description: 'Shows or hides the event type flagged',
      inputSchema: { type: 'object', properties: { shown: { type: 'boolean' } }, required: ['shown'] },
      handler: ({ shown: now }) => {
        shown = now;
        return text(`shown: ${String(now)}`);
      },
    }),
  ],
};
