/**
 * A webhook receiver on loopback (node:http), as a client's gateway would run one: it verifies
 * every POST with the reference Standard Webhooks library against the secrets it was given for
 * its path, echoes a verification challenge, and answers events as a test asks (fail the first
 * attempts with 503, redirect, 413, stay silent on the challenge). It keeps what it received.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: Record<string, any>;
  raw: string;
  /** The secrets (of those registered for the path) whose signature verified. */
  verifiedWith: string[];
  /** What the receiver answered. */
  status: number;
}

export interface PathBehaviour {
  secrets: string[];
  /** Event deliveries answered 503 before the first that is accepted. */
  failFirst?: number;
  /** Every event delivery answered with this status (e.g. 413, 503). */
  status?: number;
  /** The challenge: echoed (default), answered 200 without the echo, or redirected. */
  challenge?: 'echo' | 'silent' | 'redirect';
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: Received[];
  /** Sets how `path` answers, and the secrets it verifies with. */
  on(path: string, behaviour: PathBehaviour): void;
  events(path: string): Received[];
  close(): Promise<void>;
}

export const secret = (fill: number) => `whsec_${Buffer.alloc(32, fill).toString('base64')}`;

export async function startReceiver(): Promise<Receiver> {
  const behaviours = new Map<string, PathBehaviour & { failed: number }>();
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    const raw = await text(request);
    const path = request.url ?? '/';
    const behaviour = behaviours.get(path);
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
    ) as Record<string, string>;
    const verifiedWith = (behaviour?.secrets ?? []).filter((key) => {
      try {
        new Webhook(key).verify(raw, headers);
        return true;
      } catch {
        return false;
      }
    });
    let body: Record<string, any> = {};
    try {
      body = JSON.parse(raw);
    } catch {}
    const answer = (status: number, reply?: string, extra: Record<string, string> = {}) => {
      received.push({ path, headers, body, raw, verifiedWith, status });
      response.writeHead(status, { 'Content-Type': 'application/json', ...extra });
      response.end(reply);
    };
    if (!behaviour || verifiedWith.length === 0) return answer(401);
    if (body.type === 'verification') {
      if (behaviour.challenge === 'silent') return answer(200, '{}');
      if (behaviour.challenge === 'redirect') return answer(302, '', { Location: `${path}/elsewhere` });
      return answer(200, JSON.stringify({ challenge: body.challenge }));
    }
    if (behaviour.status) return answer(behaviour.status);
    if (behaviour.failed < (behaviour.failFirst ?? 0)) {
      behaviour.failed++;
      return answer(503);
    }
    return answer(204);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    on: (path, behaviour) => behaviours.set(path, { ...behaviour, failed: 0 }),
    events: (path) => received.filter((r) => r.path === path && r.body.type === undefined),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function text(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
