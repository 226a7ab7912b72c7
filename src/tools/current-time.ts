/**
 * A tool whose `timezone` parameter is mirrored into the `Mcp-Param-Timezone` header
 * (spec 2026-07-28 server/tools, x-mcp-header), so a gateway can route or log on it
 * without reading the body. The server checks that header and body agree.
 */
import { defineTool, ToolError } from '../mcp';

export const currentTime = defineTool<{ timezone: string }>({
  name: 'current_time',
  title: 'Current time',
  description: 'Returns the current date and time in an IANA time zone such as "Europe/Paris".',
  inputSchema: {
    type: 'object',
    properties: {
      timezone: { type: 'string', description: 'IANA time zone name', 'x-mcp-header': 'Timezone' },
    },
    required: ['timezone'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler({ timezone }) {
    let formatted: string;
    try {
      formatted = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'long' }).format(new Date());
    } catch {
      throw new ToolError(`Unknown time zone "${timezone}"; use an IANA name such as "America/New_York".`);
    }
    return { content: [{ type: 'text', text: formatted }] };
  },
});
