/**
 * A poll or a stream waiting for an event type's events, whichever isolate it is in: a WebSocket
 * to the type's object (./eventLog.ts), which sends each event as it is kept. Opened before the
 * ring is read, so an event kept in between is heard (and told apart by its place in the ring).
 */
import type { RingEvent } from './eventsNamespace.js';

interface Waiter {
  /** Stops listening and closes the socket; idempotent. */
  close(): void;
}

/** Listens to the type object's events: `onEvent` each, `onEnd` once when the object goes away. */
export async function waitForEvents(
  typeObject: { fetch(request: Request): Promise<Response> },
  onEvent: (event: RingEvent) => void,
  onEnd: () => void,
): Promise<Waiter> {
  const response = await typeObject.fetch(
    new Request('https://events.invalid/wait', { headers: { Upgrade: 'websocket' } }),
  );
  const socket = response.webSocket;
  if (!socket) throw new Error(`the event type's object answered ${response.status} without a WebSocket`);
  let open = true;
  const end = () => {
    if (!open) return;
    open = false;
    onEnd();
  };
  socket.addEventListener('message', ({ data }) => {
    if (typeof data !== 'string') return;
    try {
      onEvent(JSON.parse(data) as RingEvent);
    } catch {
      // not an event: dropped
    }
  });
  socket.addEventListener('close', end);
  socket.addEventListener('error', end);
  socket.accept();
  return {
    close() {
      open = false;
      try {
        socket.close(1000, 'done waiting');
      } catch {
        // closed already
      }
    },
  };
}
