/**
 * How a coordinator bounds a notify flood: a change goes out at once when nothing went out in
 * the last window; otherwise it waits for the window's end, merged with every other change that
 * came meanwhile (the same change twice is sent once: "read it again" said twice says nothing
 * more). A listener therefore gets each change at most once per window, and a flood costs the hub
 * one fan-out per window. Every caller learns the outcome of the fan-out that carried its change.
 */

/** One window's changes, and the outcome their callers wait for. */
interface Batch {
  readonly topics: Set<string>;
  readonly sent: Promise<void>;
  settle(fanOut: Promise<void>): void;
}

export class Coalescer {
  /** A window is running: what comes now waits for its end. */
  private windowOpen = false;
  private next: Batch | undefined;

  constructor(
    private readonly windowMs: number,
    private readonly maxPending: number,
    private readonly fanOut: (topics: readonly string[]) => Promise<void>,
  ) {}

  /** Settles when the fan-out carrying `topic` has been accepted by every shard; rejects with its failure, or when too many changes wait. */
  publish(topic: string): Promise<void> {
    if (!this.windowOpen) {
      this.windowOpen = true;
      this.closeWindowLater();
      return this.fanOut([topic]);
    }
    const next = (this.next ??= batch());
    if (!next.topics.has(topic) && next.topics.size >= this.maxPending)
      return Promise.reject(
        new Error(`${this.maxPending} changes already wait for the next fan-out: this one is refused, try again later`),
      );
    next.topics.add(topic);
    return next.sent;
  }

  /** At the window's end, the changes that came meanwhile go out together and a new window starts; none came: the window closes. */
  private closeWindowLater(): void {
    setTimeout(() => {
      const due = this.next;
      this.next = undefined;
      if (!due) {
        this.windowOpen = false;
        return;
      }
      due.settle(this.fanOut([...due.topics]));
      this.closeWindowLater();
    }, this.windowMs);
  }
}

function batch(): Batch {
  let settle!: (fanOut: Promise<void>) => void;
  const sent = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { topics: new Set(), sent, settle };
}
