/**
 * Tools with a view (MCP Apps, node_modules/mcp-worker-framework/docs/apps.md): `world_clock` tells the time in several zones, as
 * text for any client and as data for the view `ui://world-clock/view`, which a host that renders
 * views shows as a chart of each zone's day. `world_clock_refresh` is the view's own button:
 * `visibility: ["app"]`, so a host keeps it from the model and only the view calls it.
 */
import { defineTool, ToolError, type FromSchema, type StructuredResult } from 'mcp-worker-framework';
import { worldClockView } from '../resources/world-clock-view';

const DEFAULT_ZONES = [
  'America/Los_Angeles',
  'America/New_York',
  'Europe/London',
  'Europe/Paris',
  'Asia/Kolkata',
  'Asia/Tokyo',
  'Australia/Sydney',
];
const MAX_ZONES = 12;

const inputSchema = {
  type: 'object',
  properties: {
    zones: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 64 },
      minItems: 1,
      maxItems: MAX_ZONES,
      description: `IANA time zone names, e.g. "Europe/Paris" (default: ${DEFAULT_ZONES.length} zones around the world)`,
    },
  },
  additionalProperties: false,
} as const; // declared outside defineTool: `as const` keeps its literals, which type the handler's args

const outputSchema = {
  type: 'object',
  properties: {
    at: { type: 'string', description: 'The instant shown, ISO 8601 in UTC' },
    zones: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          zone: { type: 'string' },
          place: { type: 'string' },
          time: { type: 'string', description: 'HH:MM, 24-hour' },
          day: { type: 'string', description: 'Weekday, short' },
          hour: { type: 'number', description: 'Hours since local midnight, 0 to 24' },
          offset: { type: 'string', description: 'e.g. GMT+9' },
        },
        required: ['zone', 'place', 'time', 'day', 'hour', 'offset'],
      },
    },
  },
  required: ['at', 'zones'],
} as const;

/** What the handler returns, typed by `outputSchema`: written once, there. */
type WorldClockResult = StructuredResult<FromSchema<typeof outputSchema>>;
type ZoneTime = WorldClockResult['structuredContent']['zones'][number];

/** The time in each zone at `now`; an unknown zone is a tool error the model can correct. */
export function worldClock(zones: readonly string[] = DEFAULT_ZONES, now = new Date()): WorldClockResult {
  const times = zones.map((zone): ZoneTime => {
    let parts: Intl.DateTimeFormatPart[];
    try {
      parts = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        weekday: 'short',
        timeZoneName: 'shortOffset',
      }).formatToParts(now);
    } catch {
      throw new ToolError(`Unknown time zone "${zone}"; use IANA names such as "Asia/Tokyo".`);
    }
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
    const [hours, minutes] = [Number(part('hour')), Number(part('minute'))];
    const place = (zone.split('/').pop() ?? zone).replaceAll('_', ' ');
    return {
      zone,
      place,
      time: `${part('hour')}:${part('minute')}`,
      day: part('weekday'),
      hour: hours + minutes / 60,
      offset: part('timeZoneName'),
    };
  });
  const at = now.toISOString();
  // spec extensions/apps, Graceful Degradation: meaningful text for a client that shows no view.
  const lines = times.map((t) => `${t.place}: ${t.time} ${t.day} (${t.offset})`);
  return {
    content: [{ type: 'text', text: `At ${at.slice(11, 16)} UTC:\n${lines.join('\n')}` }],
    structuredContent: { at, zones: times },
  };
}

export const worldClockTool = defineTool({
  name: 'world_clock',
  title: 'World clock',
  description:
    'Shows the current time in several time zones at once, e.g. to find an hour that suits people in different places.',
  inputSchema,
  outputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  ui: { resourceUri: worldClockView.uri },
  handler: ({ zones }) => worldClock(zones),
});

export const worldClockRefresh = defineTool({
  name: 'world_clock_refresh',
  title: 'Refresh the world clock',
  description: "The world clock view's refresh button: the same answer as world_clock, now.",
  inputSchema,
  outputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  ui: { resourceUri: worldClockView.uri, visibility: ['app'] },
  handler: ({ zones }) => worldClock(zones),
});
