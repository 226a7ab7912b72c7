/**
 * A tool whose `timezone` parameter is mirrored into the `Mcp-Param-Timezone` header
 * (spec 2026-07-28 server/tools, x-mcp-header), so a gateway can route or log on it
 * without reading the body; the server checks that header and body agree.
 * Without a timezone it asks the user for one (a multi round-trip request) when the
 * client can show a form, and falls back to UTC when it cannot.
 */
import { accepted, defineTool, elicit, inputRequired, text, ToolError } from 'mcp-worker-framework';

const askForZone = elicit('Which time zone do you want the time in?', {
  type: 'object',
  properties: { timezone: { type: 'string', description: 'IANA name, e.g. Europe/Paris' } },
  required: ['timezone'],
});

export const currentTime = defineTool({
  name: 'current_time',
  title: 'Current time',
  description:
    'Returns the current date and time in an IANA time zone such as "Europe/Paris"; asks the user when none is given.',
  inputSchema: {
    type: 'object',
    properties: {
      timezone: { type: 'string', description: 'IANA time zone name', 'x-mcp-header': 'Timezone' },
    },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler({ timezone }, { can, inputResponses }) {
    const answered = accepted(inputResponses.timezone)?.timezone;
    const zone = timezone ?? (typeof answered === 'string' ? answered : undefined);
    if (zone === undefined && can('elicitation.form')) return inputRequired({ timezone: askForZone });
    let formatted: string;
    try {
      formatted = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone ?? 'UTC',
        dateStyle: 'full',
        timeStyle: 'long',
      }).format(new Date());
    } catch {
      throw new ToolError(`Unknown time zone "${zone}"; use an IANA name such as "America/New_York".`);
    }
    return text(formatted);
  },
});
