/**
 * Resources: a fixed one (the list of time zones, the same for everyone, cacheable for a
 * day) and a template (the time now in any zone: immediately stale) whose variable the
 * client can complete.
 */
import { defineResource, defineResourceTemplate } from 'mcp-worker-framework';

// Asked of the runtime on first use, not at module load: the list costs a cold start milliseconds
// that only a read or a completion of these resources needs (node_modules/mcp-worker-framework/docs/performance.md).
let known: readonly string[] | undefined;
const zones = (): readonly string[] => (known ??= Intl.supportedValuesOf('timeZone'));

export const timeZones = defineResource({
  uri: 'time://zones',
  name: 'time-zones',
  title: 'Time zones',
  description: 'Every IANA time zone name this server knows, one per line.',
  mimeType: 'text/plain',
  cache: { ttlMs: 86_400_000, cacheScope: 'public' },
  read: () => ({ contents: [{ uri: 'time://zones', mimeType: 'text/plain', text: zones().join('\n') }] }),
});

export const timeInZone = defineResourceTemplate({
  uriTemplate: 'time://now/{+zone}',
  name: 'time-in-zone',
  title: 'Time in a zone',
  description: 'The current date and time in an IANA time zone, e.g. time://now/Europe/Paris.',
  mimeType: 'text/plain',
  cache: { ttlMs: 0, cacheScope: 'public' },
  read(uri, { zone = '' }) {
    if (!zones().includes(zone)) return undefined; // not one of ours: -32602 resource not found
    const now = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'full', timeStyle: 'long' }).format(
      new Date(),
    );
    return { contents: [{ uri, mimeType: 'text/plain', text: now }] };
  },
  complete: {
    zone: (typed) => zones().filter((zone) => zone.toLowerCase().startsWith(typed.toLowerCase())),
  },
});
