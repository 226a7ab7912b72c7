/**
 * A web host of MCP Apps, as small as the spec allows (spec extensions/apps, Lifecycle; Sandbox
 * proxy), running in the browser page ../appsHost.ts serves. It connects to the
 * Worker with the official client, declaring the extension; calls a UI tool; reads the tool's
 * `ui://` view; renders it in a sandbox proxy on another origin, which loads it under the CSP
 * built from its `_meta.ui.csp`; and speaks to the view with ext-apps' `AppBridge`, which forwards
 * the view's own tool calls to the Worker. The test drives it through `window.host`.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import {
  AppBridge,
  PostMessageTransport,
  type McpUiHostContext,
  type McpUiStyles,
} from '@modelcontextprotocol/ext-apps/app-bridge';

const query = new URLSearchParams(location.search);
const endpoint = query.get('endpoint') ?? '';
const sandbox = query.get('sandbox') ?? '';

/** A few of the spec's theme variables (spec extensions/apps, Theming: a host may send any subset), as a host sends them. */
const THEMES = {
  light: {
    '--color-background-primary': '#ffffff',
    '--color-text-primary': '#1b1d22',
    '--color-background-secondary': '#eef1f6',
  },
  dark: {
    '--color-background-primary': '#15171c',
    '--color-text-primary': '#eef0f4',
    '--color-background-secondary': '#262a33',
  },
} as const;

const contextFor = (theme: 'light' | 'dark'): McpUiHostContext => ({
  theme,
  styles: { variables: THEMES[theme] as McpUiStyles },
  displayMode: 'inline',
  platform: 'web',
});

interface ViewContent {
  text: string;
  _meta?: { ui?: { csp?: Record<string, string[]>; permissions?: Record<string, object> } };
}

let bridge: AppBridge | undefined;

async function show(tool: string, args: Record<string, unknown>): Promise<{ text: string; csp: unknown }> {
  const client = new Client(
    { name: 'test-host', version: '1.0.0' },
    { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  const { tools } = await client.listTools();
  const uri = (tools.find((t) => t.name === tool)?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  if (!uri) throw new Error(`${tool} names no view`);
  const [content] = (await client.readResource({ uri })).contents as ViewContent[];
  if (!content) throw new Error(`${uri} has no contents`);

  const frame = document.createElement('iframe');
  frame.title = 'view';
  // The proxy needs its own origin's scripts and storage; the view inside it gets neither (sandbox.ts).
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  frame.src = sandbox;
  document.getElementById('views')!.appendChild(frame);
  bridge = new AppBridge(
    client,
    { name: 'test-host', version: '1.0.0' },
    { serverTools: {}, serverResources: {} },
    { hostContext: contextFor('light') },
  );
  const view = bridge;
  view.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => (view.oninitialized = () => resolve()));
  view.onsandboxready = () =>
    void view.sendSandboxResourceReady({
      html: content.text,
      csp: content._meta?.ui?.csp,
      permissions: content._meta?.ui?.permissions,
    });
  await view.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  await initialized;
  // spec extensions/apps, Data Passing: the arguments, then the result, once the view is initialized.
  await view.sendToolInput({ arguments: args });
  const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  await view.sendToolResult(result);
  const first = result.content[0];
  return { text: first?.type === 'text' ? first.text : '', csp: content._meta?.ui?.csp ?? null };
}

function setTheme(theme: 'light' | 'dark'): void {
  document.documentElement.dataset.theme = theme;
  bridge?.setHostContext(contextFor(theme));
}

Object.assign(window, { host: { show, setTheme } });
