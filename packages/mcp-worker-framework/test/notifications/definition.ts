/**
 * The notifications fixture's server: resources a caller may or may not read, a template, a
 * prompt (so every list kind is served), and the tools that notify: `touch` a URI, `change` a list.
 */
import { definePrompt, defineResource, defineResourceTemplate, defineTool, text } from '../../src/mcp';
import { notify } from '../../src/notifications/notify';

/** The hub's shards in the fixture: a change reaches both. */
export const SHARDS = 2;

const contents = (uri: string) => ({ contents: [{ uri, text: uri }] });

export const OPEN = 'test://docs/open';
/** Needs the scope `docs:secret`. */
export const SECRET = 'test://docs/secret';
/** Shown to alice only (`visibleTo`). */
export const ALICES = 'test://docs/alice';
export const item = (id: string) => `test://items/${id}`;
/** Shown while the fixture's `shown` is true, which the tool `show` sets: a rule that reads something that changes. */
export const FLAGGED = 'test://docs/flagged';
let shown = true;

export const definition = {
  info: { name: 'notifications-fixture', version: '1.0.0' },
  resources: [
    defineResource({ uri: OPEN, name: 'open', read: () => contents(OPEN) }),
    defineResource({ uri: SECRET, name: 'secret', requiredScopes: ['docs:secret'], read: () => contents(SECRET) }),
    defineResource({ uri: FLAGGED, name: 'flagged', visibleTo: () => shown, read: () => contents(FLAGGED) }),
    defineResource({
      uri: ALICES,
      name: 'alices',
      visibleTo: (caller) => caller?.subject === 'alice',
      read: () => contents(ALICES),
    }),
  ],
  resourceTemplates: [
    defineResourceTemplate({ uriTemplate: 'test://items/{id}', name: 'item', read: (uri) => contents(uri) }),
  ],
  prompts: [definePrompt({ name: 'hello', description: 'Says hello', get: () => ({ messages: [] }) })],
  tools: [
    defineTool({
      name: 'touch',
      description: 'Tells the listeners of `uri` that it changed',
      inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
      async handler({ uri }, { env }) {
        await notify(env, { resourceUpdated: uri });
        return text(`touched ${uri}`);
      },
    }),
    defineTool({
      name: 'show',
      description: 'Shows or hides the flagged document (its rule reads what this sets)',
      inputSchema: { type: 'object', properties: { shown: { type: 'boolean' } }, required: ['shown'] },
      handler: ({ shown: now }) => {
        shown = now;
        return text(`shown: ${String(now)}`);
      },
    }),
    defineTool({
      name: 'change',
      description: 'Tells the listeners of a list that it changed',
      inputSchema: {
        type: 'object',
        properties: { list: { enum: ['tools', 'prompts', 'resources'] } },
        required: ['list'],
      },
      async handler({ list }, { env }) {
        await notify(env, { listChanged: list });
        return text(`changed ${list}`);
      },
    }),
  ],
};
