/**
 * One SSE response stream (spec 2026-07-28 streamable-http, Receiving Messages): JSON-RPC
 * messages as events, and an SSE comment at a fixed interval. The comment keeps quiet
 * streams open through intermediaries and is how a disconnect is noticed: the runtime
 * only learns the client is gone when a write fails, and then cancels the stream.
 */
import { SSE_HEADERS, sseEvent } from './responses.js';

const encoder = new TextEncoder();
const COMMENT = encoder.encode(':\n\n');

/**
 * What a stream may hold that its client has not read, in bytes: 256 KiB. Past it the client is
 * not keeping up, and what is sent to it waits in this isolate's memory (128 MB, shared by every
 * stream and request): a listen stream then ends gracefully (`./listen.ts`), a request's stream
 * drops its notifications until the client catches up (the result is always sent). Counted in
 * bytes, not only in events: one event echoes what the client sent (a listen request's id, a
 * progress token), so a few events may be large. At the default 100 listen streams an isolate
 * holds at most about 25 MiB of unread events (and one event more per stream).
 */
export const MAX_UNREAD_BYTES = 256 * 1024;

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
  /**
   * The sizes of the chunks written, oldest first, as long as they may still wait unread: the
   * runtime's queue is first in, first out, so those waiting are the last `backlog` written.
   */
  private readonly sizes: number[] = [];
  private waitingBytes = 0;

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

  /** Bytes of events and comments sent that the client has not read yet. */
  get unreadBytes(): number {
    this.forgetRead();
    return this.waitingBytes;
  }

  /** The client has fallen more than `MAX_UNREAD_BYTES` behind: send it nothing more that can wait. */
  get behind(): boolean {
    return this.unreadBytes > MAX_UNREAD_BYTES;
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
      this.sizes.push(bytes.byteLength);
      this.waitingBytes += bytes.byteLength;
      this.forgetRead(); // so a stream read as it goes keeps no sizes
    } catch {
      this.stop(true);
    }
  }

  /** Drops the sizes of the chunks the client has read: all but the last `backlog`. */
  private forgetRead(): void {
    const waiting = this.backlog;
    while (this.sizes.length > waiting) this.waitingBytes -= this.sizes.shift()!;
  }

  private stop(cancelled: boolean): void {
    if (!this.open) return;
    this.open = false;
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.end(cancelled ? 'client' : 'server');
    if (cancelled) this.onCancel();
  }
}
