/**
 * The events fixture's server: three event types (one filtered and shaped per subscription, one
 * that needs a scope, one whose rule reads a flag a tool flips, so access can be revoked) and the
 * tools that emit them or flip the flag.
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

export const types = [incidentCreated, secretChanged, flagged];

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
