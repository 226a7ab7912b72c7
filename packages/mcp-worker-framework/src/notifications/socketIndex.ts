/**
 * A hub shard's listeners by the resource URIs they asked for. A socket carries its URIs' keys
 * in its attachment, which survives hibernation; the index is memory, rebuilt from the
 * attachments on the first change after the shard wakes, and kept while it is awake. Lists need
 * no index: a socket's tags name them, and the runtime finds sockets by tag.
 */

/** What a listener's socket keeps across hibernation: the keys (`uriKey`) of the URIs it listens to. */
export interface ListenerAttachment {
  keys: string[];
}

export class SocketIndex {
  private readonly byKey = new Map<string, Set<WebSocket>>();

  /** Indexes the sockets given (a shard's `getWebSockets(URIS_TAG)`, once after it wakes). */
  constructor(sockets: Iterable<WebSocket>) {
    for (const socket of sockets) this.add(socket);
  }

  add(socket: WebSocket): void {
    for (const key of keysOf(socket)) {
      const sockets = this.byKey.get(key);
      if (sockets) sockets.add(socket);
      else this.byKey.set(key, new Set([socket]));
    }
  }

  remove(socket: WebSocket): void {
    for (const key of keysOf(socket)) {
      const sockets = this.byKey.get(key);
      sockets?.delete(socket);
      if (sockets?.size === 0) this.byKey.delete(key);
    }
  }

  /** The sockets listening to the URI of `key`. */
  get(key: string): ReadonlySet<WebSocket> {
    return this.byKey.get(key) ?? NONE;
  }
}

const NONE: ReadonlySet<WebSocket> = new Set();

function keysOf(socket: WebSocket): readonly string[] {
  const attachment = socket.deserializeAttachment() as ListenerAttachment | null;
  return attachment?.keys ?? [];
}
