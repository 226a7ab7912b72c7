/**
 * The HTTP answer of a request the core serves asynchronously is whichever comes first (spec
 * 2026-07-28 streamable-http, Sending Messages): the SSE stream that a notification (progress,
 * a log line) opens while the handler works, or the handler's reply as plain JSON. Deciding
 * that race is this class's one job. The side that comes second changes nothing, as a promise
 * settles once: a reply after the stream has opened goes out as the stream's last event, and
 * no notification is sent after the reply (`serveMcp`, `HttpCall.notify`).
 */
export class FirstAnswer {
  /** The HTTP answer, as soon as one side has come. */
  readonly response: Promise<Response>;
  private settle!: (response: Response) => void;

  /** `stream`: the stream's answer when a notification opened it before the core went asynchronous (the race is won already). */
  constructor(stream: Response | undefined) {
    this.response = new Promise((resolve) => (this.settle = resolve));
    if (stream) this.settle(stream);
  }

  /** A notification opened the stream: the stream answers, and the reply will be its last event. */
  streamOpened(stream: Response): void {
    this.settle(stream);
  }

  /** The reply is ready: its answer is the answer, unless the stream came first. */
  replyReady(answer: Response): void {
    this.settle(answer);
  }
}
