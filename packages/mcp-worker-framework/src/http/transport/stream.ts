/**
 * One SSE response stream (spec 2026-07-28 streamable-http, Receiving Messages): JSON-RPC
 * messages as events, and an SSE comment at a fixed interval. The comment keeps quiet
 * streams open through intermediaries and is how a disconnect is noticed: the runtime
 * only learns the client is gone when a write fails, and then cancels the stream.
 */
import { SSE_HEADERS, sseEvent } from './responses';

const encoder = new TextEncoder();
const COMMENT = encoder.encode(':\n\n');

/** Who ended a stream: the server after its last event, or the client by going away. */
export type StreamEnd = 'server' | 'client';

export class EventStream {
  readonly response: Response;
  /** Settles when the stream has ended, for whoever must act then (the request log). */
  readonly ended: Promise<StreamEnd>;
  private end!: (by: StreamEnd) => void;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private open = true;

  /** `onCancel` runs when the client goes away; `heartbeatMs` spaces the comments. */
  constructor(
    heartbeatMs: number,
    private readonly onCancel: () => void,
  ) {
    this.ended = new Promise((resolve) => (this.end = resolve));
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => void (this.controller = controller),
      cancel: () => this.stop(true),
    });
    this.heartbeat = setInterval(() => this.write(COMMENT), heartbeatMs);
    this.response = new Response(body, { headers: SSE_HEADERS });
  }

  get closed(): boolean {
    return !this.open;
  }

  /** Events and comments sent that the client has not read yet (the runtime reads on as the network takes them). */
  get backlog(): number {
    return 1 - (this.controller.desiredSize ?? 1);
  }

  /** Sends one JSON-RPC message as an event. */
  send(json: string): void {
    this.write(encoder.encode(sseEvent(json)));
  }

  /** Ends the stream after what was sent, and after `last` when given (the reply that ends a request's stream). */
  close(last?: string): void {
    if (last !== undefined) this.send(last);
    if (!this.open) return;
    this.stop(false);
    this.controller.close();
  }

  private write(bytes: Uint8Array): void {
    if (!this.open) return;
    try {
      this.controller.enqueue(bytes);
    } catch {
      this.stop(true);
    }
  }

  private stop(cancelled: boolean): void {
    if (!this.open) return;
    this.open = false;
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.end(cancelled ? 'client' : 'server');
    if (cancelled) this.onCancel();
  }
}
