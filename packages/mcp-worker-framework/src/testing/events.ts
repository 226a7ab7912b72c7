/**
 * The JSON-RPC messages of an answer as a client reads them (spec 2026-07-28 streamable-http,
 * Sending Messages): one JSON body, or the `data:` events of an SSE stream, read whole, or as they
 * come until the test has what it waits for.
 */

/** A JSON-RPC message the server sent: an answer (`result` or `error`) or a notification (progress, logs, a listen stream's). */
export interface Message {
  jsonrpc?: '2.0';
  id?: string | number;
  method?: string;
  params?: { [field: string]: unknown };
  result?: { [field: string]: unknown };
  error?: { code: number; message: string; data?: unknown };
}

/** Every message of an answer that ends: one JSON body, or every `data:` event of an SSE stream. */
export async function messagesOf(response: Response): Promise<Message[]> {
  const text = await response.text();
  if (!response.headers.get('Content-Type')?.startsWith('text/event-stream')) return text ? [JSON.parse(text)] : [];
  return text.split('\n\n').map(eventData).filter(Boolean).map(parse);
}

/** Reads SSE events from a streaming answer, one JSON-RPC message each, until `stop` says so (bounded: 10 s); a listen stream never ends by itself. */
export async function readEvents(response: Response, stop: (message: Message) => boolean): Promise<Message[]> {
  if (!response.body) throw new Error(`the answer (${response.status}) has no body to read events from`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const messages: Message[] = [];
  const timer = setTimeout(() => void reader.cancel(), 10_000);
  let buffer = '';
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      buffer += next.value;
      const events = buffer.split('\n\n');
      buffer = events.pop() ?? '';
      for (const data of events.map(eventData)) {
        if (!data) continue;
        const message = parse(data);
        messages.push(message);
        if (stop(message)) return messages;
      }
    }
    return messages;
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}

/** The data of one SSE event: its `data:` lines joined (spec: an optional space after the colon). */
const eventData = (event: string) =>
  event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');

const parse = (data: string) => JSON.parse(data) as Message;
