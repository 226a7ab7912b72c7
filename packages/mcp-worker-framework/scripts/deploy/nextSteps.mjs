/**
 * What `npm run deploy` (scripts/deploy.mjs) prints after `wrangler deploy`: the MCP endpoint,
 * read from wrangler's own summary of where the Worker now answers, and what to do next.
 * Plain functions of wrangler's output, so they are tested on captured samples, offline.
 */

/** The path the router serves MCP at (src/http/router.ts, MCP_PATH). */
const MCP_PATH = '/mcp';

/**
 * The MCP endpoints of a deploy, from wrangler's lines after "Deployed <name> triggers": a
 * workers.dev URL, a custom domain ("mcp.example.com (custom domain)"), or a route whose
 * pattern covers /mcp ("example.com/mcp* (zone name: example.com)"). Cron schedules, queues and
 * routes on a wildcard host or another path lead to no URL.
 */
export function endpointsOf(output) {
  const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split(/\r?\n/);
  const start = lines.findIndex((line) => /^Deployed \S+ triggers\b/.test(line.trim()));
  if (start === -1) return [];
  const endpoints = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+\S/.test(line)) break;
    const target = line.trim();
    const endpoint = workersDev(target) ?? customDomain(target) ?? route(target);
    if (endpoint && !endpoints.includes(endpoint)) endpoints.push(endpoint);
  }
  return endpoints;
}

const HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;

const workersDev = (target) => {
  const match = /^https:\/\/(\S+\.workers\.dev)$/.exec(target);
  return match && HOST.test(match[1]) ? `https://${match[1]}${MCP_PATH}` : undefined;
};

const customDomain = (target) => {
  const match = /^(\S+) \(custom domain\b/.exec(target);
  return match && HOST.test(match[1]) ? `https://${match[1]}${MCP_PATH}` : undefined;
};

/** A route pattern (`host/path`, `*` any characters) that a request to https://host/mcp matches. */
const route = (target) => {
  const match = /^(?:https?:\/\/)?([^/\s]+)(\/\S*)(?: \(zone (?:name|id): [^)]*\))?$/.exec(target);
  if (!match || !HOST.test(match[1])) return undefined;
  const path = new RegExp(
    `^${match[2]
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return path.test(MCP_PATH) ? `https://${match[1]}${MCP_PATH}` : undefined;
};

/** The lines printed after a deploy: the endpoint(s), then the next steps with the URLs filled in. */
export function nextSteps(endpoints) {
  if (endpoints.length === 0) {
    return [
      '',
      'wrangler named no URL for the Worker (is workers_dev off, with no route or custom domain for /mcp?).',
      'Once it has one: npm run smoke -- <url>/mcp, and npm run registry -- --url <url>/mcp (docs/discovery.md).',
    ].join('\n');
  }
  const [endpoint, ...others] = endpoints;
  const origin = endpoint.slice(0, -MCP_PATH.length);
  return [
    '',
    `Your MCP endpoint: ${endpoint}`,
    ...others.map((other) => `             also: ${other}`),
    '',
    'Next:',
    `  1. Open ${origin}/ in a browser: the server's page, with how to connect each client.`,
    `  2. Its Server Card: curl ${origin}/mcp/server-card`,
    '  3. Once: openssl rand -base64 32 | npx wrangler secret put MCP_STATE_SECRET',
    `  4. Check it as a client would: npm run smoke -- ${endpoint}`,
    `  5. List it in the MCP Registry: npm run registry -- --url ${endpoint}, then mcp-publisher publish (docs/discovery.md)`,
    `  6. Connect a client to ${endpoint} (docs/clients.md)`,
  ].join('\n');
}
