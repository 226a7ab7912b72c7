/**
 * A web host of MCP Apps for browser tests (docs/apps.md): the host page (./host/host.ts) and its
 * sandbox proxy (./host/sandbox.ts), bundled with esbuild and served on two loopback origins, as
 * the spec asks of a web host (spec extensions/apps, Sandbox proxy: different origins). A test
 * opens `pageFor(endpoint)` in Chromium and drives `window.host`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';

export interface AppsHost {
  /** The host page for the MCP endpoint at `endpoint`. */
  pageFor(endpoint: string): string;
  close(): Promise<void>;
}

/** The host's own scripts, beside this module: TypeScript in the framework's tree, JavaScript in the package. */
const SOURCE = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

async function bundle(name: string): Promise<string> {
  const result = await build({
    entryPoints: [new URL(`./host/${name}${SOURCE}`, import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

const page = (script: string, style: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title><style>${style}</style></head><body><div id="views"></div><script type="module">${script.replaceAll('</script', '<\\/script')}</script></body></html>`;

function serve(html: string): Promise<Server> {
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

export async function startAppsHost(): Promise<AppsHost> {
  const [hostScript, sandboxScript] = await Promise.all([bundle('host'), bundle('sandbox')]);
  const hostStyle = `
    html { color-scheme: light; } html[data-theme=dark] { color-scheme: dark; }
    body { margin: 0; padding: 24px; font: 14px system-ui, sans-serif; background: #f4f5f7; } html[data-theme=dark] body { background: #0b0c0f; }
    iframe { display: block; width: 560px; border: 1px solid #c9ced8; border-radius: 12px; background: transparent; }`;
  const [host, sandbox] = await Promise.all([
    serve(page(hostScript, hostStyle)),
    serve(page(sandboxScript, 'html, body { margin: 0; } iframe { display: block; width: 100%; border: 0; }')),
  ]);
  return {
    pageFor: (endpoint) =>
      `${origin(host)}/?${new URLSearchParams({ endpoint, sandbox: `${origin(sandbox)}/?host=${encodeURIComponent(origin(host))}` })}`,
    close: async () => {
      await Promise.all([host, sandbox].map((s) => new Promise((done) => s.close(done))));
    },
  };
}
