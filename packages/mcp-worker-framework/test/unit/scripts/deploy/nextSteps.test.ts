/**
 * `npm run deploy` (scripts/deploy.mjs) reads the MCP endpoint out of `wrangler deploy`'s own
 * summary and prints the next steps with it. Tested offline on wrangler's output as it prints it
 * (the lines of `Deployed <name> triggers` and the targets under it, from wrangler 4's deploy).
 */
import { describe, expect, it } from 'vitest';
import { endpointsOf, nextSteps } from '../../../../scripts/deploy/nextSteps.mjs';

/** wrangler deploy's output around its targets, as it prints it (colours included, as on a terminal). */
const deployed = (...targets: string[]) =>
  [
    '',
    ' \x1b[1m⛅️ wrangler\x1b[22m 4.164.0',
    '───────────────────',
    'Total Upload: 181.20 KiB / gzip: 41.33 KiB',
    'Worker Startup Time: 14 ms',
    'Your Worker has access to the following bindings:',
    'Binding                                   Resource',
    'env.MCP_RATE_LIMITER (1001)               Rate Limit',
    'env.LEGACY_CLIENTS ("on")                 Environment Variable',
    '',
    'Uploaded mcp-worker-template (3.42 sec)',
    'Deployed mcp-worker-template triggers (0.87 sec)',
    ...targets.map((target) => `  ${target}`),
    'Current Version ID: 4f6c2a1e-5b1d-4c35-9a43-0d7e1f2b8c90',
    '',
  ].join('\n');

describe("the endpoint, from wrangler deploy's output", () => {
  it('is the workers.dev URL plus /mcp', () => {
    expect(endpointsOf(deployed('https://mcp-worker-template.ada.workers.dev'))).toEqual([
      'https://mcp-worker-template.ada.workers.dev/mcp',
    ]);
  });

  it('is each custom domain, and each route whose pattern covers /mcp, on its host', () => {
    const output = deployed(
      'https://mcp-worker-template.ada.workers.dev',
      'mcp.example.com (custom domain)',
      'tools.example.com (custom domain - zone name: example.com)',
      'example.org/mcp* (zone name: example.org)',
      'api.example.net/* (zone id: 0123456789abcdef0123456789abcdef)',
    );
    expect(endpointsOf(output)).toEqual([
      'https://mcp-worker-template.ada.workers.dev/mcp',
      'https://mcp.example.com/mcp',
      'https://tools.example.com/mcp',
      'https://example.org/mcp',
      'https://api.example.net/mcp',
    ]);
  });

  it('is not a route on another path, a wildcard host, or a cron schedule', () => {
    expect(
      endpointsOf(
        deployed(
          'example.com/api/* (zone name: example.com)',
          '*.example.com/* (zone name: example.com)',
          'schedule: */5 * * * *',
        ),
      ),
    ).toEqual([]);
  });

  it('is none when wrangler deployed no target, or failed', () => {
    expect(
      endpointsOf('Uploaded mcp-worker-template (3.10 sec)\nNo targets deployed for mcp-worker-template (0.41 sec)\n'),
    ).toEqual([]);
    expect(endpointsOf('✘ [ERROR] A request to the Cloudflare API failed.\n')).toEqual([]);
  });

  it('stops at the end of the targets: a URL printed later is not one', () => {
    expect(endpointsOf(`${deployed('https://a.ada.workers.dev')}\n  https://b.ada.workers.dev\n`)).toEqual([
      'https://a.ada.workers.dev/mcp',
    ]);
  });
});

describe('the next steps', () => {
  it('name the endpoint, the page, the card, the smoke check, the registry and a client, with the URLs filled in', () => {
    const printed = nextSteps(['https://mcp-worker-template.ada.workers.dev/mcp', 'https://mcp.example.com/mcp']);
    expect(printed).toContain('Your MCP endpoint: https://mcp-worker-template.ada.workers.dev/mcp');
    expect(printed).toContain('also: https://mcp.example.com/mcp');
    expect(printed).toContain('Open https://mcp-worker-template.ada.workers.dev/ in a browser');
    expect(printed).toContain('curl https://mcp-worker-template.ada.workers.dev/mcp/server-card');
    expect(printed).toContain('npx wrangler secret put MCP_STATE_SECRET');
    expect(printed).toContain('npm run smoke -- https://mcp-worker-template.ada.workers.dev/mcp');
    expect(printed).toContain('npm run registry -- --url https://mcp-worker-template.ada.workers.dev/mcp');
    expect(printed).toContain('Connect a client to https://mcp-worker-template.ada.workers.dev/mcp (docs/clients.md)');
  });

  it('say what to do when wrangler named no URL', () => {
    expect(nextSteps([])).toContain('wrangler named no URL for the Worker');
  });
});
