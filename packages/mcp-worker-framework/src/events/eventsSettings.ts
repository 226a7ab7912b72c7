/**
 * The events extension's setting, brought by the extension as an auth mode brings its own (the
 * core's table, src/http/settings/settingsTable.ts, stays without it): a Worker without events neither
 * carries nor reads it. `npm run settings` writes it into the README's table with the core's.
 */
import { oneOf, type SettingDocs, setting } from '../http/settings/settingsTable.js';

export const settings = {
  EVENTS_LOOPBACK_CALLBACKS: setting({ default: 'off', accepts: '`on` or `off`', parse: oneOf('on', 'off') }),
};

export const docs: SettingDocs<typeof settings> = {
  EVENTS_LOOPBACK_CALLBACKS: {
    doc: 'Local development only: MCP Events webhook subscriptions may call back to `http` on loopback (`localhost`, `127.0.0.1`). Set it in `.dev.vars`; `npm run check` refuses it in `wrangler.toml` ([docs/events.md](docs/events.md)).',
  },
};

declare module '../mcp/env.js' {
  interface FrameworkEnv extends Partial<Record<keyof typeof settings, string>> {}
}
